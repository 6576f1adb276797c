import { fr } from 'date-fns/locale/fr'

/** French calendar conventions for every date-fns call that deals with weeks. */
export const FRENCH_DATE_OPTIONS = { locale: fr, weekStartsOn: 1 } as const

const twoDigits = (value: number) => (value < 10 ? `0${value}` : String(value))

type DateInput = string | number | Date | null | undefined

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/**
 * A date as the API writes it: a day ('2025-03-05', that day at local midnight, as date-fns's parseISO reads it) or an
 * ISO timestamp with its offset (Postgres's '2025-03-05 14:30:00+00' too). Read natively rather than by parseISO and
 * format, which bring their formatters and the English locale into every page that shows a date.
 */
function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null
  const date = typeof value === 'string' ? parseApiDate(value) : new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

export function parseApiDate(text: string): Date {
  const day = ISO_DAY.exec(text)
  if (day) return new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]))
  // 'YYYY-MM-DD hh:mm:ss+00' (Postgres) → 'YYYY-MM-DDThh:mm:ss+00:00' (ECMAScript's date time string format).
  return new Date(text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'))
}

/** The local calendar day of a date, as the API takes days: '2025-03-05'. */
export function isoDay(date: Date): string {
  return `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`
}

/** The date as French forms and files write it in figures: '05/03/2025'. */
export function numericDate(date: Date): string {
  return `${twoDigits(date.getDate())}/${twoDigits(date.getMonth() + 1)}/${date.getFullYear()}`
}

/** 'mars 2025': the month's name from date-fns's French locale. */
const monthAndYear = (date: Date) => `${fr.localize.month(date.getMonth() as never, { width: 'wide' })} ${date.getFullYear()}`

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
    text = `${frenchDayOfMonth(date.getDate())} ${monthAndYear(date)}`
    if (dayTexts.size >= DAY_TEXTS_LIMIT) dayTexts.clear()
    dayTexts.set(key, text)
  }
  return text
}

/** '1er' for the first of a month, as French writes it; the number otherwise. */
export const frenchDayOfMonth = (day: number): string => (day === 1 ? '1er' : String(day))


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
