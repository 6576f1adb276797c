import type { ApplicationChoice } from '@/domain/applications'
import { useId, useMemo } from 'react'
import { CheckboxField } from '@/components/ui/CheckboxField'
import { FieldError } from '@/components/ui/field-parts'
import { FormDialog } from '@/components/ui/FormDialog'
import { SelectField } from '@/components/ui/SelectField'
import { TextAreaField } from '@/components/ui/TextAreaField'
import { TextInput } from '@/components/ui/TextInput'
import { useValidatedForm } from '@/lib/use-validated-form'
import { useRoleChoices, useRuleReach } from './api'
import { formParameters, toControlRuleInput, validateControlRuleForm, type ControlRuleFormValues, type ControlRuleInput } from './model'
import { ruleSentences, type JsonObject } from './parameters'
import { RoleLinesField } from './RoleLinesField'
import { RulePreview } from './RulePreview'
import { useDebouncedValue } from './use-debounced-value'

interface ControlRuleFormDialogProps {
  editing: boolean
  initialValues: ControlRuleFormValues
  applications: ApplicationChoice[] | undefined
  onSubmit: (input: ControlRuleInput) => Promise<void>
  onClose: () => void
}

/** How long the choices must rest before the count is asked again. */
export const REACH_DELAY_MS = 400

export function ControlRuleFormDialog({ editing, initialValues, applications, onSubmit, onClose }: ControlRuleFormDialogProps) {
  const { values, setField, errors, serverError, pending, submit } = useValidatedForm({
    initialValues,
    validate: validateControlRuleForm,
    toInput: toControlRuleInput,
    onSubmit,
  })
  // undefined: an application rule whose application is not chosen yet, so no scope to read.
  const scope = values.global ? null : values.application_id || undefined
  const applicationName = scope ? (applications?.find((application) => application.id === scope)?.name ?? null) : null
  const parameters = useMemo(() => formParameters(values), [values])
  const sentences = scope === undefined || (scope !== null && applicationName === null) ? [] : ruleSentences(parameters, applicationName)
  // Compared as text: a new name makes new parameters objects, not a new rule to count.
  const draftKey = sentences.length > 0 && scope !== undefined ? JSON.stringify({ parameters, applicationId: scope }) : null
  const settledKey = useDebouncedValue(draftKey, REACH_DELAY_MS)
  const roleChoices = useRoleChoices(values.checksRoles ? scope : undefined)
  const reach = useRuleReach(settledKey === null ? null : (JSON.parse(settledKey) as { parameters: JsonObject; applicationId: string | null }))
  const checksErrorId = useId()

  return (
    <FormDialog title={editing ? 'Modifier la règle' : 'Nouvelle règle de contrôle'} submitLabel={editing ? 'Enregistrer' : 'Créer'} pending={pending} error={serverError} onClose={onClose} onSubmit={submit}>
      <TextInput label="Nom" name="name" required value={values.name} error={errors.name} onChange={(event) => setField('name', event.target.value)} />
      <TextAreaField label="Description" name="description" rows={2} value={values.description} error={errors.description} onChange={(event) => setField('description', event.target.value)} />
      <CheckboxField label="Règle globale (toutes les applications)" checked={values.global} onChange={(event) => setField('global', event.target.checked)} />
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
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-gray-700">Ce que la règle contrôle</legend>
        <CheckboxField
          label="Rôles incompatibles (séparation des tâches)"
          hint="Une même personne ne doit pas détenir deux de ces rôles."
          checked={values.checksRoles}
          onChange={(event) => setField('checksRoles', event.target.checked)}
        />
        {values.checksRoles && (
          <div className="sm:ml-6">
            <RoleLinesField
              roles={values.roles}
              onChange={(roles) => setField('roles', roles)}
              choices={roleChoices.data}
              unavailable={roleChoicesUnavailable(scope, roleChoices)}
              error={errors.roles}
            />
          </div>
        )}
        <CheckboxField
          label="Droits inutilisés (seuil d’inactivité)"
          hint="Signale les droits jamais utilisés ou inutilisés depuis plus de ce nombre de jours."
          checked={values.checksInactivity}
          onChange={(event) => setField('checksInactivity', event.target.checked)}
        />
        {values.checksInactivity && (
          <div className="sm:ml-6">
            <TextInput
              label="Seuil d’inactivité (jours)"
              name="threshold"
              type="number"
              inputMode="numeric"
              min={1}
              required
              value={values.threshold}
              error={errors.threshold}
              onChange={(event) => setField('threshold', event.target.value)}
            />
          </div>
        )}
        <FieldError id={checksErrorId} error={errors.checks} />
      </fieldset>
      {values.notes.length > 0 && (
        <div role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          {values.notes.map((note) => (
            <p key={note}>{note}</p>
          ))}
        </div>
      )}
      <RulePreview
        sentences={sentences}
        reach={{ data: settledKey === draftKey ? reach.data : undefined, pending: reach.isFetching || settledKey !== draftKey, error: reach.error?.message ?? null }}
      />
      <CheckboxField label="Règle active" checked={values.enabled} onChange={(event) => setField('enabled', event.target.checked)} />
    </FormDialog>
  )
}

function roleChoicesUnavailable(scope: string | null | undefined, roleChoices: { data?: string[]; error: Error | null }): string | null {
  if (scope === undefined) return 'Choisissez d’abord l’application'
  if (roleChoices.error) return roleChoices.error.message
  if (roleChoices.data?.length === 0) return scope === null ? 'Aucun droit importé : aucun rôle à proposer' : 'Aucun droit sur cette application : aucun rôle à proposer'
  return null
}
