/** The control rules page's data and SPEC §5's form rules, with SPEC §8's messages. Pure: no Supabase here. */
import { z } from 'zod'

export type JsonObject = { [key: string]: unknown }

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
  /** The parameters as the person types them: JSON text. */
  parameters: string
  enabled: boolean
}

export const EMPTY_CONTROL_RULE_FORM: ControlRuleFormValues = {
  name: '',
  description: '',
  global: true,
  application_id: '',
  parameters: '{}',
  enabled: true,
}

export const CONTROL_MESSAGES = {
  nameRequired: 'Le nom de la règle est obligatoire.',
  applicationRequired: "L'application est obligatoire pour une règle non globale.",
  invalidJson: 'Paramètres JSON invalides',
  notObject: 'Les paramètres doivent être un objet JSON, par exemple {"inactivity_threshold": 90}.',
  invalidThreshold: 'Le seuil d\'inactivité (inactivity_threshold) doit être un nombre positif.',
  deleteConfirm: (name: string) => `Êtes-vous sûr de vouloir supprimer la règle ${name} ? Cette action est irréversible.`,
} as const

export type ParametersResult = { ok: true; value: JsonObject } | { ok: false; message: string }

/** Parses the parameters text (required: blank is invalid JSON): a JSON object, whose inactivity_threshold, if any, is a positive number. */
export function parseParameters(text: string): ParametersResult {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { ok: false, message: CONTROL_MESSAGES.invalidJson }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, message: CONTROL_MESSAGES.notObject }
  const value = parsed as JsonObject
  if (Object.hasOwn(value, 'inactivity_threshold')) {
    const threshold = value.inactivity_threshold
    if (typeof threshold !== 'number' || !Number.isFinite(threshold) || threshold <= 0) {
      return { ok: false, message: CONTROL_MESSAGES.invalidThreshold }
    }
  }
  return { ok: true, value }
}

const formSchema = z
  .object({
    name: z.string().trim().min(1, CONTROL_MESSAGES.nameRequired).max(200),
    description: z.string().max(2000),
    global: z.boolean(),
    application_id: z.string(),
    parameters: z.string(),
    enabled: z.boolean(),
  })
  .superRefine((values, context) => {
    if (!values.global && values.application_id === '') {
      context.addIssue({ code: 'custom', path: ['application_id'], message: CONTROL_MESSAGES.applicationRequired })
    }
    const parameters = parseParameters(values.parameters)
    if (!parameters.ok) context.addIssue({ code: 'custom', path: ['parameters'], message: parameters.message })
  })

export type ControlRuleFormErrors = Partial<Record<keyof ControlRuleFormValues, string>>

export function validateControlRuleForm(values: ControlRuleFormValues): ControlRuleFormErrors {
  const result = formSchema.safeParse(values)
  if (result.success) return {}
  const errors: ControlRuleFormErrors = {}
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof ControlRuleFormValues
    errors[field] ??= issue.message
  }
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

/** Call only once validateControlRuleForm found nothing. A global rule sends application_id null. */
export function toControlRuleInput(values: ControlRuleFormValues): ControlRuleInput {
  const parameters = parseParameters(values.parameters)
  if (!parameters.ok) throw new Error(parameters.message)
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    global: values.global,
    application_id: values.global ? null : values.application_id,
    parameters: parameters.value,
    enabled: values.enabled,
  }
}

export function formatParameters(parameters: unknown): string {
  return JSON.stringify(parameters ?? {}, null, 2)
}

export function controlRuleToForm(rule: ControlRuleRow): ControlRuleFormValues {
  return {
    name: rule.name,
    description: rule.description ?? '',
    global: rule.global,
    application_id: rule.application_id ?? '',
    parameters: formatParameters(rule.parameters),
    enabled: rule.enabled,
  }
}

export const scopeLabel = (rule: Pick<ControlRuleRow, 'global'>) => (rule.global ? 'Globale' : 'Application')
export const statusLabel = (rule: Pick<ControlRuleRow, 'enabled'>) => (rule.enabled ? 'Active' : 'Inactive')
