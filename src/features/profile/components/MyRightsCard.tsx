import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { StatusBadge } from '@/components/ui/StatusBadge'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate } from '@/lib/dates'
import { accountTypeLabel } from '@/lib/labels'
import { useMyRights } from '../api'
import { lastUseText } from '../model'

export function MyRightsCard({ userId }: { userId: string }) {
  const rights = useMyRights(userId)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Mes droits</CardTitle>
      </CardHeader>
      <CardContent className="p-0">
        {rights.isPending ? (
          <Spinner className="py-8" />
        ) : rights.error ? (
          <ErrorBox className="m-4" message={rights.error.message} />
        ) : (
          <Table caption="Mes droits">
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
              {rights.data.length === 0 && <TableEmptyRow colSpan={6} message="Vous ne détenez aucun droit." />}
              {rights.data.map((right) => (
                <TableRow key={right.id}>
                  <TableCell>{right.application?.name ?? '-'}</TableCell>
                  <TableCell>{right.role_name}</TableCell>
                  <TableCell>{accountTypeLabel(right.account_type)}</TableCell>
                  <TableCell>{formatDate(right.granted_at)}</TableCell>
                  <TableCell>{lastUseText(right.last_used_at, (value) => formatDate(value))}</TableCell>
                  <TableCell>
                    <StatusBadge status={right.status} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  )
}
