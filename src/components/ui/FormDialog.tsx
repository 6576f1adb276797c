import { useId, type FormEvent, type ReactNode } from 'react'
import { Button } from './Button'
import { Dialog, type DialogProps } from './Dialog'
import { ErrorBox } from './ErrorBox'

interface FormDialogProps {
  title: string
  onClose: () => void
  onSubmit: (event: FormEvent<HTMLFormElement>) => void
  submitLabel: string
  pending: boolean
  /** The server's refusal, shown at the top of the form. */
  error?: string | null
  size?: DialogProps['size']
  children: ReactNode
}

/** A create or edit form in a dialog: Annuler and the submit button in the footer, the server's message on top. */
export function FormDialog({ title, onClose, onSubmit, submitLabel, pending, error, size = 'lg', children }: FormDialogProps) {
  const formId = useId()
  return (
    <Dialog
      open
      onClose={onClose}
      title={title}
      size={size}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Annuler
          </Button>
          <Button type="submit" form={formId} loading={pending}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={onSubmit} className="space-y-4">
        {error !== null && error !== undefined && <ErrorBox message={error} />}
        {children}
      </form>
    </Dialog>
  )
}
