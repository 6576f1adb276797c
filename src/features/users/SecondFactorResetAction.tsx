import { useState } from 'react'
import { KeyRound } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { useResetSecondFactor } from './api'
import { USER_MESSAGES } from './model'

/**
 * An administrator's « Réinitialiser le second facteur » on another person's row (a lost phone): asks first, says what
 * follows, keeps the server's refusal in the dialog, and reports the reset through onDone.
 */
export function SecondFactorResetAction({ person, onDone }: { person: { id: string; name: string }; onDone: (message: string) => void }) {
  const [asking, setAsking] = useState(false)
  const reset = useResetSecondFactor()
  const close = () => {
    setAsking(false)
    reset.reset()
  }
  return (
    <>
      <Button variant="ghost" size="sm" aria-label={`Réinitialiser le second facteur de ${person.name}`} title="Réinitialiser le second facteur" onClick={() => setAsking(true)}>
        <KeyRound aria-hidden="true" className="h-4 w-4 text-amber-600" />
      </Button>
      <ConfirmDialog
        open={asking}
        title="Réinitialiser le second facteur"
        message={USER_MESSAGES.resetSecondFactorConfirm(person.name)}
        confirmLabel="Réinitialiser"
        pending={reset.isPending}
        error={reset.error?.message ?? null}
        onClose={close}
        onConfirm={() =>
          reset.mutate(person.id, {
            onSuccess: () => {
              close()
              onDone(USER_MESSAGES.secondFactorReset(person.name))
            },
          })
        }
      />
    </>
  )
}
