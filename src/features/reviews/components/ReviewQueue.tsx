import { useDecideRights, useReviewConflicts } from '../api'
import type { DecisionInput, QueueItem } from '../model'
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
  return (
    <div className="space-y-4">
      <QueueFiltersBar queue={queue} />
      <BulkDecisionPanel queue={queue} />
      <QueueTable queue={queue} conflicts={conflicts} />
      <QueuePagination page={queue.page} pageCount={queue.pageCount} total={queue.visibleCount} onPage={queue.setPage} />
      <ValidationDialog target={queue.target} onClose={() => queue.setTarget(null)} decide={decide} />
    </div>
  )
}
