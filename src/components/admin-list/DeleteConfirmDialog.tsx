import { ConfirmDialog } from '@/components/ui/ConfirmDialog'

/** The deletion a list's Supprimer asks for: a mutation on the row's id. */
interface Removal {
  isPending: boolean
  error: Error | null
  mutate(id: string, options: { onSuccess: () => void }): void
  reset(): void
}

/** Asks before deleting a list's row; closes once deleted, and forgets a failure when closed. */
export function DeleteConfirmDialog<Row extends { id: string }>({
  target,
  title,
  message,
  removal,
  onClose,
}: {
  /** The row to delete, or null when nothing is asked. */
  target: Row | null
  title: string
  message: (row: Row) => string
  removal: Removal
  onClose: () => void
}) {
  const close = () => {
    onClose()
    removal.reset()
  }
  return (
    <ConfirmDialog
      open={target !== null}
      title={title}
      message={target ? message(target) : ''}
      pending={removal.isPending}
      error={removal.error ? removal.error.message : null}
      onClose={close}
      onConfirm={() => {
        if (target) removal.mutate(target.id, { onSuccess: close })
      }}
    />
  )
}
