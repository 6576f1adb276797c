import { useId, type TextareaHTMLAttributes } from 'react'
import { cn } from '@/lib/cn'

export interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string
  error?: string | null
}

/** A labelled textarea, styled like TextInput; the error is tied to it for screen readers. */
export function TextAreaField({ label, error, className, ...rest }: TextAreaFieldProps) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className={className}>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-gray-700">
        {label}
        {rest.required && (
          <span aria-hidden="true" className="text-red-600">
            {' '}
            *
          </span>
        )}
      </label>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cn(
          'block w-full rounded-md border bg-white px-3 py-2 text-sm text-gray-900 shadow-sm',
          'focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500',
          error ? 'border-red-500' : 'border-gray-300',
        )}
        {...rest}
      />
      {error && (
        <p id={errorId} className="mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  )
}
