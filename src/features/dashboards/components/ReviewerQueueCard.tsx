import { Link } from 'react-router-dom'
import { buttonClasses } from '@/components/ui/Button'
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { countText } from '@/lib/plural'
import { useReviewQueueSummary } from '../api'
import { queueDeadlineText, REVIEW_STAGE_LABELS } from '../model'

/**
 * What waits for a BPO Métier, a BPO Groupe or an RA, where they land: their queue per campaign and stage, with its
 * deadline, adding up to the bell's count, and the way to Mes revues where they decide.
 */
export function ReviewerQueueCard() {
  const summary = useReviewQueueSummary()
  const total = summary.data?.reduce((sum, row) => sum + row.rights_count, 0)
  return (
    <Card>
      <CardHeader className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <CardTitle>Ma file de revue</CardTitle>
          {total !== undefined && (
            <CardDescription>
              {total === 0 ? 'Aucun droit n’attend votre décision.' : `${countText(total, 'droit attend', 'droits attendent')} votre décision.`}
            </CardDescription>
          )}
        </div>
        <Link to="/app/reviews" className={buttonClasses({ variant: 'primary', size: 'sm' })}>
          Traiter dans Mes revues
        </Link>
      </CardHeader>
      {summary.isPending ? (
        <Spinner className="py-8" />
      ) : summary.error ? (
        <ErrorBox className="m-4" message={summary.error.message} />
      ) : (
        <Table caption="Ma file de revue">
          <TableHead>
            <tr>
              <TableHeaderCell>Campagne</TableHeaderCell>
              <TableHeaderCell>Étape</TableHeaderCell>
              <TableHeaderCell className="text-right">Droits en attente</TableHeaderCell>
              <TableHeaderCell>Date limite</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {summary.data.length === 0 && <TableEmptyRow colSpan={4} message="Rien n’attend votre décision." />}
            {summary.data.map((row) => (
              <TableRow key={`${row.campaign_id ?? 'none'}-${row.stage}`}>
                <TableCell className="font-medium">{row.campaign_name ?? 'Hors campagne'}</TableCell>
                <TableCell>{REVIEW_STAGE_LABELS[row.stage] ?? row.stage}</TableCell>
                <TableCell className="text-right tabular-nums">{row.rights_count}</TableCell>
                <TableCell>{queueDeadlineText(row)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  )
}
