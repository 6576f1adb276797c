import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { countText } from '@/domain/plural'
import { useReviewQueue } from '../api'
import type { DecisionInput } from '../model'
import { ReviewQueue } from './ReviewQueue'
import { OfflineUpload } from './upload/OfflineUpload'

/** Mes revues: the whole queue awaiting the caller's decision, on screen from its first page. */
export function ReviewsPage({ decide }: { decide?: (input: DecisionInput) => Promise<void> }) {
  const queue = useReviewQueue()
  if (queue.isPending) return <Spinner className="py-8" />
  if (queue.error && queue.items.length === 0) return <ErrorBox message={queue.error.message} />
  return (
    <>
      {!queue.complete && !queue.error && (
        <Spinner
          className="mb-4 justify-start"
          label={`Chargement de la suite de la file… ${countText(queue.items.length, 'droit chargé', 'droits chargés')}.`}
        />
      )}
      {queue.error && <ErrorBox className="mb-4" message={`La suite de la file n'a pas pu être chargée : ${queue.error.message}`} />}
      <ReviewQueue items={queue.items} decide={decide} />
      <OfflineUpload />
    </>
  )
}
