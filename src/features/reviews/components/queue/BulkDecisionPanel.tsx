import { useId } from 'react'
import { Button } from '@/components/ui/Button'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { countText } from '@/domain/plural'
import { queueFieldClass } from './QueueFiltersBar'
import type { ReviewQueueState } from './useReviewQueueState'

/** One comment and one decision for the selected rights, then what was recorded and, right by right, what was refused. */
export function BulkDecisionPanel({ queue }: { queue: ReviewQueueState }) {
  const commentId = useId()
  const { selectedCount, running, outcomes, failures, successCount, selectionLabels } = queue
  return (
    <section aria-label="Décision groupée" className="rounded-lg border border-gray-200 bg-white p-4">
      <p className="text-sm text-gray-700" aria-live="polite">
        {selectedCount === 0 ? 'Aucun droit sélectionné.' : `${countText(selectedCount, 'droit sélectionné', 'droits sélectionnés')}.`}
      </p>
      <label htmlFor={commentId} className="mb-1 mt-2 block text-sm font-medium text-gray-700">
        Commentaire pour la sélection (facultatif)
      </label>
      <textarea id={commentId} rows={2} value={queue.comment} onChange={(event) => queue.setComment(event.target.value)} className={queueFieldClass} />
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="danger" disabled={!queue.canRefuseSelection || running !== null} loading={running === 'refuse'} onClick={() => void queue.decideSelected('refuse')}>
          {selectionLabels.refuse}
        </Button>
        <Button variant="success" disabled={selectedCount === 0 || running !== null} loading={running === 'approve'} onClick={() => void queue.decideSelected('approve')}>
          {selectionLabels.approve}
        </Button>
      </div>
      {outcomes && (
        <div className="mt-3 space-y-2" role="status">
          {successCount > 0 && <p className="text-sm text-green-700">{countText(successCount, 'décision enregistrée', 'décisions enregistrées')}.</p>}
        </div>
      )}
      {failures.length > 0 && (
        <>
          <ErrorBox
            className="mt-3"
            title={countText(failures.length, 'décision refusée', 'décisions refusées')}
            message={successCount > 0 ? 'Les autres décisions ont été enregistrées.' : 'Aucune décision enregistrée.'}
          />
          <ul aria-label="Décisions refusées" className="mt-2 list-disc pl-6 text-sm text-red-800">
            {failures.map((failure) => (
              <li key={failure.rightId}>
                {failure.label} : {failure.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
