import type { ReactNode } from 'react'
import { Pencil, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/Button'

/** A list row's Modifier and Supprimer buttons (Supprimer only with onDelete), after any others the row has. */
export function RowActions({ name, onEdit, onDelete, before, after }: { name: string; onEdit: () => void; onDelete?: () => void; before?: ReactNode; after?: ReactNode }) {
  return (
    <div className="flex gap-1">
      {before}
      <Button variant="ghost" size="sm" aria-label={`Modifier ${name}`} onClick={onEdit}>
        <Pencil aria-hidden="true" className="h-4 w-4" />
      </Button>
      {onDelete && (
        <Button variant="ghost" size="sm" aria-label={`Supprimer ${name}`} onClick={onDelete}>
          <Trash2 aria-hidden="true" className="h-4 w-4 text-red-600" />
        </Button>
      )}
      {after}
    </div>
  )
}
