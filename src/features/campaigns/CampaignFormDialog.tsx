import { CheckboxField } from '@/components/ui/CheckboxField'
import { DateInput } from '@/components/ui/DateInput'
import { FormDialog } from '@/components/ui/FormDialog'
import { SelectField } from '@/components/ui/SelectField'
import { TextAreaField } from '@/components/ui/TextAreaField'
import { TextInput } from '@/components/ui/TextInput'
import { ACCOUNT_TYPES, CAMPAIGN_RECURRENCES, CAMPAIGN_RECURRENCE_LABELS, accountTypeLabel } from '@/domain/labels'
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
        <DateInput label="Date de début" required value={values.startDate} error={errors.startDate} onChange={(iso) => setField('startDate', iso)} />
        <DateInput label="Date de fin" required value={values.endDate} error={errors.endDate} onChange={(iso) => setField('endDate', iso)} />
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
      <SelectField
        label="Récurrence"
        value={values.recurrence}
        error={errors.recurrence}
        hint="À chaque échéance, la campagne suivante est créée avec le même périmètre et la même durée, et nommée d'après sa période."
        onChange={(e) => setField('recurrence', e.target.value)}
      >
        <option value="">Aucune (campagne ponctuelle)</option>
        {CAMPAIGN_RECURRENCES.map((recurrence) => (
          <option key={recurrence} value={recurrence}>
            {CAMPAIGN_RECURRENCE_LABELS[recurrence]}
          </option>
        ))}
      </SelectField>
      <CheckboxField
        label="Démarrage automatique le premier jour"
        hint="La campagne démarre à sa date de début, comme par un clic sur Démarrer."
        checked={values.autoStart}
        onChange={(e) => setField('autoStart', e.target.checked)}
      />
      <CheckboxField
        label="Notifications par e-mail"
        hint="Chaque relecteur est prévenu au démarrage et quand des droits arrivent à son étape ; le créateur, quand tout est décidé."
        checked={values.notificationsEnabled}
        onChange={(e) => setField('notificationsEnabled', e.target.checked)}
      />
      <CheckboxField
        label="Rappels avant la date de fin"
        hint="7, 3 et 1 jours avant la fin, aux relecteurs qui ont encore des droits à revoir ; après la fin, leur manager et le créateur sont prévenus."
        checked={values.remindersEnabled}
        onChange={(e) => setField('remindersEnabled', e.target.checked)}
      />
    </FormDialog>
  )
}
