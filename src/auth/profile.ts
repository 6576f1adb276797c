import { isRole } from '@/domain/labels'
import type { AppUser } from './types'

/** The columns of a profile, with the manager's name joined through the self reference. */
export const PROFILE_COLUMNS =
  'id,email,first_name,last_name,role,position,department,manager_id,last_login,created_at,updated_at,manager:manager_id(first_name,last_name)'

export interface ProfileRow {
  id: string
  email: string
  first_name: string
  last_name: string
  role: string
  position: string | null
  department: string | null
  manager_id: string | null
  last_login: string | null
  created_at: string
  updated_at: string
  // PostgREST embeds a to-one relation as an object; typings without a schema call it an array, so both are read.
  manager: ManagerName | ManagerName[] | null
}

interface ManagerName {
  first_name: string
  last_name: string
}

export function toAppUser(row: ProfileRow): AppUser {
  if (!isRole(row.role)) throw new Error(`Unknown role in profile: ${row.role}`)
  const manager = Array.isArray(row.manager) ? row.manager[0] : row.manager
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    role: row.role,
    position: row.position,
    department: row.department,
    managerId: row.manager_id,
    managerName: manager ? `${manager.first_name} ${manager.last_name}` : null,
    lastLogin: row.last_login,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** SPEC §3: the account's full name split on the first space, 'User' and 'Unknown' standing in for what is missing. */
export function splitFullName(fullName: string | null | undefined): { firstName: string; lastName: string } {
  const trimmed = (fullName ?? '').trim()
  const space = trimmed.indexOf(' ')
  const first = space === -1 ? trimmed : trimmed.slice(0, space)
  const last = space === -1 ? '' : trimmed.slice(space + 1).trim()
  return { firstName: first || 'User', lastName: last || 'Unknown' }
}

/** Escapes LIKE wildcards so that an e-mail such as first_last@x matches only itself. */
export function escapeLikePattern(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`)
}
