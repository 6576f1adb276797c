import { StatusBadge } from '@/components/ui/StatusBadge'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate, lastUseText } from '@/lib/dates'
import { accountTypeLabel } from '@/domain/labels'
import type { HeldRight } from '../model'

interface HeldRightsTableProps {
  caption: string
  rights: readonly HeldRight[]
  emptyMessage: string
}

/** The rights one person holds: application, role, account type, grant, last use and review status. */
export function HeldRightsTable({ caption, rights, emptyMessage }: HeldRightsTableProps) {
  return (
    <Table caption={caption}>
      <TableHead>
        <tr>
          <TableHeaderCell>Application</TableHeaderCell>
          <TableHeaderCell>Rôle</TableHeaderCell>
          <TableHeaderCell>Type de compte</TableHeaderCell>
          <TableHeaderCell>Date d&apos;attribution</TableHeaderCell>
          <TableHeaderCell>Dernière utilisation</TableHeaderCell>
          <TableHeaderCell>Statut</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {rights.length === 0 && <TableEmptyRow colSpan={6} message={emptyMessage} />}
        {rights.map((right) => (
          <TableRow key={right.id}>
            <TableCell>{right.application?.name ?? '-'}</TableCell>
            <TableCell>{right.role_name}</TableCell>
            <TableCell>{accountTypeLabel(right.account_type)}</TableCell>
            <TableCell>{formatDate(right.granted_at)}</TableCell>
            <TableCell>{lastUseText(right.last_used_at)}</TableCell>
            <TableCell>
              <StatusBadge status={right.status} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
