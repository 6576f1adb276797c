import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { useReviewQueue, validateRight } from '../api'
import type { DecisionInput } from '../model'
import { ReviewQueue } from './ReviewQueue'

/** Mes revues: the whole queue awaiting the caller's decision, fetched page by page. */
export function ReviewsPage({ decide = validateRight }: { decide?: (input: DecisionInput) => Promise<void> }) {
  const queue = useReviewQueue()
  if (queue.isPending) return <Spinner className="py-8" />
  if (queue.error) return <ErrorBox message={queue.error.message} />
  return <ReviewQueue items={queue.data} decide={decide} />
}
