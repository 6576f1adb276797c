import type { ApplicationChoice } from '@/domain/applications'
import { useId } from 'react'
import { FormDialog } from '@/components/ui/FormDialog'
import { SelectField } from '@/components/ui/SelectField'
import { TextAreaField } from '@/components/ui/TextAreaField'
import { TextInput } from '@/components/ui/TextInput'
import { useValidatedForm } from '@/lib/use-validated-form'
import {
  toControlRuleInput,
  validateControlRuleForm,
  type ControlRuleFormValues,
  type ControlRuleInput,
} from './model'

interface ControlRuleFormDialogProps {
  editing: boolean
  initialValues: ControlRuleFormValues
  applications: ApplicationChoice[] | undefined
  onSubmit: (input: ControlRuleInput) => Promise<void>
  onClose: () => void
}

export function ControlRuleFormDialog({ editing, initialValues, applications, onSubmit, onClose }: ControlRuleFormDialogProps) {
  const { values, setField, errors, serverError, pending, submit } = useValidatedForm({
    initialValues,
    validate: validateControlRuleForm,
    toInput: toControlRuleInput,
    onSubmit,
  })
  const globalId = useId()
  const enabledId = useId()

  return (
    <FormDialog title={editing ? 'Modifier la règle' : 'Nouvelle règle de contrôle'} submitLabel={editing ? 'Enregistrer' : 'Créer'} pending={pending} error={serverError} onClose={onClose} onSubmit={submit}>
      <TextInput label="Nom" name="name" required value={values.name} error={errors.name} onChange={(event) => setField('name', event.target.value)} />
      <TextAreaField label="Description" name="description" rows={2} value={values.description} error={errors.description} onChange={(event) => setField('description', event.target.value)} />
      <div className="flex items-center gap-2">
        <input id={globalId} type="checkbox" checked={values.global} onChange={(event) => setField('global', event.target.checked)} className="h-4 w-4 rounded border-gray-300" />
        <label htmlFor={globalId} className="text-sm text-gray-700">
          Règle globale (toutes les applications)
        </label>
      </div>
      {!values.global && (
        <SelectField label="Application" name="application_id" required value={values.application_id} error={errors.application_id} onChange={(event) => setField('application_id', event.target.value)}>
          <option value="">Sélectionner une application</option>
          {applications?.map((application) => (
            <option key={application.id} value={application.id}>
              {application.name}
            </option>
          ))}
        </SelectField>
      )}
      <TextAreaField
        label="Paramètres (JSON)"
        name="parameters"
        rows={5}
        className="font-mono"
        value={values.parameters}
        error={errors.parameters}
        onChange={(event) => setField('parameters', event.target.value)}
      />
      <div className="flex items-center gap-2">
        <input id={enabledId} type="checkbox" checked={values.enabled} onChange={(event) => setField('enabled', event.target.checked)} className="h-4 w-4 rounded border-gray-300" />
        <label htmlFor={enabledId} className="text-sm text-gray-700">
          Règle active
        </label>
      </div>
    </FormDialog>
  )
}
