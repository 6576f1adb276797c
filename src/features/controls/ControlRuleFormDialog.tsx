import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { SelectField } from '@/components/ui/SelectField'
import { TextAreaField } from '@/components/ui/TextAreaField'
import { TextInput } from '@/components/ui/TextInput'
import {
  toControlRuleInput,
  validateControlRuleForm,
  type ApplicationChoice,
  type ControlRuleFormErrors,
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
  const [values, setValues] = useState(initialValues)
  const [errors, setErrors] = useState<ControlRuleFormErrors>({})
  const [serverError, setServerError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  const globalId = useId()
  const enabledId = useId()
  const formId = 'control-rule-form'

  const update = <K extends keyof ControlRuleFormValues>(field: K, value: ControlRuleFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }))

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found = validateControlRuleForm(values)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    setServerError(null)
    try {
      await onSubmit(toControlRuleInput(values))
    } catch (error) {
      setServerError(error instanceof Error ? error.message : null)
      setPending(false)
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={editing ? 'Modifier la règle' : 'Nouvelle règle de contrôle'}
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={pending}>
            Annuler
          </Button>
          <Button type="submit" form={formId} loading={pending}>
            {editing ? 'Enregistrer' : 'Créer'}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
        {serverError !== null && <ErrorBox message={serverError} />}
        <TextInput label="Nom" name="name" required value={values.name} error={errors.name} onChange={(event) => update('name', event.target.value)} />
        <TextAreaField label="Description" name="description" rows={2} value={values.description} error={errors.description} onChange={(event) => update('description', event.target.value)} />
        <div className="flex items-center gap-2">
          <input id={globalId} type="checkbox" checked={values.global} onChange={(event) => update('global', event.target.checked)} className="h-4 w-4 rounded border-gray-300" />
          <label htmlFor={globalId} className="text-sm text-gray-700">
            Règle globale (toutes les applications)
          </label>
        </div>
        {!values.global && (
          <SelectField label="Application" name="application_id" required value={values.application_id} error={errors.application_id} onChange={(event) => update('application_id', event.target.value)}>
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
          onChange={(event) => update('parameters', event.target.value)}
        />
        <div className="flex items-center gap-2">
          <input id={enabledId} type="checkbox" checked={values.enabled} onChange={(event) => update('enabled', event.target.checked)} className="h-4 w-4 rounded border-gray-300" />
          <label htmlFor={enabledId} className="text-sm text-gray-700">
            Règle active
          </label>
        </div>
      </form>
    </Dialog>
  )
}
