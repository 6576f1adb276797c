import { FormDialog } from '@/components/ui/FormDialog'
import { SelectField } from '@/components/ui/SelectField'
import { TextInput } from '@/components/ui/TextInput'
import { ROLES, roleLabel, type Role } from '@/lib/labels'
import { useValidatedForm } from '@/lib/use-validated-form'
import { toUserInput, userFullName, validateUserForm, type UserFormValues, type UserInput, type UserRow } from './model'

interface UserFormDialogProps {
  editing: boolean
  initialValues: UserFormValues
  /** Already filtered: managers other than the person being edited. */
  managers: Pick<UserRow, 'id' | 'first_name' | 'last_name'>[]
  /** The signed-in admin editing their own profile may not change their role (the database refuses it too). */
  roleLocked?: boolean
  onSubmit: (input: UserInput) => Promise<void>
  onClose: () => void
}

export function UserFormDialog({ editing, initialValues, managers, roleLocked = false, onSubmit, onClose }: UserFormDialogProps) {
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
        <SelectField label="Manager" name="manager_id" value={values.manager_id} onChange={(event) => update('manager_id')(event.target.value)}>
          <option value="">Aucun manager</option>
          {managers.map((manager) => (
            <option key={manager.id} value={manager.id}>
              {userFullName(manager)}
            </option>
          ))}
        </SelectField>
        <TextInput label="Poste" name="position" value={values.position} onChange={(event) => update('position')(event.target.value)} />
        <TextInput label="Département" name="department" value={values.department} onChange={(event) => update('department')(event.target.value)} />
      </div>
    </FormDialog>
  )
}
