import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import { cn } from '@/lib/cn'
import { FieldError, FieldLabel, fieldControlClasses } from './field-parts'

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string
  error?: string | null
  help?: string
  icon?: ReactNode
  id?: string
}

export function TextInput({ label, error, help, icon, id, className, ...rest }: TextInputProps) {
  const generatedId = useId()
  const inputId = id ?? generatedId
  const helpId = `${inputId}-help`
  const errorId = `${inputId}-error`
  const describedBy = [error ? errorId : null, help ? helpId : null].filter(Boolean).join(' ') || undefined

  return (
    <div className={className}>
      <FieldLabel htmlFor={inputId} required={rest.required}>
        {label}
      </FieldLabel>
      <div className="relative">
        {icon && (
          <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-gray-400">
            {icon}
          </span>
        )}
        <input
          id={inputId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={cn(
            ...fieldControlClasses(error),
            icon ? 'pl-10' : null,
          )}
          {...rest}
        />
      </div>
      <FieldError id={errorId} error={error} />
      {help && (
        <p id={helpId} className="mt-1 text-sm text-gray-500">
          {help}
        </p>
      )}
    </div>
  )
}
