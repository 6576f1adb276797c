import { useMemo, useState } from 'react'
import {
  applyFilters,
  filterOptions,
  groupQueue,
  NO_FILTERS,
  selectionLabels,
  statusFor,
  type BulkOutcome,
  type Decision,
  type DecisionRequest,
  type DecisionTarget,
  type Grouping,
  type QueueFilters,
  type QueueItem,
} from '../../model'

export const QUEUE_ROWS_PER_PAGE = 50

export interface GroupInfo {
  label: string
  detail: string | null
  size: number
}

export type LabelledOutcome = BulkOutcome & { label: string }

export function describeQueueItem(item: QueueItem) {
  return `${item.application_name} — ${item.role_name} (${item.holder_name})`
}

/**
 * Everything Mes revues remembers between renders: grouping, filters, page, selection, the selection's comment, the
 * bulk decision under way and its outcomes, and the right open in the validation dialog. `decideSelection` records
 * the decisions (the reviews mutation).
 */
export function useReviewQueueState(
  items: readonly QueueItem[],
  decideSelection: (requests: readonly DecisionRequest[]) => Promise<BulkOutcome[]>,
) {
  const [grouping, setGrouping] = useState<Grouping>('person')
  const [filters, setFilters] = useState<QueueFilters>(NO_FILTERS)
  const [page, setPage] = useState(0)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [comment, setComment] = useState('')
  const [running, setRunning] = useState<Decision | null>(null)
  const [outcomes, setOutcomes] = useState<LabelledOutcome[] | null>(null)
  const [target, setTarget] = useState<DecisionTarget | null>(null)

  const options = useMemo(() => filterOptions(items), [items])
  const groups = useMemo(() => groupQueue(applyFilters(items, filters), grouping), [items, filters, grouping])
  const visible = useMemo(() => groups.flatMap((group) => group.items), [groups])
  const byId = useMemo(() => new Map(items.map((item) => [item.right_id, item])), [items])
  const groupOf = useMemo(() => {
    const map = new Map<string, GroupInfo>()
    for (const group of groups) for (const item of group.items) map.set(item.right_id, { label: group.label, detail: group.detail, size: group.items.length })
    return map
  }, [groups])
  const pageCount = Math.max(1, Math.ceil(visible.length / QUEUE_ROWS_PER_PAGE))
  const currentPage = Math.min(page, pageCount - 1)
  const pageItems = visible.slice(currentPage * QUEUE_ROWS_PER_PAGE, (currentPage + 1) * QUEUE_ROWS_PER_PAGE)
  // The selection counts only what is still in the queue: a right decided elsewhere drops out of it.
  const selectedItems = [...selected].map((id) => byId.get(id)).filter((item): item is QueueItem => item !== undefined)
  const allOnPageSelected = pageItems.length > 0 && pageItems.every((item) => selected.has(item.right_id))
  const failures = outcomes?.filter((outcome) => !outcome.ok) ?? []

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

  const decideSelected = async (decision: Decision) => {
    setRunning(decision)
    setOutcomes(null)
    const results = await decideSelection(
      selectedItems.map((item) => ({ rightId: item.right_id, status: statusFor(item, decision), comment })),
    )
    setOutcomes(
      results.map((result) => {
        const item = byId.get(result.rightId)
        return { ...result, label: item ? describeQueueItem(item) : result.rightId }
      }),
    )
    // The refused ones stay selected for another try.
    setSelected(new Set(results.filter((result) => !result.ok).map((result) => result.rightId)))
    if (results.every((result) => result.ok)) setComment('')
    setRunning(null)
  }

  return {
    grouping,
    setGrouping,
    filters,
    updateFilters,
    options,
    pageItems,
    groupOf,
    page: currentPage,
    pageCount,
    visibleCount: visible.length,
    setPage,
    isSelected: (id: string) => selected.has(id),
    selectedCount: selectedItems.length,
    allOnPageSelected,
    toggle,
    togglePage,
    comment,
    setComment,
    running,
    decideSelected,
    canRefuseSelection: selectedItems.length > 0 && selectedItems.every((item) => item.refuse_status !== null),
    // Every right of a queue is at the caller's stage: the queue's first right gives the words, selected or not.
    selectionLabels: selectionLabels((selectedItems[0] ?? items[0])?.approve_status ?? null),
    outcomes,
    failures,
    successCount: outcomes ? outcomes.length - failures.length : 0,
    target,
    setTarget,
  }
}

export type ReviewQueueState = ReturnType<typeof useReviewQueueState>
