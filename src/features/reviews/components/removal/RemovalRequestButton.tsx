import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { FormDialog } from '@/components/ui/FormDialog'
import { TextInput } from '@/components/ui/TextInput'
import { useConnectorApplications, useRequestRemoval, type RemovalMethod } from '../../removal-api'

interface RemovalRequestButtonProps {
  rightId: string
  applicationId: string
  /** « Application — Rôle (Titulaire) », as the row's other buttons name it. */
  what: string
}

/** The RA asks for a refused right's removal and records how: a ticket's reference, or the directory connector. */
export function RemovalRequestButton({ rightId, applicationId, what }: RemovalRequestButtonProps) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button size="sm" variant="outline" aria-label={`Demander la suppression ${what}`} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        Demander la suppression
      </Button>
      {open && <RemovalRequestDialog rightId={rightId} applicationId={applicationId} what={what} onClose={() => setOpen(false)} />}
    </>
  )
}

function RemovalRequestDialog({ rightId, applicationId, what, onClose }: RemovalRequestButtonProps & { onClose: () => void }) {
  const connector = useConnectorApplications()
  const managed = connector.data?.has(applicationId) ?? false
  const [method, setMethod] = useState<RemovalMethod>('ticket')
  const [ticket, setTicket] = useState('')
  const [ticketError, setTicketError] = useState<string | null>(null)
  const request = useRequestRemoval()

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (method === 'ticket' && !ticket.trim()) {
      setTicketError('Indiquez la référence du ticket de suppression.')
      return
    }
    request.mutate({ rightId, method, ticket: method === 'ticket' ? ticket.trim() : null }, { onSuccess: onClose })
  }

  return (
    <FormDialog title="Demander la suppression" onClose={onClose} onSubmit={submit} submitLabel="Demander la suppression" pending={request.isPending} error={request.error?.message ?? null} size="md">
      <p className="text-sm text-gray-700">{what}</p>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-gray-900">Comment la suppression est-elle demandée ?</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="removal-method" value="ticket" checked={method === 'ticket'} onChange={() => setMethod('ticket')} />
          Par un ticket
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" name="removal-method" value="connector" checked={method === 'connector'} onChange={() => setMethod('connector')} disabled={!managed} />
          Par le connecteur d’annuaire{!managed && ' (cette application n’est pas gérée par le connecteur)'}
        </label>
      </fieldset>
      {method === 'ticket' && (
        <TextInput
          label="Référence du ticket"
          value={ticket}
          maxLength={200}
          onChange={(event) => {
            setTicket(event.target.value)
            setTicketError(null)
          }}
          error={ticketError ?? undefined}
        />
      )}
      <p className="text-xs text-gray-600">
        La prochaine liste complète des droits de l’application (import CSV ou connecteur) constatera la suppression, ou la signalera au RSSI si
        le droit est encore présent après le délai de l’application.
      </p>
    </FormDialog>
  )
}
