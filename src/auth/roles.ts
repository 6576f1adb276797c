import type { Role } from '@/domain/labels'
import type { AppUser } from './types'

/** SPEC §6: a check against one role or a list of roles. A courtesy for screens; the database enforces access. */
export function hasRole(user: Pick<AppUser, 'role'> | null | undefined, roles: Role | readonly Role[]): boolean {
  if (!user) return false
  return typeof roles === 'string' ? user.role === roles : roles.includes(user.role)
}

const ADMIN_ROLES = ['admin', 'rssi'] as const satisfies readonly Role[]

export const isAdministrator = (user: Pick<AppUser, 'role'> | null | undefined) => hasRole(user, ADMIN_ROLES)

/** Two letters for the avatar; '??' when a name is missing (SPEC §2). */
export function initialsOf(user: Pick<AppUser, 'firstName' | 'lastName'> | null | undefined): string {
  const first = user?.firstName?.trim().charAt(0)
  const last = user?.lastName?.trim().charAt(0)
  return first && last ? `${first}${last}`.toUpperCase() : '??'
}

export function fullNameOf(user: Pick<AppUser, 'firstName' | 'lastName'>): string {
  return [user.firstName, user.lastName].filter(Boolean).join(' ')
}
