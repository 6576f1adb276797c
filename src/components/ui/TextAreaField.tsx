import { useId, type TextareaHTMLAttributes } from 'react'
import { cn } from '@/lib/cn'
import { FieldError, FieldLabel, fieldControlClasses } from './field-parts'

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
      <FieldLabel htmlFor={id} required={rest.required}>
        {label}
      </FieldLabel>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={cn(...fieldControlClasses(error))}
        {...rest}
      />
      <FieldError id={errorId} error={error} />
    </div>
  )
}
