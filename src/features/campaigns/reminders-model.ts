/**
 * A campaign's reminder days (days before its end date) and escalation delay (days after the day after it), the rules
 * private.check_campaign_reminders applies in the database, said in French before anything is sent.
 */
import { formatDate } from '@/lib/dates'
import { countText } from '@/domain/plural'

export const MAX_REMINDERS = 10
export const MAX_REMINDER_DAY = 365
export const MAX_ESCALATION_DELAY = 30
export const DEFAULT_REMINDER_DAYS: readonly number[] = [7, 3, 1]

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const INTEGER = /^\d+$/

export const REMINDER_MESSAGES = {
  dayInvalid: `Indiquez un nombre entier de jours, de 1 à ${MAX_REMINDER_DAY}.`,
  tooMany: `${MAX_REMINDERS} rappels au plus : retirez-en un avant d'en ajouter.`,
  delayInvalid: `Le délai d'escalade est un nombre entier de jours, de 0 à ${MAX_ESCALATION_DELAY}.`,
  dayTwice: (day: number) => `Un rappel ${countText(day, 'jour', 'jours')} avant la fin est déjà prévu.`,
  beforeStart: (day: number, length: number) =>
    length === 0
      ? `La campagne commence et finit le même jour : le rappel ${countText(day, 'jour', 'jours')} avant la fin tomberait avant son début.`
      : `Le rappel ${countText(day, 'jour', 'jours')} avant la fin tomberait avant le début de la campagne : ${countText(length, 'jour', 'jours')} au plus.`,
} as const

const DAY_MS = 86_400_000

/** A yyyy-MM-dd day as a count of days (calendar arithmetic, whatever the time zone), or NaN. */
const dayNumber = (isoDate: string) => (ISO_DATE.test(isoDate) ? Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS : Number.NaN)

/** The yyyy-MM-dd day `days` days after the given one. */
const shiftDay = (isoDate: string, days: number) => new Date((dayNumber(isoDate) + days) * DAY_MS).toISOString().slice(0, 10)

/** Days from the start date to the end date, or null while either is not a valid date in order. */
export function campaignLength(startDate: string, endDate: string): number | null {
  const length = dayNumber(endDate) - dayNumber(startDate)
  return Number.isNaN(length) || length < 0 ? null : length
}

/** A typed day, or null when it is not a whole number. */
export function parseReminderDay(text: string): number | null {
  const trimmed = text.trim()
  return INTEGER.test(trimmed) ? Number(trimmed) : null
}

/** What is wrong with adding `day` to `days` for a campaign of `length` days (null: unknown yet), or null. */
export function reminderDayProblem(day: number | null, days: readonly number[], length: number | null): string | null {
  if (day === null || day < 1 || day > MAX_REMINDER_DAY) return REMINDER_MESSAGES.dayInvalid
  if (days.includes(day)) return REMINDER_MESSAGES.dayTwice(day)
  if (days.length >= MAX_REMINDERS) return REMINDER_MESSAGES.tooMany
  if (length !== null && day > length) return REMINDER_MESSAGES.beforeStart(day, length)
  return null
}

/**
 * The whole list's first problem, checked at submit. A day longer than the campaign is not one: the pass never sends
 * it, and refusing it would refuse the default days of every campaign shorter than a week.
 */
export function reminderDaysError(days: readonly number[]): string | undefined {
  if (days.length > MAX_REMINDERS) return REMINDER_MESSAGES.tooMany
  for (const [index, day] of days.entries()) {
    const problem = reminderDayProblem(day, days.slice(0, index), null)
    if (problem && problem !== REMINDER_MESSAGES.tooMany) return problem
  }
  return undefined
}

/** The delay as typed, or null when it is not a whole number of days from 0 to 30. */
export function parseEscalationDelay(text: string): number | null {
  const trimmed = text.trim()
  if (!INTEGER.test(trimmed)) return null
  const delay = Number(trimmed)
  return delay <= MAX_ESCALATION_DELAY ? delay : null
}

/** Largest first, as the reminders come: the earliest before the end date first. */
export const sortReminderDays = (days: readonly number[]) => [...days].sort((a, b) => b - a)

/** The day a reminder goes, yyyy-MM-dd. */
export const reminderDay = (endDate: string, day: number) => shiftDay(endDate, -day)

/** The day the escalation goes: the day after the end date, plus the delay. */
export const escalationDate = (endDate: string, delay: number) => formatDate(shiftDay(endDate, 1 + delay))

/** A campaign's e-mail settings in a line: « Rappels 7, 3 et 1 jours avant la fin · escalade le lendemain ». */
export function remindersSummary(settings: { remindersEnabled: boolean; reminderDays: readonly number[]; escalationDelayDays: number }): string {
  const days = sortReminderDays(settings.reminderDays)
  const reminders =
    !settings.remindersEnabled || days.length === 0
      ? 'Sans rappel'
      : `Rappels ${frenchList(days.map(String))} ${days.length === 1 && days[0] === 1 ? 'jour' : 'jours'} avant la fin`
  const escalation =
    settings.escalationDelayDays === 0 ? 'escalade le lendemain' : `escalade ${countText(settings.escalationDelayDays + 1, 'jour', 'jours')} après`
  return `${reminders} · ${escalation}`
}

/** The reminder days in a few characters for the list's row, « J-7 J-3 J-1 »: the escalation is in the sentence. */
export function remindersShortText(settings: { remindersEnabled: boolean; reminderDays: readonly number[] }): string {
  const days = sortReminderDays(settings.reminderDays)
  return !settings.remindersEnabled || days.length === 0 ? 'Sans rappel' : days.map((day) => `J-${day}`).join(' ')
}

function frenchList(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} et ${items.at(-1)}`
}
