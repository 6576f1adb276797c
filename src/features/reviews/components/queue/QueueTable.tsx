import { Button } from '@/components/ui/Button'
import { StatusBadge } from '@/components/ui/StatusBadge'
import { cardTable, Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { cn } from '@/lib/cn'
import { formatDate, lastUseText } from '@/lib/dates'
import { accountTypeLabel } from '@/domain/labels'
import { decisionLabels, targetOfQueueItem, type QueueItem, type RightConflict } from '../../model'
import { ConflictNotice } from '../ConflictNotice'
import { RecommendationBadge } from '../RecommendationBadge'
import { RemovalRequestButton } from '../removal/RemovalRequestButton'
import { describeQueueItem, type ReviewQueueState } from './useReviewQueueState'

const NO_CONFLICTS: readonly RightConflict[] = []

/** A row that heads each group (person or application) where it starts on the page. */
function startsGroup(queue: ReviewQueueState, item: QueueItem, previous: QueueItem | undefined) {
  if (!previous) return true
  if (queue.groupOf.get(previous.right_id)?.label !== queue.groupOf.get(item.right_id)?.label) return true
  return queue.grouping === 'person' ? previous.holder_id !== item.holder_id : previous.application_id !== item.application_id
}

function QueueRow({ queue, item, conflicts }: { queue: ReviewQueueState; item: QueueItem; conflicts: readonly RightConflict[] }) {
  const labels = decisionLabels(targetOfQueueItem(item))
  const what = describeQueueItem(item)
  return (
    <TableRow className={cardTable.row}>
      <TableCell data-label="Sélection" className={cardTable.labelled}>
        <input type="checkbox" aria-label={`Sélectionner ${what}`} checked={queue.isSelected(item.right_id)} onChange={() => queue.toggle(item.right_id)} />
      </TableCell>
      <TableCell className={cn(cardTable.block, 'max-md:pb-2 max-md:pt-1 max-md:font-medium')}>
        {queue.grouping === 'person' ? (
          item.application_name
        ) : (
          <>
            <div>{item.holder_name}</div>
            <div className="text-xs font-normal text-gray-500">{item.holder_email}</div>
          </>
        )}
      </TableCell>
      <TableCell data-label="Rôle" className={cardTable.labelled}>
        <div className="max-md:text-right">
          <div>{item.role_name}</div>
          {item.justification && <div className="text-xs text-gray-500">{item.justification}</div>}
        </div>
      </TableCell>
      <TableCell data-label="Type de compte" className={cardTable.labelled}>
        {accountTypeLabel(item.account_type)}
      </TableCell>
      <TableCell data-label="Campagne" className={cardTable.labelled}>
        <div className="max-md:text-right">
          <div>{item.campaign_name ?? '-'}</div>
          {item.campaign_end_date && <div className="text-xs text-gray-500">Échéance : {formatDate(item.campaign_end_date)}</div>}
        </div>
      </TableCell>
      <TableCell data-label="Dernière utilisation" className={cardTable.labelled}>
        {lastUseText(item.last_used_at)}
      </TableCell>
      <TableCell data-label="Recommandation" className={cn(cardTable.labelled, 'max-md:empty:hidden')}>
        <RecommendationBadge item={item} />
        <ConflictNotice conflicts={conflicts} compact />
      </TableCell>
      <TableCell data-label="Statut" className={cardTable.labelled}>
        <StatusBadge status={item.status} />
      </TableCell>
      <TableCell className={cn(cardTable.block, 'max-md:pt-3')}>
        <div className="flex gap-2 max-md:[&>*]:flex-1">
          {item.refuse_status && (
            <Button size="sm" variant="danger" aria-label={`${labels.refuse} ${what}`} onClick={() => queue.setTarget(targetOfQueueItem(item))}>
              {labels.refuse}
            </Button>
          )}
          {item.approve_status && (
            <Button size="sm" variant="success" aria-label={`${labels.approve} ${what}`} onClick={() => queue.setTarget(targetOfQueueItem(item))}>
              {labels.approve}
            </Button>
          )}
          {item.approve_status === 'treated' && <RemovalRequestButton rightId={item.right_id} applicationId={item.application_id} what={what} />}
        </div>
      </TableCell>
    </TableRow>
  )
}

/** The page of the queue on screen, grouped, each row selectable and decidable on its own. */
export function QueueTable({ queue, conflicts }: { queue: ReviewQueueState; conflicts: ReadonlyMap<string, RightConflict[]> }) {
  const { pageItems, grouping } = queue
  return (
    <Table caption="Droits en attente de ma décision" className={cardTable.table}>
      <TableHead className={cardTable.head}>
        <tr>
          <TableHeaderCell>
            <input type="checkbox" aria-label="Sélectionner la page" checked={queue.allOnPageSelected} onChange={queue.togglePage} disabled={pageItems.length === 0} />
          </TableHeaderCell>
          <TableHeaderCell>{grouping === 'person' ? 'Application' : 'Personne'}</TableHeaderCell>
          <TableHeaderCell>Rôle</TableHeaderCell>
          <TableHeaderCell>Type de compte</TableHeaderCell>
          <TableHeaderCell>Campagne</TableHeaderCell>
          <TableHeaderCell>Dernière utilisation</TableHeaderCell>
          <TableHeaderCell>Recommandation</TableHeaderCell>
          <TableHeaderCell>Statut</TableHeaderCell>
          <TableHeaderCell>Actions</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody className={cardTable.body}>
        {pageItems.length === 0 && <TableEmptyRow colSpan={9} message="Aucun droit n'attend votre décision." />}
        {pageItems.map((item, index) => {
          const group = queue.groupOf.get(item.right_id)
          return [
            group && startsGroup(queue, item, pageItems[index - 1]) ? (
              <tr key={`group-${item.right_id}`} className="bg-gray-50 max-md:block">
                <th scope="rowgroup" colSpan={9} className="px-4 py-2 text-left text-sm font-semibold text-gray-800 max-md:block max-md:px-1">
                  {group.label}
                  {group.detail && <span className="ml-2 font-normal text-gray-500">{group.detail}</span>}
                  <span className="ml-2 font-normal text-gray-500">({group.size})</span>
                </th>
              </tr>
            ) : null,
            <QueueRow key={item.right_id} queue={queue} item={item} conflicts={conflicts.get(item.right_id) ?? NO_CONFLICTS} />,
          ]
        })}
      </TableBody>
    </Table>
  )
}
