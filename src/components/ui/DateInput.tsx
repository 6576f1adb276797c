import { useState } from 'react'
import { format, isValid, parse } from 'date-fns'
import { fr } from 'date-fns/locale/fr'
import { TextInput } from './TextInput'

const FRENCH_PATTERN = 'dd/MM/yyyy'
const ISO_PATTERN = 'yyyy-MM-dd'
// A day and month of one or two digits, a four-digit year, separated as people type them.
const FRENCH_SHAPE = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/
// An ISO date pasted from a spreadsheet or another tool is read too.
const ISO_SHAPE = /^\d{4}-\d{2}-\d{2}$/

type Reading = { iso: string } | { error: string } | null

/** What a typed text means: an ISO day, a French error, or nothing (an empty field). */
export function readFrenchDate(text: string): Reading {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const [, day = '', month = '', year = ''] = FRENCH_SHAPE.exec(trimmed) ?? []
  const [normalised, pattern] = year
    ? [`${day.padStart(2, '0')}/${month.padStart(2, '0')}/${year}`, FRENCH_PATTERN]
    : ISO_SHAPE.test(trimmed)
      ? [trimmed, ISO_PATTERN]
      : [null, null]
  if (normalised === null) return { error: `« ${trimmed} » n'est pas une date : saisissez-la au format jj/mm/aaaa.` }
  const date = parse(normalised, pattern, new Date(), { locale: fr })
  // date-fns refuses a day the month does not have (31/02) rather than rolling it over to the next month.
  if (!isValid(date)) return { error: `La date « ${trimmed} » n'existe pas : vérifiez le jour et le mois.` }
  return { iso: format(date, ISO_PATTERN) }
}

/** An ISO day as the field shows it (jj/mm/aaaa); '' for no date. */
export function frenchDateText(iso: string): string {
  if (iso === '') return ''
  const date = parse(iso, ISO_PATTERN, new Date())
  return isValid(date) ? format(date, FRENCH_PATTERN, { locale: fr }) : iso
}

export interface DateInputProps {
  label: string
  /** 'yyyy-MM-dd', or '' for no date. */
  value: string
  /** Called with 'yyyy-MM-dd', or '' while the text is empty or not a date. */
  onChange: (iso: string) => void
  error?: string | null
  help?: string
  required?: boolean
  disabled?: boolean
  className?: string
  id?: string
}

/**
 * A date typed and shown as jj/mm/aaaa, whatever the browser's language (the native date field shows mm/dd/yyyy in an
 * English browser); the form receives an ISO day. An impossible or malformed date is explained once the field is left.
 */
export function DateInput({ label, value, onChange, error, help, required, disabled, className, id }: DateInputProps) {
  // `value` is the ISO day this text last meant; a different value from the form (a reset) replaces the text.
  const [field, setField] = useState({ value, text: frenchDateText(value), left: false })
  if (field.value !== value) setField({ value, text: frenchDateText(value), left: false })

  const reading = readFrenchDate(field.text)
  const ownError = field.left && reading !== null && 'error' in reading ? reading.error : null

  return (
    <TextInput
      id={id}
      label={label}
      className={className}
      required={required}
      disabled={disabled}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder="jj/mm/aaaa"
      maxLength={10}
      value={field.text}
      error={ownError ?? error}
      help={help}
      onChange={(event) => {
        const text = event.target.value
        const read = readFrenchDate(text)
        const iso = read !== null && 'iso' in read ? read.iso : ''
        setField({ value: iso, text, left: false })
        if (iso !== value) onChange(iso)
      }}
      onBlur={() => {
        // A valid date is shown the one way (01/02/2026 for 1/2/2026 or 2026-02-01).
        setField((current) => ({ ...current, text: reading !== null && 'iso' in reading ? frenchDateText(reading.iso) : current.text, left: true }))
      }}
    />
  )
}
