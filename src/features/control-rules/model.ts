/** The control rules page's data and form rules, with their French messages. Pure: no Supabase here. */
import { z } from 'zod'
import { firstMessageByField } from '@/lib/field-errors'
import { readRuleParameters, type JsonObject } from './parameters'

export type { JsonObject } from './parameters'

export interface ControlRuleRow {
  id: string
  name: string
  description: string
  global: boolean
  application_id: string | null
  parameters: unknown
  enabled: boolean
  created_at: string
  updated_at: string
  application: { name: string } | null
}

export interface ControlRuleFormValues {
  name: string
  description: string
  global: boolean
  application_id: string
  /** Whether the rule forbids holding two of some roles, and which ('' for a line not chosen yet). */
  checksRoles: boolean
  roles: string[]
  /** Whether the rule flags rights unused for a number of days, as typed. */
  checksInactivity: boolean
  threshold: string
  /** The saved parameters this form does not edit, sent back as they were. */
  otherParameters: JsonObject
  /** In French, what of the saved parameters the form could not show as they were. */
  notes: string[]
  enabled: boolean
}

export const EMPTY_CONTROL_RULE_FORM: ControlRuleFormValues = {
  name: '',
  description: '',
  global: true,
  application_id: '',
  checksRoles: true,
  roles: ['', ''],
  checksInactivity: false,
  threshold: '90',
  otherParameters: {},
  notes: [],
  enabled: true,
}

export const CONTROL_MESSAGES = {
  nameRequired: 'Le nom de la règle est obligatoire.',
  applicationRequired: "L'application est obligatoire pour une règle non globale.",
  nothingChecked: 'Choisissez ce que la règle contrôle : des rôles incompatibles, des droits inutilisés, ou les deux.',
  tooFewRoles: 'Choisissez au moins deux rôles incompatibles.',
  duplicateRole: (role: string) => `Le rôle « ${role} » est choisi deux fois : choisissez des rôles différents.`,
  invalidThreshold: "Le seuil d'inactivité doit être un nombre de jours supérieur à zéro, cent ans (36 500 jours) au plus.",
  deleteConfirm: (name: string) => `Êtes-vous sûr de vouloir supprimer la règle ${name} ? Cette action est irréversible.`,
} as const

/** The roles picked so far, in order, without the lines left empty. */
export const pickedRoles = (values: Pick<ControlRuleFormValues, 'roles'>) => values.roles.map((role) => role.trim()).filter((role) => role !== '')

function firstRepeated(roles: string[]): string | undefined {
  return roles.find((role, index) => roles.indexOf(role) !== index)
}

/** The longest threshold the database takes, a century: beyond it the date to compare with does not exist. */
export const MAX_THRESHOLD_DAYS = 36_500

/** The threshold as a number of days, or null unless it is above zero and at most a century. */
export function thresholdDays(text: string): number | null {
  const days = Number(text.trim().replace(',', '.'))
  return text.trim() !== '' && days >= 0.001 && days <= MAX_THRESHOLD_DAYS ? days : null
}

const formSchema = z
  .object({
    name: z.string().trim().min(1, CONTROL_MESSAGES.nameRequired).max(200),
    description: z.string().max(2000),
  })
  .passthrough()

export type ControlRuleFormErrors = Partial<Record<keyof ControlRuleFormValues | 'checks', string>>

export function validateControlRuleForm(values: ControlRuleFormValues): ControlRuleFormErrors {
  const result = formSchema.safeParse(values)
  const errors: ControlRuleFormErrors = result.success ? {} : firstMessageByField(result.error.issues)
  if (!values.global && values.application_id === '') errors.application_id = CONTROL_MESSAGES.applicationRequired
  const keepsOthers = Object.keys(values.otherParameters).length > 0
  if (!values.checksRoles && !values.checksInactivity && !keepsOthers) errors.checks = CONTROL_MESSAGES.nothingChecked
  if (values.checksRoles) {
    const roles = pickedRoles(values)
    const repeated = firstRepeated(roles)
    if (repeated !== undefined) errors.roles = CONTROL_MESSAGES.duplicateRole(repeated)
    else if (roles.length < 2) errors.roles = CONTROL_MESSAGES.tooFewRoles
  }
  if (values.checksInactivity && thresholdDays(values.threshold) === null) errors.threshold = CONTROL_MESSAGES.invalidThreshold
  return errors
}

export interface ControlRuleInput {
  name: string
  description: string
  global: boolean
  application_id: string | null
  parameters: JsonObject
  enabled: boolean
}

/**
 * The parameters the form's choices make, over those it kept: incompatible_roles and inactivity_threshold when checked
 * and complete. A half-made choice is left out: the preview evaluates only what is stated, validation stops a save.
 */
export function formParameters(values: ControlRuleFormValues): JsonObject {
  const parameters: JsonObject = { ...values.otherParameters }
  const roles = [...new Set(pickedRoles(values))]
  if (values.checksRoles && roles.length >= 2) parameters.incompatible_roles = roles
  const days = thresholdDays(values.threshold)
  if (values.checksInactivity && days !== null) parameters.inactivity_threshold = days
  return parameters
}

/** Call only once validateControlRuleForm found nothing. A global rule sends application_id null. */
export function toControlRuleInput(values: ControlRuleFormValues): ControlRuleInput {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    global: values.global,
    application_id: values.global ? null : values.application_id,
    parameters: formParameters(values),
    enabled: values.enabled,
  }
}

/** A saved rule in the form: its parameters in the pickers, what they cannot show kept aside and explained. */
export function controlRuleToForm(rule: ControlRuleRow): ControlRuleFormValues {
  const read = readRuleParameters(rule.parameters)
  return {
    name: rule.name,
    description: rule.description ?? '',
    global: rule.global,
    application_id: rule.application_id ?? '',
    checksRoles: read.roles !== null,
    roles: read.roles === null ? ['', ''] : read.roles.length >= 2 ? read.roles : [...read.roles, ''].slice(0, 2),
    checksInactivity: read.threshold !== null,
    threshold: read.threshold === null ? '90' : String(read.threshold),
    otherParameters: read.other,
    notes: read.notes,
    enabled: rule.enabled,
  }
}

export const scopeLabel = (rule: Pick<ControlRuleRow, 'global'>) => (rule.global ? 'Globale' : 'Application')
export const statusLabel = (rule: Pick<ControlRuleRow, 'enabled'>) => (rule.enabled ? 'Active' : 'Inactive')
