import { FormDialog } from '@/components/ui/FormDialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { SelectField } from '@/components/ui/SelectField'
import { TextAreaField } from '@/components/ui/TextAreaField'
import { TextInput } from '@/components/ui/TextInput'
import { useValidatedForm } from '@/lib/use-validated-form'
import {
  personName,
  toApplicationInput,
  validateApplicationForm,
  type ApplicationFormValues,
  type ApplicationInput,
  type ApplicationOwnerChoices,
  type OwnerChoice,
} from './model'

interface ApplicationFormDialogProps {
  /** null when creating. */
  editingName: string | null
  initialValues: ApplicationFormValues
  choices: ApplicationOwnerChoices | undefined
  choicesError?: string | null
  onSubmit: (input: ApplicationInput) => Promise<void>
  onClose: () => void
}

function ownerOptions(people: OwnerChoice[] | undefined, emptyLabel: string) {
  return (
    <>
      <option value="">{emptyLabel}</option>
      {people?.map((person) => (
        <option key={person.id} value={person.id}>
          {personName(person)}
        </option>
      ))}
    </>
  )
}

/** Create or edit an application; errors from the server stay inside the dialog. */
export function ApplicationFormDialog({ editingName, initialValues, choices, choicesError, onSubmit, onClose }: ApplicationFormDialogProps) {
  const { values, setField, errors, serverError, pending, submit } = useValidatedForm({
    initialValues,
    validate: validateApplicationForm,
    toInput: toApplicationInput,
    onSubmit,
  })
  const update = (field: keyof typeof values) => (value: string) => setField(field, value)

  return (
    <FormDialog title={editingName ? "Modifier l'application" : 'Nouvelle application'} submitLabel={editingName ? 'Enregistrer' : 'Créer'} pending={pending} error={serverError} onClose={onClose} onSubmit={submit}>
      {choicesError && <ErrorBox message={choicesError} />}
      <TextInput label="Nom" name="name" required value={values.name} error={errors.name} onChange={(event) => update('name')(event.target.value)} />
      <TextAreaField label="Description" name="description" rows={3} value={values.description} error={errors.description} onChange={(event) => update('description')(event.target.value)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="RA" name="ra_id" required value={values.ra_id} error={errors.ra_id} onChange={(event) => update('ra_id')(event.target.value)}>
          {ownerOptions(choices?.ra, 'Sélectionner un RA')}
        </SelectField>
        <SelectField label="BPO Métier" name="bpo_metier_id" required value={values.bpo_metier_id} error={errors.bpo_metier_id} onChange={(event) => update('bpo_metier_id')(event.target.value)}>
          {ownerOptions(choices?.bpo_metier, 'Sélectionner un BPO Métier')}
        </SelectField>
        <SelectField label="BPO Groupe" name="bpo_groupe_id" value={values.bpo_groupe_id} onChange={(event) => update('bpo_groupe_id')(event.target.value)}>
          {ownerOptions(choices?.bpo_groupe, 'Aucun BPO Groupe')}
        </SelectField>
        <SelectField label="RSSI" name="rssi_id" value={values.rssi_id} onChange={(event) => update('rssi_id')(event.target.value)}>
          {ownerOptions(choices?.rssi, 'Aucun RSSI')}
        </SelectField>
      </div>
    </FormDialog>
  )
}
