import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { SelectField } from '@/components/ui/SelectField'
import { TextInput } from '@/components/ui/TextInput'
import { ROLES, roleLabel, type Role } from '@/lib/labels'
import { toUserInput, userFullName, validateUserForm, type UserFormErrors, type UserFormValues, type UserInput, type UserRow } from './model'

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
  const [values, setValues] = useState(initialValues)
  const [errors, setErrors] = useState<UserFormErrors>({})
  const [serverError, setServerError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)
  const formId = 'user-form'

  const update = (field: keyof UserFormValues) => (value: string) => setValues((current) => ({ ...current, [field]: value }))

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const found = validateUserForm(values)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    setPending(true)
    setServerError(null)
    try {
      await onSubmit(toUserInput(values))
    } catch (error) {
      setServerError(error instanceof Error ? error.message : null)
      setPending(false)
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={editing ? "Modifier l'utilisateur" : 'Nouvel utilisateur'}
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
      </form>
    </Dialog>
  )
}
