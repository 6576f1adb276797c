import { useEffect, useRef, useState } from 'react'
import { rightStatusLabel, type RightStatus } from '@/domain/labels'
import { useDecideRights, useReviewConflicts } from '../api'
import type { DecisionInput, DecisionTarget, QueueItem } from '../model'
import { BulkDecisionPanel } from './queue/BulkDecisionPanel'
import { QueueFiltersBar } from './queue/QueueFiltersBar'
import { QueuePagination } from './queue/QueuePagination'
import { QueueTable } from './queue/QueueTable'
import { useReviewQueueState } from './queue/useReviewQueueState'
import { ValidationDialog } from './ValidationDialog'

interface ReviewQueueProps {
  items: readonly QueueItem[]
  /** The call that records one decision; the real one by default, a stub in tests. */
  decide?: (input: DecisionInput) => Promise<void>
}

/**
 * Mes revues: the rights awaiting the caller's decision, grouped by person or application, filtered, decided one at a
 * time through the validation dialog or several at once (one validate_user_right call per right).
 */
export function ReviewQueue({ items, decide }: ReviewQueueProps) {
  const decideRights = useDecideRights(decide)
  const queue = useReviewQueueState(items, decideRights.mutateAsync)
  // Conflicts are asked for the page on screen only: a long queue costs one small call per page turned.
  const conflicts = useReviewConflicts(queue.pageItems.map((item) => item.right_id))
  const { announcement, onDecided, listRef } = useFocusAfterDecision(queue.pageItems)
  return (
    <div className="space-y-4">
      <QueueFiltersBar queue={queue} />
      <BulkDecisionPanel queue={queue} />
      <div ref={listRef}>
        <QueueTable queue={queue} conflicts={conflicts} />
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <QueuePagination page={queue.page} pageCount={queue.pageCount} total={queue.visibleCount} onPage={queue.setPage} />
      <ValidationDialog target={queue.target} onClose={() => queue.setTarget(null)} onDecided={onDecided} decide={decide} />
    </div>
  )
}

/**
 * Once a decided right has left the page (at once when the queue drops it before the dialog closes, or when the queue
 * is read again), focus goes to the decision button of the right that took its place (or the
 * last one), or to the list itself when none is left, rather than falling to the page; a status line says what was
 * recorded.
 */
function useFocusAfterDecision(pageItems: readonly QueueItem[]) {
  const listRef = useRef<HTMLDivElement>(null)
  const [announcement, setAnnouncement] = useState('')
  const [decisions, setDecisions] = useState(0)
  const decided = useRef<{ rightId: string; index: number } | null>(null)
  const onDecided = (target: DecisionTarget, status: RightStatus) => {
    decided.current = { rightId: target.rightId, index: pageItems.findIndex((item) => item.right_id === target.rightId) }
    setDecisions((count) => count + 1)
    setAnnouncement(`Décision enregistrée : ${rightStatusLabel(status)} — ${target.applicationName} — ${target.roleName} (${target.holderName}).`)
  }
  useEffect(() => {
    const last = decided.current
    const list = listRef.current
    if (!last || !list || pageItems.some((item) => item.right_id === last.rightId)) return
    decided.current = null
    const rows = [...list.querySelectorAll('tbody tr')].filter((row) => row.querySelector('button'))
    const row = rows[Math.min(Math.max(last.index, 0), rows.length - 1)]
    const target = row?.querySelector<HTMLButtonElement>('button') ?? list.querySelector<HTMLElement>('[tabindex="0"]')
    target?.focus()
  }, [pageItems, decisions])
  return { announcement, onDecided, listRef }
}
