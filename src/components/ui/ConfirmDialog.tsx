import type { ReactNode } from 'react'
import { Button, type ButtonVariant } from './Button'
import { Dialog } from './Dialog'
import { ErrorBox } from './ErrorBox'

interface ConfirmDialogProps {
  open: boolean
  title: string
  message: string
  /** What the action will do in figures, below the question. */
  details?: ReactNode
  confirmLabel?: string
  /** Red by default, for deletions; a lifecycle step may ask in the primary colour. */
  variant?: ButtonVariant
  pending?: boolean
  /** The server's refusal, shown inside the dialog, which stays open. */
  error?: string | null
  onConfirm: () => void
  onClose: () => void
}

/** Asks before an action that cannot be taken back; a failure keeps it open with the server's message. */
export function ConfirmDialog({
  open,
  title,
  message,
  details,
  confirmLabel = 'Supprimer',
  variant = 'danger',
  pending = false,
  error,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Annuler
          </Button>
          <Button variant={variant} onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {error && <ErrorBox message={error} className="mb-3" />}
      <p className="text-sm text-gray-700">{message}</p>
      {details}
    </Dialog>
  )
}
