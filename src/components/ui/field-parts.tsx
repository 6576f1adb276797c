import type { ReactNode } from 'react'

/** A form field's label, with a star (hidden from screen readers, which read `required`) when the field is required. */
export function FieldLabel({ htmlFor, required, children }: { htmlFor: string; required?: boolean; children: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="mb-1 block text-sm font-medium text-gray-700">
      {children}
      {required && (
        <span aria-hidden="true" className="text-red-600">
          {' '}
          *
        </span>
      )}
    </label>
  )
}

/** A field's error under it, which the control names in aria-describedby; nothing when there is none. */
export function FieldError({ id, error }: { id: string; error: string | undefined | null }) {
  if (!error) return null
  return (
    <p id={id} className="mt-1 text-sm text-red-600">
      {error}
    </p>
  )
}

/** The look of a text control (input, select, textarea), red-bordered when its value is refused. */
export const fieldControlClasses = (error: unknown) => [
  'block w-full rounded-md border bg-white px-3 py-2 text-sm text-gray-900 shadow-sm',
  'focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500',
  error ? 'border-red-500' : 'border-gray-300',
]
