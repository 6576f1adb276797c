import type { ReactNode } from 'react'
import { StatusBadge } from '@/components/ui/StatusBadge'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { lastUseText } from '@/lib/dates'
import { sortAwaiting, type AwaitingRight } from '../model'

interface AwaitingRightsTableProps {
  rights: readonly AwaitingRight[]
  /** The decision buttons of a row, supplied by the page that can decide (the reviews feature owns decisions). */
  renderActions?: (right: AwaitingRight) => ReactNode
}

/** SPEC §2's 'Droits à valider pour l'équipe': the first rights of the manager's queue. */
export function AwaitingRightsTable({ rights, renderActions }: AwaitingRightsTableProps) {
  const columns = renderActions ? 6 : 5
  return (
    <Table caption="Droits à valider pour l'équipe">
      <TableHead>
        <tr>
          <TableHeaderCell>Collaborateur</TableHeaderCell>
          <TableHeaderCell>Application</TableHeaderCell>
          <TableHeaderCell>Rôle</TableHeaderCell>
          <TableHeaderCell>Dernière utilisation</TableHeaderCell>
          <TableHeaderCell>Statut</TableHeaderCell>
          {renderActions && <TableHeaderCell className="text-right">Actions</TableHeaderCell>}
        </tr>
      </TableHead>
      <TableBody>
        {rights.length === 0 && <TableEmptyRow colSpan={columns} message="Aucun droit de l'équipe n'attend votre décision." />}
        {sortAwaiting(rights).map((right) => (
          <TableRow key={right.right_id}>
            <TableCell className="font-medium">{right.holder_name}</TableCell>
            <TableCell>{right.application_name}</TableCell>
            <TableCell>{right.role_name}</TableCell>
            <TableCell>
              {lastUseText(right.last_used_at)}
              {right.recommendation && <p className="text-xs text-orange-700">{right.recommendation}</p>}
            </TableCell>
            <TableCell>
              <StatusBadge status={right.status} />
            </TableCell>
            {renderActions && <TableCell className="whitespace-nowrap text-right">{renderActions(right)}</TableCell>}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
