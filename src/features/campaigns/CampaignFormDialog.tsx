import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { TextInput } from '@/components/ui/TextInput'
import { ACCOUNT_TYPES, accountTypeLabel } from '@/lib/labels'
import { useApplicationOptions, useSaveCampaign } from './api'
import {
  EMPTY_CAMPAIGN_FORM,
  formFromCampaign,
  toCampaignPayload,
  validateCampaignForm,
  type Campaign,
  type CampaignFormErrors,
  type CampaignFormValues,
} from './model'

interface CampaignFormDialogProps {
  open: boolean
  onClose: () => void
  /** The draft to edit; a new campaign when absent. */
  campaign?: Campaign | null
}

/** Create or edit a draft campaign (SPEC §5). Mount with a key per campaign so that the fields start from it. */
export function CampaignFormDialog({ open, onClose, campaign }: CampaignFormDialogProps) {
  const [values, setValues] = useState<CampaignFormValues>(() => (campaign ? formFromCampaign(campaign) : EMPTY_CAMPAIGN_FORM))
  const [errors, setErrors] = useState<CampaignFormErrors>({})
  const applications = useApplicationOptions(open)
  const save = useSaveCampaign()
  const formId = useId()
  const descriptionId = useId()
  const applicationId = useId()
  const accountTypeId = useId()

  const set = (field: keyof CampaignFormValues) => (value: string) => setValues((current) => ({ ...current, [field]: value }))

  const close = () => {
    save.reset()
    onClose()
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = validateCampaignForm(values)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    save.mutate({ id: campaign?.id, payload: toCampaignPayload(values) }, { onSuccess: () => close() })
  }

  const selectClasses =
    'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 shadow-sm focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500'

  return (
    <Dialog
      open={open}
      onClose={close}
      title={campaign ? 'Modifier la campagne' : 'Nouvelle campagne'}
      footer={
        <>
          <Button variant="outline" onClick={close}>
            Annuler
          </Button>
          <Button type="submit" form={formId} loading={save.isPending}>
            {campaign ? 'Enregistrer' : 'Créer la campagne'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={submit} className="space-y-4">
        {save.error && <ErrorBox message={save.error.message} />}
        <TextInput label="Nom" required value={values.name} error={errors.name} onChange={(e) => set('name')(e.target.value)} />
        <div>
          <label htmlFor={descriptionId} className="mb-1 block text-sm font-medium text-gray-700">
            Description
          </label>
          <textarea
            id={descriptionId}
            rows={3}
            value={values.description}
            onChange={(e) => set('description')(e.target.value)}
            className={selectClasses}
          />
          {errors.description && <p className="mt-1 text-sm text-red-600">{errors.description}</p>}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput
            label="Date de début"
            type="date"
            required
            value={values.startDate}
            error={errors.startDate}
            onChange={(e) => set('startDate')(e.target.value)}
          />
          <TextInput
            label="Date de fin"
            type="date"
            required
            value={values.endDate}
            error={errors.endDate}
            onChange={(e) => set('endDate')(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={applicationId} className="mb-1 block text-sm font-medium text-gray-700">
            Application
          </label>
          <select id={applicationId} value={values.applicationId} onChange={(e) => set('applicationId')(e.target.value)} className={selectClasses}>
            <option value="">Toutes les applications</option>
            {(applications.data ?? []).map((application) => (
              <option key={application.id} value={application.id}>
                {application.name}
              </option>
            ))}
          </select>
          {applications.error && <p className="mt-1 text-sm text-red-600">{applications.error.message}</p>}
        </div>
        <div>
          <label htmlFor={accountTypeId} className="mb-1 block text-sm font-medium text-gray-700">
            Type de compte
          </label>
          <select id={accountTypeId} value={values.accountType} onChange={(e) => set('accountType')(e.target.value)} className={selectClasses}>
            <option value="">Tous les types</option>
            {ACCOUNT_TYPES.map((type) => (
              <option key={type} value={type}>
                {accountTypeLabel(type)}
              </option>
            ))}
          </select>
          {errors.accountType && <p className="mt-1 text-sm text-red-600">{errors.accountType}</p>}
        </div>
      </form>
    </Dialog>
  )
}
