import { Link } from 'react-router-dom'
import { buttonClasses } from '@/components/ui/Button'
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { countText } from '@/domain/plural'
import { cn } from '@/lib/cn'
import { useReviewQueueSummary } from '../api'
import { queueDeadlineText, queueStageText } from '../model'

/**
 * What waits for a BPO Métier, a BPO Groupe or an RA, where they land: their queue per campaign and stage, with its
 * deadline, then the rights they decide for someone else, adding up to the bell's count, and the way to Mes revues
 * where they decide.
 */
// Below 768 px each line is a card, each figure after its column's name: the deadline stays in view on a phone.
const cardCell =
  'max-md:flex max-md:items-center max-md:justify-between max-md:gap-4 max-md:py-1 max-md:before:text-xs max-md:before:font-medium max-md:before:text-gray-600 max-md:before:content-[attr(data-label)]'

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
        <Table caption="Ma file de revue" className="max-md:block">
          <TableHead className="max-md:sr-only">
            <tr>
              <TableHeaderCell>Campagne</TableHeaderCell>
              <TableHeaderCell>Étape</TableHeaderCell>
              <TableHeaderCell className="text-right">Droits en attente</TableHeaderCell>
              <TableHeaderCell>Date limite</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody className="max-md:block max-md:divide-y">
            {summary.data.length === 0 && <TableEmptyRow colSpan={4} message="Rien n’attend votre décision." />}
            {summary.data.map((row) => (
              <TableRow key={`${row.campaign_id ?? 'none'}-${row.stage}-${row.acting_as ?? 'own'}-${row.on_behalf_of ?? ''}`} className="max-md:block max-md:py-2">
                <TableCell className="font-medium max-md:block max-md:pb-1">{row.campaign_name ?? 'Hors campagne'}</TableCell>
                <TableCell data-label="Étape" className={cn(cardCell, 'max-md:text-right')}>
                  {queueStageText(row)}
                </TableCell>
                <TableCell data-label="Droits en attente" className={cn(cardCell, 'text-right tabular-nums')}>
                  {row.rights_count}
                </TableCell>
                <TableCell data-label="Date limite" className={cn(cardCell, 'max-md:text-right')}>
                  {queueDeadlineText(row)}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  )
}
