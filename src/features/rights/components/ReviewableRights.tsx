import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { Button } from '@/components/ui/Button'
import { StatusBadge } from '@/components/ui/StatusBadge'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate, lastUseText } from '@/lib/dates'
import { usePersonRights } from '../api'
import type { HeldRight } from '../model'

interface ReviewableRightsTableProps {
  rights: readonly HeldRight[]
  /** Opens the decision on a pending right; the reviews feature, composed by the route, owns decisions. */
  onDecide: (right: HeldRight) => void
}

/** SPEC §2's 'Droits à revoir': Valider and Refuser only on pending rights. */
export function ReviewableRightsTable({ rights, onDecide }: ReviewableRightsTableProps) {
  return (
    <Table caption="Droits à revoir">
      <TableHead>
        <tr>
          <TableHeaderCell>Application</TableHeaderCell>
          <TableHeaderCell>Rôle</TableHeaderCell>
          <TableHeaderCell>Date d&apos;attribution</TableHeaderCell>
          <TableHeaderCell>Dernière utilisation</TableHeaderCell>
          <TableHeaderCell>Statut</TableHeaderCell>
          <TableHeaderCell>Actions</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {rights.length === 0 && <TableEmptyRow colSpan={6} message="Aucun droit à revoir." />}
        {rights.map((right) => {
          const application = right.application?.name ?? '-'
          return (
            <TableRow key={right.id}>
              <TableCell>{application}</TableCell>
              <TableCell>{right.role_name}</TableCell>
              <TableCell>{formatDate(right.granted_at)}</TableCell>
              <TableCell>{lastUseText(right.last_used_at)}</TableCell>
              <TableCell>
                <StatusBadge status={right.status} />
              </TableCell>
              <TableCell>
                {right.status === 'pending' && (
                  <div className="flex gap-2">
                    <Button size="sm" variant="success" onClick={() => onDecide(right)} aria-label={`Valider ${application} — ${right.role_name}`}>
                      Valider
                    </Button>
                    <Button size="sm" variant="danger" onClick={() => onDecide(right)} aria-label={`Refuser ${application} — ${right.role_name}`}>
                      Refuser
                    </Button>
                  </div>
                )}
              </TableCell>
            </TableRow>
          )
        })}
      </TableBody>
    </Table>
  )
}

/** The holder's own rights, as SPEC §2's user dashboard lists them for review. */
export function ReviewableRights({ userId, onDecide }: { userId: string; onDecide: (right: HeldRight) => void }) {
  const rights = usePersonRights(userId)
  if (rights.isPending) return <Spinner className="py-8" />
  if (rights.error) return <ErrorBox className="m-4" message={rights.error.message} />
  return <ReviewableRightsTable rights={rights.data} onDecide={onDecide} />
}
