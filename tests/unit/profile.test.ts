import { escapeLikePattern, splitFullName, toAppUser, type ProfileRow } from '@/auth/profile'
import { fullNameOf, hasRole, initialsOf, isAdministrator } from '@/auth/roles'

const row: ProfileRow = {
  id: 'u1',
  email: 'julie.martin@example.com',
  first_name: 'Julie',
  last_name: 'Martin',
  role: 'user',
  position: 'Comptable',
  department: 'Finance',
  manager_id: 'm1',
  last_login: null,
  created_at: '2025-01-01T00:00:00Z',
  updated_at: '2025-01-02T00:00:00Z',
  manager: { first_name: 'Marc', last_name: 'Dubois' },
}

describe('splitFullName', () => {
  it('splits on the first space only', () => {
    expect(splitFullName('Jean Pierre de la Tour')).toEqual({ firstName: 'Jean', lastName: 'Pierre de la Tour' })
  })

  it("defaults to 'User' and 'Unknown'", () => {
    expect(splitFullName(null)).toEqual({ firstName: 'User', lastName: 'Unknown' })
    expect(splitFullName('  ')).toEqual({ firstName: 'User', lastName: 'Unknown' })
    expect(splitFullName('Cher')).toEqual({ firstName: 'Cher', lastName: 'Unknown' })
  })
})

describe('toAppUser', () => {
  it('maps the row to app-side names, with the manager name joined', () => {
    expect(toAppUser(row)).toEqual({
      id: 'u1',
      email: 'julie.martin@example.com',
      firstName: 'Julie',
      lastName: 'Martin',
      role: 'user',
      position: 'Comptable',
      department: 'Finance',
      managerId: 'm1',
      managerName: 'Marc Dubois',
      lastLogin: null,
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-02T00:00:00Z',
    })
  })

  it('reads an embedded manager given as a list, and no manager', () => {
    expect(toAppUser({ ...row, manager: [{ first_name: 'Marc', last_name: 'Dubois' }] }).managerName).toBe('Marc Dubois')
    expect(toAppUser({ ...row, manager: null, manager_id: null }).managerName).toBeNull()
  })

  it('rejects an unknown role', () => {
    expect(() => toAppUser({ ...row, role: 'superuser' })).toThrow(/Unknown role/)
  })
})

describe('escapeLikePattern', () => {
  it('makes LIKE wildcards literal', () => {
    expect(escapeLikePattern('first_last%x@example.com')).toBe('first\\_last\\%x@example.com')
    expect(escapeLikePattern('a\\b@example.com')).toBe('a\\\\b@example.com')
  })
})

describe('role helpers', () => {
  const user = toAppUser(row)

  it('checks one role or a list', () => {
    expect(hasRole(user, 'user')).toBe(true)
    expect(hasRole(user, ['admin', 'rssi'])).toBe(false)
    expect(hasRole(null, 'user')).toBe(false)
    expect(isAdministrator({ role: 'rssi' })).toBe(true)
  })

  it("gives initials, or '??' when a name is missing", () => {
    expect(initialsOf(user)).toBe('JM')
    expect(initialsOf({ firstName: 'julie', lastName: '' })).toBe('??')
    expect(initialsOf(null)).toBe('??')
    expect(fullNameOf(user)).toBe('Julie Martin')
  })
})
