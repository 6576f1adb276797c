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

/**
 * The French day of a date ('5 mars 2025', '1er mars 2025': the first of a month is written as an ordinal), formatted by
 * date-fns once per calendar day: exports and the evidence pack
 * write hundreds of thousands of dates, mostly on a few hundred days, and date-fns's format takes microseconds a call.
 */
const dayTexts = new Map<number, string>()
const DAY_TEXTS_LIMIT = 20_000

const dayKey = (date: Date) => date.getFullYear() * 10_000 + date.getMonth() * 100 + date.getDate()

function dayText(date: Date): string {
  const key = dayKey(date)
  let text = dayTexts.get(key)
  if (text === undefined) {
    text = `${frenchDayOfMonth(date.getDate())} ${format(date, 'MMMM yyyy', FRENCH_DATE_OPTIONS)}`
    if (dayTexts.size >= DAY_TEXTS_LIMIT) dayTexts.clear()
    dayTexts.set(key, text)
  }
  return text
}

/** '1er' for the first of a month, as French writes it; the number otherwise. */
export const frenchDayOfMonth = (day: number): string => (day === 1 ? '1er' : String(day))

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value))

/** '5 mars 2025', '1er mars 2025'; `fallback` when there is no valid date. */
export function formatDate(value: DateInput, fallback = '-'): string {
  const date = toDate(value)
  return date ? dayText(date) : fallback
}

/** A right's last use (SPEC §2): its date, or 'Jamais' when it was never used. */
export function lastUseText(value: DateInput): string {
  return formatDate(value, 'Jamais')
}

/**
 * The texts of the local minutes met last: an evidence pack writes a time for each of hundreds of thousands of
 * decisions, and handing back the same text for the same minute spares making it, and hashing it again where it is
 * looked up. Keyed by the local calendar fields, like dayTexts, so that the text never depends on the zone it was
 * first made in.
 */
const minuteTexts = new Map<number, string>()
const MINUTE_TEXTS_LIMIT = 50_000

/** '5 mars 2025 à 14:30', '1er mars 2025 à 09:05'; `fallback` when there is no valid date. */
export function formatDateTime(value: DateInput, fallback = '-'): string {
  const date = toDate(value)
  if (!date) return fallback
  const hours = date.getHours()
  const minutes = date.getMinutes()
  const key = dayKey(date) * 10_000 + hours * 100 + minutes
  let text = minuteTexts.get(key)
  if (text === undefined) {
    text = `${dayText(date)} à ${twoDigits(hours)}:${twoDigits(minutes)}`
    if (minuteTexts.size >= MINUTE_TEXTS_LIMIT) minuteTexts.clear()
    minuteTexts.set(key, text)
  }
  return text
}
