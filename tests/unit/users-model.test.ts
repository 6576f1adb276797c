import { EMPTY_USER_FORM, managerChoices, orDash, toUserInput, USER_MESSAGES, userFullName, validateUserForm } from '@/features/users/model'

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

  it('offers managers only, never the person being edited', () => {
    const people = [
      { id: '1', role: 'manager' as const, first_name: 'Zoé', last_name: 'Z' },
      { id: '2', role: 'manager' as const, first_name: 'Anne', last_name: 'A' },
      { id: '3', role: 'user' as const, first_name: 'Ugo', last_name: 'U' },
    ]
    expect(managerChoices(people, null).map((p) => p.id)).toEqual(['2', '1'])
    expect(managerChoices(people, '2').map((p) => p.id)).toEqual(['1'])
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
