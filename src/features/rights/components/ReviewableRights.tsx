import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { Button } from '@/components/ui/Button'
import { StatusBadge } from '@/components/ui/StatusBadge'
import { cardTable, Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { cn } from '@/lib/cn'
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
    <Table caption="Droits à revoir" className={cardTable.table}>
      <TableHead className={cardTable.head}>
        <tr>
          <TableHeaderCell>Application</TableHeaderCell>
          <TableHeaderCell>Rôle</TableHeaderCell>
          <TableHeaderCell>Date d&apos;attribution</TableHeaderCell>
          <TableHeaderCell>Dernière utilisation</TableHeaderCell>
          <TableHeaderCell>Statut</TableHeaderCell>
          <TableHeaderCell>Actions</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody className={cardTable.body}>
        {rights.length === 0 && <TableEmptyRow colSpan={6} message="Aucun droit à revoir." />}
        {rights.map((right) => {
          const application = right.application?.name ?? '-'
          return (
            <TableRow key={right.id} className={cardTable.row}>
              <TableCell className={cn(cardTable.block, 'max-md:pb-2 max-md:pt-0 max-md:font-medium')}>{application}</TableCell>
              <TableCell data-label="Rôle" className={cardTable.labelled}>
                {right.role_name}
              </TableCell>
              <TableCell data-label="Date d'attribution" className={cardTable.labelled}>
                {formatDate(right.granted_at)}
              </TableCell>
              <TableCell data-label="Dernière utilisation" className={cardTable.labelled}>
                {lastUseText(right.last_used_at)}
              </TableCell>
              <TableCell data-label="Statut" className={cardTable.labelled}>
                <StatusBadge status={right.status} />
              </TableCell>
              <TableCell className={cn(cardTable.block, 'max-md:pt-3 max-md:empty:hidden')}>
                {right.status === 'pending' && (
                  <div className="flex gap-2 max-md:[&>*]:flex-1">
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
