import { useState } from 'react'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { SelectField } from '@/components/ui/SelectField'
import { Spinner } from '@/components/ui/Spinner'
import { StatusBadge } from '@/components/ui/StatusBadge'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDateTime } from '@/lib/dates'
import { useDecisionHistory } from '../api'
import { HISTORY_SCOPES, type HistoryScope } from '../model'

/** The decisions the caller took and those taken on their rights, newest first, a page at a time. */
export function DecisionHistoryCard({ userId, initialScope = 'all' }: { userId: string; initialScope?: HistoryScope }) {
  const [scope, setScope] = useState<HistoryScope>(initialScope)
  const history = useDecisionHistory(userId, scope)
  const entries = history.data?.pages.flat() ?? []

  return (
    <Card>
      <CardHeader className="flex flex-wrap items-end justify-between gap-4">
        <CardTitle>Historique des décisions</CardTitle>
        <SelectField label="Afficher" value={scope} onChange={(event) => setScope(event.target.value as HistoryScope)} className="w-56">
          {HISTORY_SCOPES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </SelectField>
      </CardHeader>
      <CardContent className="p-0">
        {history.isPending ? (
          <Spinner className="py-8" />
        ) : history.error && entries.length === 0 ? (
          <ErrorBox className="m-4" message={history.error.message} />
        ) : (
          <>
            <Table caption="Historique des décisions">
              <TableHead>
                <tr>
                  <TableHeaderCell>Date</TableHeaderCell>
                  <TableHeaderCell>Application</TableHeaderCell>
                  <TableHeaderCell>Rôle</TableHeaderCell>
                  <TableHeaderCell>Titulaire</TableHeaderCell>
                  <TableHeaderCell>Décision</TableHeaderCell>
                  <TableHeaderCell>Par</TableHeaderCell>
                  <TableHeaderCell>Commentaire</TableHeaderCell>
                </tr>
              </TableHead>
              <TableBody>
                {entries.length === 0 && <TableEmptyRow colSpan={7} message="Aucune décision enregistrée." />}
                {entries.map((entry) => (
                  <TableRow key={entry.decision_id}>
                    <TableCell className="whitespace-nowrap">{formatDateTime(entry.decided_at)}</TableCell>
                    <TableCell>{entry.application_name}</TableCell>
                    <TableCell>{entry.role_name}</TableCell>
                    <TableCell>{entry.holder_name}</TableCell>
                    <TableCell>
                      <StatusBadge status={entry.to_status} />
                    </TableCell>
                    <TableCell>{entry.decided_by_name}</TableCell>
                    <TableCell>{entry.comment || '-'}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            {history.error && <ErrorBox className="m-4" message={history.error.message} />}
            {history.hasNextPage && (
              <div className="flex justify-center border-t border-gray-100 p-4">
                <Button variant="outline" loading={history.isFetchingNextPage} onClick={() => void history.fetchNextPage()}>
                  Afficher plus
                </Button>
              </div>
            )}
          </>
        )}
      </CardContent>
    </Card>
  )
}
