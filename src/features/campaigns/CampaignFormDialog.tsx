import { FormDialog } from '@/components/ui/FormDialog'
import { SelectField } from '@/components/ui/SelectField'
import { TextAreaField } from '@/components/ui/TextAreaField'
import { TextInput } from '@/components/ui/TextInput'
import { ACCOUNT_TYPES, accountTypeLabel } from '@/lib/labels'
import { useValidatedForm } from '@/lib/use-validated-form'
import { useApplicationOptions, useSaveCampaign } from './api'
import { EMPTY_CAMPAIGN_FORM, formFromCampaign, toCampaignPayload, validateCampaignForm, type Campaign } from './model'

interface CampaignFormDialogProps {
  onClose: () => void
  /** The draft to edit; a new campaign when absent. */
  campaign?: Campaign | null
}

/** Create or edit a draft campaign (SPEC §5). Mount with a key per campaign so that the fields start from it. */
export function CampaignFormDialog({ onClose, campaign }: CampaignFormDialogProps) {
  const applications = useApplicationOptions()
  const save = useSaveCampaign()
  const { values, setField, errors, serverError, pending, submit } = useValidatedForm({
    initialValues: campaign ? formFromCampaign(campaign) : EMPTY_CAMPAIGN_FORM,
    validate: validateCampaignForm,
    toInput: toCampaignPayload,
    onSubmit: async (payload) => {
      await save.mutateAsync({ id: campaign?.id, payload })
      onClose()
    },
  })

  return (
    <FormDialog
      title={campaign ? 'Modifier la campagne' : 'Nouvelle campagne'}
      submitLabel={campaign ? 'Enregistrer' : 'Créer la campagne'}
      size="md"
      pending={pending}
      error={serverError}
      onClose={onClose}
      onSubmit={submit}
    >
      <TextInput label="Nom" required value={values.name} error={errors.name} onChange={(e) => setField('name', e.target.value)} />
      <TextAreaField label="Description" rows={3} value={values.description} error={errors.description} onChange={(e) => setField('description', e.target.value)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput label="Date de début" type="date" required value={values.startDate} error={errors.startDate} onChange={(e) => setField('startDate', e.target.value)} />
        <TextInput label="Date de fin" type="date" required value={values.endDate} error={errors.endDate} onChange={(e) => setField('endDate', e.target.value)} />
      </div>
      <SelectField label="Application" value={values.applicationId} error={applications.error?.message} onChange={(e) => setField('applicationId', e.target.value)}>
        <option value="">Toutes les applications</option>
        {(applications.data ?? []).map((application) => (
          <option key={application.id} value={application.id}>
            {application.name}
          </option>
        ))}
      </SelectField>
      <SelectField label="Type de compte" value={values.accountType} error={errors.accountType} onChange={(e) => setField('accountType', e.target.value)}>
        <option value="">Tous les types</option>
        {ACCOUNT_TYPES.map((type) => (
          <option key={type} value={type}>
            {accountTypeLabel(type)}
          </option>
        ))}
      </SelectField>
    </FormDialog>
  )
}
