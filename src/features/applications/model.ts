/** The applications page's data and SPEC §5's form rules, with SPEC §8's messages. Pure: no Supabase here. */
import { z } from 'zod'
import { firstMessageByField } from '@/lib/field-errors'

export interface PersonName {
  first_name: string
  last_name: string
}

export interface ApplicationRow {
  id: string
  name: string
  description: string
  ra_id: string
  bpo_metier_id: string
  bpo_groupe_id: string | null
  rssi_id: string | null
  created_at: string
  updated_at: string
  ra: PersonName | null
  bpo_metier: PersonName | null
  bpo_groupe: PersonName | null
  rssi: PersonName | null
}

/** A person who can be chosen as an owner. */
export interface OwnerChoice {
  id: string
  first_name: string
  last_name: string
  role: string
}

export interface ApplicationOwnerChoices {
  ra: OwnerChoice[]
  bpo_metier: OwnerChoice[]
  bpo_groupe: OwnerChoice[]
  rssi: OwnerChoice[]
}

/** The form's values: '' stands for "nobody chosen". */
export interface ApplicationFormValues {
  name: string
  description: string
  ra_id: string
  bpo_metier_id: string
  bpo_groupe_id: string
  rssi_id: string
}

export const EMPTY_APPLICATION_FORM: ApplicationFormValues = {
  name: '',
  description: '',
  ra_id: '',
  bpo_metier_id: '',
  bpo_groupe_id: '',
  rssi_id: '',
}

export const APPLICATION_MESSAGES = {
  nameRequired: "Le nom de l'application est obligatoire.",
  raRequired: "Le Responsable d'Application est obligatoire.",
  bpoMetierRequired: 'Le BPO Métier est obligatoire.',
  deleteConfirm: (name: string) =>
    `Êtes-vous sûr de vouloir supprimer l'application ${name} ? Cette action est irréversible : les droits et les contrôles de l'application seront également supprimés.`,
} as const

const applicationFormSchema = z.object({
  name: z.string().trim().min(1, APPLICATION_MESSAGES.nameRequired).max(200),
  description: z.string().max(2000),
  ra_id: z.string().min(1, APPLICATION_MESSAGES.raRequired),
  bpo_metier_id: z.string().min(1, APPLICATION_MESSAGES.bpoMetierRequired),
  bpo_groupe_id: z.string(),
  rssi_id: z.string(),
})

export type ApplicationFormErrors = Partial<Record<keyof ApplicationFormValues, string>>

/** Field errors, empty when the form may be sent. */
export function validateApplicationForm(values: ApplicationFormValues): ApplicationFormErrors {
  const result = applicationFormSchema.safeParse(values)
  return result.success ? {} : firstMessageByField(result.error.issues)
}

/** The RPC arguments: trimmed name; an empty optional owner is left out, which the RPC reads as none. */
export interface ApplicationInput {
  name: string
  description: string
  ra_id: string
  bpo_metier_id: string
  bpo_groupe_id?: string
  rssi_id?: string
}

export function toApplicationInput(values: ApplicationFormValues): ApplicationInput {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    ra_id: values.ra_id,
    bpo_metier_id: values.bpo_metier_id,
    bpo_groupe_id: values.bpo_groupe_id || undefined,
    rssi_id: values.rssi_id || undefined,
  }
}

export function applicationToForm(application: ApplicationRow): ApplicationFormValues {
  return {
    name: application.name,
    description: application.description ?? '',
    ra_id: application.ra_id,
    bpo_metier_id: application.bpo_metier_id,
    bpo_groupe_id: application.bpo_groupe_id ?? '',
    rssi_id: application.rssi_id ?? '',
  }
}

/** 'Prénom Nom', or '-' when nobody is set. */
export function personName(person: PersonName | null | undefined): string {
  if (!person) return '-'
  const name = [person.first_name, person.last_name].filter(Boolean).join(' ').trim()
  return name || '-'
}

/** Owner choices grouped by the role each field requires, sorted by name. */
export function groupOwnerChoices(users: OwnerChoice[]): ApplicationOwnerChoices {
  const sorted = [...users].sort((a, b) => personName(a).localeCompare(personName(b), 'fr'))
  return {
    ra: sorted.filter((user) => user.role === 'ra'),
    bpo_metier: sorted.filter((user) => user.role === 'bpo_metier'),
    bpo_groupe: sorted.filter((user) => user.role === 'bpo_groupe'),
    rssi: sorted.filter((user) => user.role === 'rssi'),
  }
}
