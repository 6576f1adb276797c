import { format, isValid, parseISO } from 'date-fns'
import { fr } from 'date-fns/locale/fr'

/** French calendar conventions for every date-fns call that deals with weeks. */
export const FRENCH_DATE_OPTIONS = { locale: fr, weekStartsOn: 1 } as const

type DateInput = string | number | Date | null | undefined

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null
  const date = typeof value === 'string' ? parseISO(value) : new Date(value)
  return isValid(date) ? date : null
}

/** '05 mars 2025'; `fallback` when there is no valid date. */
export function formatDate(value: DateInput, fallback = '-'): string {
  const date = toDate(value)
  return date ? format(date, 'dd MMMM yyyy', FRENCH_DATE_OPTIONS) : fallback
}

/** A right's last use (SPEC §2): its date, or 'Jamais' when it was never used. */
export function lastUseText(value: DateInput): string {
  return formatDate(value, 'Jamais')
}

/** '05 mars 2025 à 14:30'; `fallback` when there is no valid date. */
export function formatDateTime(value: DateInput, fallback = '-'): string {
  const date = toDate(value)
  return date ? format(date, "dd MMMM yyyy 'à' HH:mm", FRENCH_DATE_OPTIONS) : fallback
}
