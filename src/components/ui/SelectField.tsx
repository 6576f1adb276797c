import { useId, type ReactNode, type SelectHTMLAttributes } from 'react'
import { cn } from '@/lib/cn'
import { FieldError, FieldLabel, fieldControlClasses } from './field-parts'

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string
  error?: string | null
  /** A sentence under the field saying what the choice does. */
  hint?: string
  children: ReactNode
}

/** A labelled native select, styled like TextInput; the error is tied to it for screen readers. */
export function SelectField({ label, error, hint, className, children, ...rest }: SelectFieldProps) {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined
  return (
    <div className={className}>
      <FieldLabel htmlFor={id} required={rest.required}>
        {label}
      </FieldLabel>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cn(...fieldControlClasses(error))}
        {...rest}
      >
        {children}
      </select>
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-gray-600">
          {hint}
        </p>
      )}
      <FieldError id={errorId} error={error} />
    </div>
  )
}
