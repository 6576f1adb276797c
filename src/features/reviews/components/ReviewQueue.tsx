import { useId, useMemo, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/Button'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { StatusBadge } from '@/components/ui/StatusBadge'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate, lastUseText } from '@/lib/dates'
import { accountTypeLabel, rightStatusLabel, type RightStatus } from '@/lib/labels'
import { invalidateReviews, validateRight } from '../api'
import {
  applyFilters,
  decisionLabels,
  filterOptions,
  groupQueue,
  NO_FILTERS,
  runBulk,
  statusFor,
  targetOfQueueItem,
  type BulkOutcome,
  type Decision,
  type DecisionInput,
  type DecisionTarget,
  type Grouping,
  type QueueFilters,
  type QueueItem,
} from '../model'
import { RecommendationBadge } from './RecommendationBadge'
import { ValidationDialog } from './ValidationDialog'

export const QUEUE_ROWS_PER_PAGE = 50

interface ReviewQueueProps {
  items: readonly QueueItem[]
  /** The call that records one decision; the real one by default, a stub in tests. */
  decide?: (input: DecisionInput) => Promise<void>
}

const selectClass =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm focus:border-primary-500 focus:outline-none focus:ring-1 focus:ring-primary-500'

function describe(item: QueueItem) {
  return `${item.application_name} — ${item.role_name} (${item.holder_name})`
}

/**
 * Mes revues: the rights awaiting the caller's decision, grouped by person or application, filtered, decided one at a
 * time through the validation dialog or several at once (one validate_user_right call per right).
 */
export function ReviewQueue({ items, decide = validateRight }: ReviewQueueProps) {
  const queryClient = useQueryClient()
  const ids = { grouping: useId(), campaign: useId(), application: useId(), status: useId(), comment: useId() }
  const [grouping, setGrouping] = useState<Grouping>('person')
  const [filters, setFilters] = useState<QueueFilters>(NO_FILTERS)
  const [page, setPage] = useState(0)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [comment, setComment] = useState('')
  const [running, setRunning] = useState<Decision | null>(null)
  const [outcomes, setOutcomes] = useState<(BulkOutcome & { label: string })[] | null>(null)
  const [target, setTarget] = useState<DecisionTarget | null>(null)

  const options = useMemo(() => filterOptions(items), [items])
  const groups = useMemo(() => groupQueue(applyFilters(items, filters), grouping), [items, filters, grouping])
  const visible = useMemo(() => groups.flatMap((group) => group.items), [groups])
  const byId = useMemo(() => new Map(items.map((item) => [item.right_id, item])), [items])
  const pageCount = Math.max(1, Math.ceil(visible.length / QUEUE_ROWS_PER_PAGE))
  const currentPage = Math.min(page, pageCount - 1)
  const pageItems = visible.slice(currentPage * QUEUE_ROWS_PER_PAGE, (currentPage + 1) * QUEUE_ROWS_PER_PAGE)
  const groupOf = useMemo(() => {
    const map = new Map<string, { label: string; detail: string | null; size: number }>()
    for (const group of groups) for (const item of group.items) map.set(item.right_id, { label: group.label, detail: group.detail, size: group.items.length })
    return map
  }, [groups])
  // Selection counts only what is still in the queue.
  const selectedItems = [...selected].map((id) => byId.get(id)).filter((item): item is QueueItem => item !== undefined)
  const allOnPageSelected = pageItems.length > 0 && pageItems.every((item) => selected.has(item.right_id))

  const updateFilters = (patch: Partial<QueueFilters>) => {
    setFilters((current) => ({ ...current, ...patch }))
    setPage(0)
  }
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const togglePage = () =>
    setSelected((current) => {
      const next = new Set(current)
      for (const item of pageItems) {
        if (allOnPageSelected) next.delete(item.right_id)
        else next.add(item.right_id)
      }
      return next
    })

  const runSelected = async (decision: Decision) => {
    setRunning(decision)
    setOutcomes(null)
    const chosen = selectedItems
    const results = await runBulk(
      chosen.map((item) => item.right_id),
      async (rightId) => {
        const item = byId.get(rightId)
        const status = item ? statusFor(item, decision) : null
        if (!status) throw new Error('Cette décision n’est pas possible sur ce droit.')
        await decide({ rightId, status, comment })
      },
    )
    setOutcomes(results.map((result) => {
      const item = byId.get(result.rightId)
      return { ...result, label: item ? describe(item) : result.rightId }
    }))
    setSelected(new Set(results.filter((result) => !result.ok).map((result) => result.rightId)))
    if (results.every((result) => result.ok)) setComment('')
    setRunning(null)
    await invalidateReviews(queryClient)
  }

  const failures = outcomes?.filter((outcome) => !outcome.ok) ?? []
  const successes = outcomes ? outcomes.length - failures.length : 0
  const bulkRefusePossible = selectedItems.length > 0 && selectedItems.every((item) => item.refuse_status !== null)
  const bulkLabels = decisionLabels({ approveStatus: selectedItems[0]?.approve_status ?? null })

  return (
    <div className="space-y-4">
      <div className="grid gap-4 rounded-lg border border-gray-200 bg-white p-4 sm:grid-cols-4">
        <div>
          <label htmlFor={ids.grouping} className="mb-1 block text-sm font-medium text-gray-700">
            Regrouper par
          </label>
          <select id={ids.grouping} className={selectClass} value={grouping} onChange={(event) => setGrouping(event.target.value as Grouping)}>
            <option value="person">Personne</option>
            <option value="application">Application</option>
          </select>
        </div>
        <div>
          <label htmlFor={ids.campaign} className="mb-1 block text-sm font-medium text-gray-700">
            Campagne
          </label>
          <select id={ids.campaign} className={selectClass} value={filters.campaignId ?? ''} onChange={(event) => updateFilters({ campaignId: event.target.value || null })}>
            <option value="">Toutes les campagnes</option>
            {options.campaigns.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.application} className="mb-1 block text-sm font-medium text-gray-700">
            Application
          </label>
          <select
            id={ids.application}
            className={selectClass}
            value={filters.applicationId ?? ''}
            onChange={(event) => updateFilters({ applicationId: event.target.value || null })}
          >
            <option value="">Toutes les applications</option>
            {options.applications.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.status} className="mb-1 block text-sm font-medium text-gray-700">
            Statut
          </label>
          <select id={ids.status} className={selectClass} value={filters.status ?? ''} onChange={(event) => updateFilters({ status: (event.target.value || null) as RightStatus | null })}>
            <option value="">Tous les statuts</option>
            {options.statuses.map((status) => (
              <option key={status} value={status}>
                {rightStatusLabel(status)}
              </option>
            ))}
          </select>
        </div>
      </div>

      <section aria-label="Décision groupée" className="rounded-lg border border-gray-200 bg-white p-4">
        <p className="text-sm text-gray-700" aria-live="polite">
          {selectedItems.length === 0 ? 'Aucun droit sélectionné.' : `${selectedItems.length} droit(s) sélectionné(s).`}
        </p>
        <label htmlFor={ids.comment} className="mb-1 mt-2 block text-sm font-medium text-gray-700">
          Commentaire pour la sélection (facultatif)
        </label>
        <textarea id={ids.comment} rows={2} value={comment} onChange={(event) => setComment(event.target.value)} className={selectClass} />
        <div className="mt-3 flex flex-wrap gap-2">
          <Button variant="danger" disabled={!bulkRefusePossible || running !== null} loading={running === 'refuse'} onClick={() => void runSelected('refuse')}>
            {bulkLabels.refuse} la sélection
          </Button>
          <Button variant="success" disabled={selectedItems.length === 0 || running !== null} loading={running === 'approve'} onClick={() => void runSelected('approve')}>
            {bulkLabels.approve} la sélection
          </Button>
        </div>
        {outcomes && (
          <div className="mt-3 space-y-2" role="status">
            {successes > 0 && <p className="text-sm text-green-700">{successes} décision(s) enregistrée(s).</p>}
          </div>
        )}
        {failures.length > 0 && (
          <ErrorBox
            className="mt-3"
            title={`${failures.length} décision(s) refusée(s)`}
            message={successes > 0 ? 'Les autres décisions ont été enregistrées.' : 'Aucune décision enregistrée.'}
          />
        )}
        {failures.length > 0 && (
          <ul aria-label="Décisions refusées" className="mt-2 list-disc pl-6 text-sm text-red-800">
            {failures.map((failure) => (
              <li key={failure.rightId}>
                {failure.label} : {failure.message}
              </li>
            ))}
          </ul>
        )}
      </section>

      <Table caption="Droits en attente de ma décision">
        <TableHead>
          <tr>
            <TableHeaderCell>
              <input type="checkbox" aria-label="Sélectionner la page" checked={allOnPageSelected} onChange={togglePage} disabled={pageItems.length === 0} />
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
        <TableBody>
          {pageItems.length === 0 && <TableEmptyRow colSpan={9} message="Aucun droit n'attend votre décision." />}
          {pageItems.map((item, index) => {
            const group = groupOf.get(item.right_id)
            const previous = pageItems[index - 1]
            const startsGroup = !previous || groupOf.get(previous.right_id)?.label !== group?.label || (grouping === 'person' ? previous.holder_id !== item.holder_id : previous.application_id !== item.application_id)
            const labels = decisionLabels(targetOfQueueItem(item))
            const what = describe(item)
            return [
              startsGroup && group ? (
                <tr key={`group-${item.right_id}`} className="bg-gray-50">
                  <th scope="rowgroup" colSpan={9} className="px-4 py-2 text-left text-sm font-semibold text-gray-800">
                    {group.label}
                    {group.detail && <span className="ml-2 font-normal text-gray-500">{group.detail}</span>}
                    <span className="ml-2 font-normal text-gray-500">({group.size})</span>
                  </th>
                </tr>
              ) : null,
              <TableRow key={item.right_id}>
                <TableCell>
                  <input type="checkbox" aria-label={`Sélectionner ${what}`} checked={selected.has(item.right_id)} onChange={() => toggle(item.right_id)} />
                </TableCell>
                <TableCell>
                  {grouping === 'person' ? (
                    item.application_name
                  ) : (
                    <>
                      <div>{item.holder_name}</div>
                      <div className="text-xs text-gray-500">{item.holder_email}</div>
                    </>
                  )}
                </TableCell>
                <TableCell>
                  <div>{item.role_name}</div>
                  {item.justification && <div className="text-xs text-gray-500">{item.justification}</div>}
                </TableCell>
                <TableCell>{accountTypeLabel(item.account_type)}</TableCell>
                <TableCell>
                  <div>{item.campaign_name ?? '-'}</div>
                  {item.campaign_end_date && <div className="text-xs text-gray-500">Échéance : {formatDate(item.campaign_end_date)}</div>}
                </TableCell>
                <TableCell>{lastUseText(item.last_used_at)}</TableCell>
                <TableCell>
                  <RecommendationBadge item={item} />
                </TableCell>
                <TableCell>
                  <StatusBadge status={item.status} />
                </TableCell>
                <TableCell>
                  <div className="flex gap-2">
                    {item.refuse_status && (
                      <Button size="sm" variant="danger" aria-label={`${labels.refuse} ${what}`} onClick={() => setTarget(targetOfQueueItem(item))}>
                        {labels.refuse}
                      </Button>
                    )}
                    {item.approve_status && (
                      <Button size="sm" variant="success" aria-label={`${labels.approve} ${what}`} onClick={() => setTarget(targetOfQueueItem(item))}>
                        {labels.approve}
                      </Button>
                    )}
                  </div>
                </TableCell>
              </TableRow>,
            ]
          })}
        </TableBody>
      </Table>

      {pageCount > 1 && (
        <nav aria-label="Pagination des revues" className="flex items-center justify-between text-sm text-gray-700">
          <Button variant="outline" size="sm" disabled={currentPage === 0} onClick={() => setPage(currentPage - 1)}>
            Précédent
          </Button>
          <span>
            Page {currentPage + 1} sur {pageCount} — {visible.length} droit(s)
          </span>
          <Button variant="outline" size="sm" disabled={currentPage >= pageCount - 1} onClick={() => setPage(currentPage + 1)}>
            Suivant
          </Button>
        </nav>
      )}

      <ValidationDialog target={target} onClose={() => setTarget(null)} decide={decide} />
    </div>
  )
}
