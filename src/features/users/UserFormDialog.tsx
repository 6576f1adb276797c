import { useState } from 'react'
import { FormDialog } from '@/components/ui/FormDialog'
import { SelectField } from '@/components/ui/SelectField'
import { TextInput } from '@/components/ui/TextInput'
import { ROLES, roleLabel, type Role } from '@/domain/labels'
import { useValidatedForm } from '@/lib/use-validated-form'
import { Combobox, type ComboboxOption } from '@/components/ui/Combobox'
import { countText } from '@/domain/plural'
import { MANAGER_CHOICES, useManagerChoices } from './api'
import { toUserInput, userFullName, validateUserForm, type ManagerChoice, type UserFormValues, type UserInput } from './model'

interface UserFormDialogProps {
  editing: boolean
  initialValues: UserFormValues
  /** The person edited (never offered as their own manager); null when creating. */
  editingId: string | null
  /** The manager the person has now, shown by the picker; null for none. */
  initialManager: ManagerChoice | null
  /** The signed-in admin editing their own profile may not change their role (the database refuses it too). */
  roleLocked?: boolean
  onSubmit: (input: UserInput) => Promise<void>
  onClose: () => void
}

export function UserFormDialog({ editing, editingId, initialValues, initialManager, roleLocked = false, onSubmit, onClose }: UserFormDialogProps) {
  const { values, setField, errors, serverError, pending, submit } = useValidatedForm({
    initialValues,
    validate: validateUserForm,
    toInput: toUserInput,
    onSubmit,
  })
  const update = (field: keyof typeof values) => (value: string) => setField(field, value)

  return (
    <FormDialog title={editing ? "Modifier l'utilisateur" : 'Nouvel utilisateur'} submitLabel={editing ? 'Enregistrer' : 'Créer'} pending={pending} error={serverError} onClose={onClose} onSubmit={submit}>
      <TextInput label="Adresse e-mail" type="email" name="email" required value={values.email} error={errors.email} onChange={(event) => update('email')(event.target.value)} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput label="Prénom" name="first_name" required value={values.first_name} error={errors.first_name} onChange={(event) => update('first_name')(event.target.value)} />
        <TextInput label="Nom" name="last_name" required value={values.last_name} error={errors.last_name} onChange={(event) => update('last_name')(event.target.value)} />
        <SelectField label="Rôle" name="role" required disabled={roleLocked} value={values.role} error={errors.role} onChange={(event) => update('role')(event.target.value as Role)}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {roleLabel(role)}
            </option>
          ))}
        </SelectField>
        <ManagerPicker editingId={editingId} initialManager={initialManager} onChange={(id) => update('manager_id')(id)} />
        <TextInput label="Poste" name="position" value={values.position} onChange={(event) => update('position')(event.target.value)} />
        <TextInput label="Département" name="department" value={values.department} onChange={(event) => update('department')(event.target.value)} />
      </div>
    </FormDialog>
  )
}

const asOption = (manager: ManagerChoice): ComboboxOption => ({ id: manager.id, label: userFullName(manager) })

/** SPEC §5's manager: one of thousands of people, found on the server as the administrator types. */
function ManagerPicker({ editingId, initialManager, onChange }: { editingId: string | null; initialManager: ManagerChoice | null; onChange: (id: string) => void }) {
  const [chosen, setChosen] = useState<ComboboxOption | null>(initialManager && asOption(initialManager))
  const [search, setSearch] = useState('')
  const choices = useManagerChoices(search, editingId)
  const total = choices.data?.total ?? 0
  return (
    <Combobox
      label="Manager"
      noneLabel="Aucun manager"
      value={chosen}
      options={choices.data?.rows.map(asOption)}
      onSearch={setSearch}
      moreText={total > MANAGER_CHOICES ? `${MANAGER_CHOICES} premiers sur ${countText(total, 'manager', 'managers')} : précisez la recherche.` : null}
      onChange={(option) => {
        setChosen(option)
        onChange(option?.id ?? '')
      }}
    />
  )
}
