import { currentManager, EMPTY_USER_FORM, orDash, toUserInput, USER_MESSAGES, userFullName, validateUserForm } from '@/features/users/model'

describe('users model', () => {
  it('requires the e-mail and both names', () => {
    expect(validateUserForm(EMPTY_USER_FORM)).toEqual({
      email: USER_MESSAGES.emailRequired,
      first_name: USER_MESSAGES.firstNameRequired,
      last_name: USER_MESSAGES.lastNameRequired,
    })
  })

  it.each(['pas-une-adresse', 'a@b', 'a b@c.fr', '@c.fr'])('refuses the e-mail %s', (email) => {
    expect(validateUserForm({ ...EMPTY_USER_FORM, email, first_name: 'J', last_name: 'M' }).email).toBe(USER_MESSAGES.invalidEmail)
  })

  it('accepts a complete form, the role defaulting to user', () => {
    expect(EMPTY_USER_FORM.role).toBe('user')
    expect(validateUserForm({ ...EMPTY_USER_FORM, email: 'jean@example.com', first_name: 'J', last_name: 'M' })).toEqual({})
  })

  it('sends null for the empty optional fields and for Aucun manager', () => {
    expect(
      toUserInput({ email: ' a@b.fr ', first_name: ' A ', last_name: 'B', role: 'manager', position: ' ', department: 'RH', manager_id: '' }),
    ).toEqual({ email: 'a@b.fr', first_name: 'A', last_name: 'B', role: 'manager', position: null, department: 'RH', manager_id: null })
  })

  it("shows the person's manager in the picker, or none", () => {
    const base = { id: 'u', email: 'u@x.fr', first_name: 'U', last_name: 'V', role: 'user' as const, position: null, department: null, last_login: null, created_at: '', updated_at: '' }
    expect(currentManager({ ...base, manager_id: 'm', manager: { first_name: 'Marc', last_name: 'Dubois' } })).toEqual({ id: 'm', first_name: 'Marc', last_name: 'Dubois' })
    expect(currentManager({ ...base, manager_id: null, manager: null })).toBeNull()
  })

  it("formats names and empty values", () => {
    expect(userFullName({ first_name: 'Marc', last_name: 'Dubois' })).toBe('Marc Dubois')
    expect(userFullName(null)).toBe('-')
    expect(orDash(null)).toBe('-')
    expect(orDash('Comptable')).toBe('Comptable')
  })

  it('words the deletion confirmation exactly', () => {
    expect(USER_MESSAGES.deleteConfirm('Marc Dubois')).toBe("Êtes-vous sûr de vouloir supprimer l'utilisateur Marc Dubois ? Cette action est irréversible.")
  })
})
