/** The users page's data and SPEC §5's form rules, with SPEC §8's messages. Pure: no Supabase here. */
import { z } from 'zod'
import { firstMessageByField } from '@/lib/field-errors'
import { ROLES, type Role } from '@/domain/labels'

export interface UserRow {
  id: string
  email: string
  first_name: string
  last_name: string
  role: Role
  position: string | null
  department: string | null
  manager_id: string | null
  last_login: string | null
  /** False for a leaver: deactivated, never deleted (rpc set_user_active, import_directory). Rows built by hand may omit it. */
  active?: boolean
  created_at: string
  updated_at: string
  manager: { first_name: string; last_name: string } | null
}

export interface UserFormValues {
  email: string
  first_name: string
  last_name: string
  role: Role
  position: string
  department: string
  /** '' stands for "Aucun manager". */
  manager_id: string
}

export const EMPTY_USER_FORM: UserFormValues = {
  email: '',
  first_name: '',
  last_name: '',
  role: 'user',
  position: '',
  department: '',
  manager_id: '',
}

export const USER_MESSAGES = {
  emailRequired: "L'adresse e-mail est obligatoire.",
  invalidEmail: 'Veuillez entrer une adresse email valide.',
  firstNameRequired: 'Le prénom est obligatoire.',
  lastNameRequired: 'Le nom est obligatoire.',
  roleRequired: 'Le rôle est obligatoire.',
  deleteConfirm: (name: string) => `Êtes-vous sûr de vouloir supprimer l'utilisateur ${name} ? Cette action est irréversible.`,
  resetSecondFactorConfirm: (name: string) =>
    `Les seconds facteurs de ${name} seront supprimés et toutes ses sessions fermées. À sa prochaine connexion, cette personne devra en enregistrer un nouveau depuis son application d'authentification. L'opération est enregistrée dans le journal d'audit.`,
  secondFactorReset: (name: string) =>
    `Le second facteur de ${name} a été réinitialisé : ses sessions sont fermées, un nouveau lui sera demandé à sa prochaine connexion.`,
} as const

/**
 * Whose row offers « Réinitialiser le second facteur »: the roles the server may require a factor of (admin and RSSI
 * always, the RA when the server says so; the browser cannot read that setting, nor anyone's factors).
 */
export const mayHoldSecondFactor = (role: Role): boolean => role === 'admin' || role === 'rssi' || role === 'ra'

/** The database's own check (users_email_format). */
const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/

const userFormSchema = z.object({
  email: z.string().trim().min(1, USER_MESSAGES.emailRequired).max(254, USER_MESSAGES.invalidEmail).regex(EMAIL_PATTERN, USER_MESSAGES.invalidEmail),
  first_name: z.string().trim().min(1, USER_MESSAGES.firstNameRequired).max(100),
  last_name: z.string().trim().min(1, USER_MESSAGES.lastNameRequired).max(100),
  role: z.enum(ROLES, { message: USER_MESSAGES.roleRequired }),
  position: z.string(),
  department: z.string(),
  manager_id: z.string(),
})

export type UserFormErrors = Partial<Record<keyof UserFormValues, string>>

export function validateUserForm(values: UserFormValues): UserFormErrors {
  const result = userFormSchema.safeParse(values)
  return result.success ? {} : firstMessageByField(result.error.issues)
}

export interface UserInput {
  email: string
  first_name: string
  last_name: string
  role: Role
  position: string | null
  department: string | null
  manager_id: string | null
}

/** Trimmed values; empty optional texts and "Aucun manager" become null. */
export function toUserInput(values: UserFormValues): UserInput {
  const optional = (value: string) => (value.trim() === '' ? null : value.trim())
  return {
    email: values.email.trim(),
    first_name: values.first_name.trim(),
    last_name: values.last_name.trim(),
    role: values.role,
    position: optional(values.position),
    department: optional(values.department),
    manager_id: values.manager_id === '' ? null : values.manager_id,
  }
}

export function userToForm(user: UserRow): UserFormValues {
  return {
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    role: user.role,
    position: user.position ?? '',
    department: user.department ?? '',
    manager_id: user.manager_id ?? '',
  }
}

export function userFullName(user: { first_name: string; last_name: string } | null | undefined): string {
  if (!user) return '-'
  return [user.first_name, user.last_name].filter(Boolean).join(' ').trim() || '-'
}

/** A manager the form's picker offers. */
export type ManagerChoice = Pick<UserRow, 'id' | 'first_name' | 'last_name'>

/** The manager the edited person has, as the picker shows it; null for none. */
export function currentManager(user: UserRow): ManagerChoice | null {
  return user.manager_id && user.manager ? { id: user.manager_id, ...user.manager } : null
}

export const orDash = (value: string | null | undefined) => (value && value.trim() !== '' ? value : '-')
