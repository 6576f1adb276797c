import { useId, useState } from 'react'
import { Dialog } from '@/components/ui/Dialog'
import { Button } from '@/components/ui/Button'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { rightStatusLabel, type RightStatus } from '@/domain/labels'
import { useDecideRights, useReviewConflicts } from '../api'
import { decisionLabels, type Decision, type DecisionInput, type DecisionTarget } from '../model'
import { ConflictNotice, INACTIVITY_ADVICE, TREATMENT_ADVICE } from './ConflictNotice'

export interface ValidationDialogProps {
  /** The right being decided; the dialog is closed when null. */
  target: DecisionTarget | null
  onClose: () => void
  /** Told of a decision recorded, before the dialog closes. */
  onDecided?: (target: DecisionTarget, status: RightStatus) => void
  /** The call that records the decision; the real one by default, a stub in tests. */
  decide?: (input: DecisionInput) => Promise<void>
}

/**
 * SPEC §2's validation dialog: application, role and user, an optional comment, Annuler / Refuser / Valider. On
 * success it closes; on failure it stays open with the server's message. Either way every view of rights refreshes.
 */
export function ValidationDialog({ target, onClose, onDecided, decide }: ValidationDialogProps) {
  return target ? <OpenValidationDialog key={target.rightId} target={target} onClose={onClose} onDecided={onDecided} decide={decide} /> : null
}

function OpenValidationDialog({ target, onClose, onDecided, decide }: Omit<ValidationDialogProps, 'target'> & { target: DecisionTarget }) {
  const decideRights = useDecideRights(decide)
  const commentId = useId()
  const [comment, setComment] = useState('')
  const [pending, setPending] = useState<Decision | null>(null)
  const [error, setError] = useState<string | null>(null)
  const labels = decisionLabels(target)
  // The RA treats a refused right: no advice to refuse it.
  const treating = target.approveStatus === 'treated'
  const conflicts = useReviewConflicts([target.rightId]).get(target.rightId) ?? []

  const submit = async (decision: Decision) => {
    const status = decision === 'approve' ? target.approveStatus : target.refuseStatus
    if (!status) return
    setPending(decision)
    setError(null)
    const [outcome] = await decideRights.mutateAsync([{ rightId: target.rightId, status, comment }])
    setPending(null)
    if (outcome?.ok) {
      onDecided?.(target, status)
      onClose()
    } else setError(outcome?.message ?? null)
  }

  const busy = pending !== null
  return (
    <Dialog
      open
      onClose={() => {
        if (!busy) onClose()
      }}
      title="Revue du droit"
      description="Votre décision est horodatée et conservée comme preuve d'audit."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Annuler
          </Button>
          {target.refuseStatus && (
            <Button variant="danger" onClick={() => void submit('refuse')} loading={pending === 'refuse'} disabled={busy}>
              {labels.refuse}
            </Button>
          )}
          {target.approveStatus && (
            <Button variant="success" onClick={() => void submit('approve')} loading={pending === 'approve'} disabled={busy}>
              {labels.approve}
            </Button>
          )}
        </>
      }
    >
      <dl className="grid grid-cols-3 gap-x-4 gap-y-2 text-sm">
        <dt className="font-medium text-gray-600">Application</dt>
        <dd className="col-span-2 text-gray-900">{target.applicationName}</dd>
        <dt className="font-medium text-gray-600">Rôle</dt>
        <dd className="col-span-2 text-gray-900">{target.roleName}</dd>
        <dt className="font-medium text-gray-600">Utilisateur</dt>
        <dd className="col-span-2 text-gray-900">{target.holderName}</dd>
        {target.onBehalfOf && (
          <>
            <dt className="font-medium text-gray-600">Délégation</dt>
            <dd className="col-span-2 text-gray-900">{target.onBehalfOf}</dd>
          </>
        )}
        {target.approveStatus === 'treated' && (
          <>
            <dt className="font-medium text-gray-600">Décision</dt>
            <dd className="col-span-2 text-gray-900">
              {labels.approve} → {rightStatusLabel('treated')}
            </dd>
          </>
        )}
      </dl>
      {target.recommendation && (
        <div className="mt-4 rounded-md border border-orange-200 bg-orange-50 p-3 text-sm text-orange-900">
          <p className="font-medium">{target.recommendation}</p>
          <p className="mt-1">{treating ? TREATMENT_ADVICE : INACTIVITY_ADVICE}</p>
        </div>
      )}
      {conflicts.length > 0 && (
        <div className="mt-4">
          <ConflictNotice conflicts={conflicts} treating={treating} />
        </div>
      )}
      <label htmlFor={commentId} className="mb-1 mt-4 block text-sm font-medium text-gray-700">
        Commentaire (facultatif)
      </label>
      <textarea
        id={commentId}
        value={comment}
        onChange={(event) => setComment(event.target.value)}
        rows={3}
        className="block w-full rounded-md border border-gray-300 px-3 py-2 text-sm focus:border-primary-500 focus:outline-none focus:ring-1 focus:ring-primary-500"
      />
      {error && <ErrorBox className="mt-4" message={error} />}
    </Dialog>
  )
}
