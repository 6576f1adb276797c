import { useId, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Badge } from '@/components/ui/Badge'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate } from '@/lib/dates'
import { unverifiedRemovalsQuery } from './api'
import { ageInDays, daysText, methodText, oldestText, type UnverifiedRemovals } from './model'

const LABEL = 'Suppressions non constatées'

/** The RSSI's tile: how many removals are still present past their delay, the oldest's age, and the list behind it. */
export function UnverifiedRemovalsTile({ today = new Date() }: { today?: Date }) {
  const hintId = useId()
  const [open, setOpen] = useState(false)
  const { data, error } = useQuery(unverifiedRemovalsQuery())
  if (error) return <li className="py-2"><ErrorBox message={error.message} /></li>
  if (!data) return null
  return (
    <li className="py-2">
      <button
        type="button"
        aria-haspopup="dialog"
        aria-label={`${LABEL} ${data.count}, voir la liste`}
        aria-describedby={hintId}
        onClick={() => setOpen(true)}
        className="flex w-full items-center justify-between gap-3 rounded-md text-left text-sm hover:bg-gray-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
      >
        <span className="font-medium text-primary-700">{LABEL}</span>{' '}
        <Badge tone={data.count > 0 ? 'red' : 'green'}>{data.count}</Badge>
      </button>
      <p id={hintId} className="mt-0.5 text-xs text-gray-600">
        {oldestText(data, today)}
      </p>
      <Dialog open={open} onClose={() => setOpen(false)} title={LABEL} size="lg">
        <RemovalsTable removals={data} today={today} />
      </Dialog>
    </li>
  )
}

function RemovalsTable({ removals, today }: { removals: UnverifiedRemovals; today: Date }) {
  return (
    <Table caption={LABEL}>
      <TableHead>
        <tr>
          <TableHeaderCell>Utilisateur</TableHeaderCell>
          <TableHeaderCell>Application</TableHeaderCell>
          <TableHeaderCell>Rôle</TableHeaderCell>
          <TableHeaderCell>Demandée le</TableHeaderCell>
          <TableHeaderCell>Par</TableHeaderCell>
          <TableHeaderCell>Moyen</TableHeaderCell>
          <TableHeaderCell>Attendue le</TableHeaderCell>
          <TableHeaderCell>Ancienneté</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {removals.rows.length === 0 ? (
          <TableEmptyRow colSpan={8} message="Aucune suppression non constatée." />
        ) : (
          removals.rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell>
                <span className="font-medium">{row.holder_name}</span>
                <span className="block text-xs text-gray-600">{row.holder_email}</span>
              </TableCell>
              <TableCell>{row.application_name}</TableCell>
              <TableCell>{row.role_name}</TableCell>
              <TableCell>{formatDate(row.requested_at)}</TableCell>
              <TableCell>{row.requested_by_name}</TableCell>
              <TableCell>{methodText(row)}</TableCell>
              <TableCell>{formatDate(row.due_at)}</TableCell>
              <TableCell>{daysText(ageInDays(row.requested_at, today))}</TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  )
}
