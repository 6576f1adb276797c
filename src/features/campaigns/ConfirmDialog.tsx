import { Button, type ButtonVariant } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'

interface ConfirmDialogProps {
  open: boolean
  title: string
  message: string
  confirmLabel: string
  variant?: ButtonVariant
  pending?: boolean
  error?: string | null
  onConfirm: () => void
  onClose: () => void
}

/** Asks before a lifecycle step or a deletion; a failure keeps it open with the server's message. */
export function ConfirmDialog({ open, title, message, confirmLabel, variant = 'primary', pending, error, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Annuler
          </Button>
          <Button variant={variant} loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="space-y-3">
        <p className="text-sm text-gray-700">{message}</p>
        {error && <ErrorBox message={error} />}
      </div>
    </Dialog>
  )
}
