import { CheckboxField } from '@/components/ui/CheckboxField'
import { DateInput } from '@/components/ui/DateInput'
import { FormDialog } from '@/components/ui/FormDialog'
import { SelectField } from '@/components/ui/SelectField'
import { TextAreaField } from '@/components/ui/TextAreaField'
import { TextInput } from '@/components/ui/TextInput'
import { ACCOUNT_TYPES, CAMPAIGN_RECURRENCES, CAMPAIGN_RECURRENCE_LABELS, accountTypeLabel } from '@/domain/labels'
import { useValidatedForm } from '@/lib/use-validated-form'
import { useApplicationOptions, useSaveCampaign } from './api'
import {
  EMPTY_CAMPAIGN_FORM,
  formFromCampaign,
  hasEditableSettings,
  toCampaignPayload,
  toSettingsPayload,
  validateCampaignForm,
  type Campaign,
  type CampaignFormErrors,
  type CampaignFormValues,
} from './model'
import { ReminderDaysField } from './ReminderDaysField'
import { MAX_ESCALATION_DELAY, campaignLength, escalationDate, parseEscalationDelay } from './reminders-model'

interface CampaignFormDialogProps {
  onClose: () => void
  /** The draft to edit; a new campaign when absent. */
  campaign?: Campaign | null
}

/**
 * Create or edit a draft campaign (SPEC §5), or change a running one's e-mails (notifications, reminders, escalation),
 * all that may still change once it has started. Mount with a key per campaign so that the fields start from it.
 */
export function CampaignFormDialog({ onClose, campaign }: CampaignFormDialogProps) {
  const save = useSaveCampaign()
  const settingsOnly = campaign ? hasEditableSettings(campaign) : false
  const { values, setField, errors, serverError, pending, submit } = useValidatedForm({
    initialValues: campaign ? formFromCampaign(campaign) : EMPTY_CAMPAIGN_FORM,
    validate: validateCampaignForm,
    toInput: (input: CampaignFormValues) => input,
    onSubmit: async (input) => {
      if (!campaign) await save.mutateAsync({ payload: toCampaignPayload(input) })
      else await save.mutateAsync({ id: campaign.id, payload: settingsOnly ? toSettingsPayload(input) : toCampaignPayload(input) })
      onClose()
    },
  })
  const form = { values, setField, errors }

  return (
    <FormDialog
      title={settingsOnly ? `E-mails de « ${campaign?.name} »` : campaign ? 'Modifier la campagne' : 'Nouvelle campagne'}
      submitLabel={campaign ? 'Enregistrer' : 'Créer la campagne'}
      size="md"
      pending={pending}
      error={serverError}
      onClose={onClose}
      onSubmit={submit}
    >
      {settingsOnly ? (
        <p className="text-sm text-gray-600">La campagne est en cours : seuls ses e-mails peuvent encore changer. Ils valent dès le prochain envoi.</p>
      ) : (
        <ReviewFields {...form} />
      )}
      <EmailFields {...form} />
    </FormDialog>
  )
}

interface FieldsProps {
  values: CampaignFormValues
  setField: <K extends keyof CampaignFormValues>(field: K, value: CampaignFormValues[K]) => void
  errors: Partial<CampaignFormErrors>
}

/** What the campaign reviews and when: a draft's only. */
function ReviewFields({ values, setField, errors }: FieldsProps) {
  const applications = useApplicationOptions()
  return (
    <>
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
    </>
  )
}

/** Who hears what and when: notifications, the reminders' days before the end date, the escalation after it. */
function EmailFields({ values, setField, errors }: FieldsProps) {
  const length = campaignLength(values.startDate, values.endDate)
  const endDate = length === null ? null : values.endDate
  const delay = parseEscalationDelay(values.escalationDelayDays)
  return (
    <>
      <CheckboxField
        label="Notifications par e-mail"
        hint="Chaque relecteur est prévenu au démarrage et quand des droits arrivent à son étape ; le créateur, quand tout est décidé."
        checked={values.notificationsEnabled}
        onChange={(e) => setField('notificationsEnabled', e.target.checked)}
      />
      <CheckboxField
        label="Rappels avant la date de fin"
        hint="Aux relecteurs qui ont encore des droits à revoir, les jours choisis ci-dessous."
        checked={values.remindersEnabled}
        onChange={(e) => setField('remindersEnabled', e.target.checked)}
      />
      {values.remindersEnabled && (
        <ReminderDaysField
          days={values.reminderDays}
          onChange={(days) => setField('reminderDays', days)}
          length={length}
          endDate={endDate}
          error={errors.reminderDays}
        />
      )}
      <TextInput
        label="Escalade après la date de fin (jours)"
        inputMode="numeric"
        value={values.escalationDelayDays}
        error={errors.escalationDelayDays}
        help={escalationHelp(endDate, delay)}
        onChange={(e) => setField('escalationDelayDays', e.target.value)}
      />
    </>
  )
}

/** When the late reviewers' managers and the creator hear of the delay, as precisely as the fields allow. */
function escalationHelp(endDate: string | null, delay: number | null): string {
  const who = 'les managers des relecteurs en retard et le créateur de la campagne sont prévenus'
  if (delay === null) return `De 0 à ${MAX_ESCALATION_DELAY} jours ; 0 : ${who} le lendemain de la date de fin.`
  const when = delay === 0 ? 'le lendemain de la date de fin' : `${delay + 1} jours après la date de fin`
  return endDate ? `Le ${escalationDate(endDate, delay)} (${when}), ${who}.` : `${when[0]!.toUpperCase()}${when.slice(1)}, ${who}.`
}
