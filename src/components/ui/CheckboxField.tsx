import { useId, type InputHTMLAttributes } from 'react'

export interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: string
  /** A sentence under the label saying what ticking it does. */
  hint?: string
}

/** A labelled checkbox; the whole label is its click target. */
export function CheckboxField({ label, hint, className, ...rest }: CheckboxFieldProps) {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div className={className}>
      <div className="flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          aria-describedby={hint ? hintId : undefined}
          className="mt-0.5 h-4 w-4 shrink-0 rounded border-gray-300 text-primary-600 focus:ring-2 focus:ring-primary-500"
          {...rest}
        />
        <label htmlFor={id} className="text-sm font-medium text-gray-700">
          {label}
        </label>
      </div>
      {hint && (
        <p id={hintId} className="ml-6 mt-1 text-sm text-gray-600">
          {hint}
        </p>
      )}
    </div>
  )
}
