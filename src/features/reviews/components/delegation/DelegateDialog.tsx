import { useState, type FormEvent } from 'react'
import { format } from 'date-fns'
import { Combobox, type ComboboxOption } from '@/components/ui/Combobox'
import { DateInput } from '@/components/ui/DateInput'
import { FormDialog } from '@/components/ui/FormDialog'
import { SelectField } from '@/components/ui/SelectField'
import { TextAreaField } from '@/components/ui/TextAreaField'
import { useDelegateCandidates, useDelegateItems, useLoadedReviewQueue } from '../../api'
import { delegationProblem, type StageSignoff } from '../../delegation-model'

interface DelegateDialogProps {
  /** The campaigns where the caller reviews items: the ones they may delegate. */
  campaigns: readonly Pick<StageSignoff, 'campaign_id' | 'campaign_name'>[]
  onClose: () => void
}

/**
 * Déléguer: the caller's items of a campaign, all of them (those still to come included) or the rights ticked, to a
 * person found on the server, with a reason and an end date. The database checks every rule again.
 */
export function DelegateDialog({ campaigns, onClose }: DelegateDialogProps) {
  const queueItems = useLoadedReviewQueue()
  const delegate = useDelegateItems()
  const [campaignId, setCampaignId] = useState(campaigns[0]?.campaign_id ?? '')
  const [person, setPerson] = useState<ComboboxOption | null>(null)
  const [search, setSearch] = useState('')
  const candidates = useDelegateCandidates(search)
  const [onlyChosen, setOnlyChosen] = useState(false)
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set())
  const [reason, setReason] = useState('')
  const [endsOn, setEndsOn] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const inCampaign = queueItems.filter((item) => item.campaign_id === campaignId)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const draft = {
      campaignId,
      delegateId: person?.id ?? null,
      reason,
      endsOn,
      rightIds: onlyChosen ? inCampaign.filter((item) => chosen.has(item.right_id)).map((item) => item.right_id) : null,
    }
    const refusal = delegationProblem(draft, format(new Date(), 'yyyy-MM-dd'))
    setProblem(refusal)
    if (refusal || !draft.delegateId) return
    try {
      await delegate.mutateAsync({ ...draft, delegateId: draft.delegateId, reason: reason.trim() })
      onClose()
    } catch (caught) {
      setProblem(caught instanceof Error ? caught.message : 'Une erreur est survenue')
    }
  }

  const toggle = (rightId: string) =>
    setChosen((current) => {
      const next = new Set(current)
      if (next.has(rightId)) next.delete(rightId)
      else next.add(rightId)
      return next
    })

  return (
    <FormDialog title="Déléguer mes revues" onClose={onClose} onSubmit={(event) => void submit(event)} submitLabel="Déléguer" pending={delegate.isPending} error={problem}>
      <SelectField label="Campagne" required value={campaignId} onChange={(event) => setCampaignId(event.target.value)}>
        {campaigns.map((campaign) => (
          <option key={campaign.campaign_id} value={campaign.campaign_id}>
            {campaign.campaign_name}
          </option>
        ))}
      </SelectField>
      <fieldset className="space-y-1 text-sm">
        <legend className="mb-1 font-medium text-gray-700">Droits délégués</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="delegation-scope" checked={!onlyChosen} onChange={() => setOnlyChosen(false)} />
          Tous mes droits de cette campagne, y compris ceux qui me parviendront
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="delegation-scope" checked={onlyChosen} onChange={() => setOnlyChosen(true)} />
          Seulement les droits cochés ci-dessous
        </label>
      </fieldset>
      {onlyChosen && (
        <ul aria-label="Droits à déléguer" className="max-h-48 space-y-1 overflow-auto rounded-md border border-gray-200 p-2 text-sm">
          {inCampaign.length === 0 && <li className="text-gray-500">Aucun droit n'attend votre décision dans cette campagne.</li>}
          {inCampaign.map((item) => (
            <li key={item.right_id}>
              <label className="flex items-center gap-2">
                <input type="checkbox" checked={chosen.has(item.right_id)} onChange={() => toggle(item.right_id)} />
                {item.holder_name} — {item.application_name} — {item.role_name}
              </label>
            </li>
          ))}
        </ul>
      )}
      <Combobox
        label="Déléguer à"
        required
        noneLabel="Rechercher une personne (nom ou e-mail)"
        value={person}
        options={candidates.data?.map((candidate) => ({ id: candidate.id, label: `${candidate.full_name} (${candidate.email})` }))}
        onSearch={setSearch}
        onChange={setPerson}
      />
      <TextAreaField label="Motif" required rows={2} maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
      <DateInput label="Date de fin" required value={endsOn} onChange={setEndsOn} help="La délégation prend fin au soir de cette date." />
    </FormDialog>
  )
}
