import { createHash } from 'node:crypto'

// The audit trail's seal recomputed from the rows alone, as an auditor's script would, following the description in
// supabase/migrations/20261121000300_audit.sql and nothing else of the database.

/** One audit row as a client reads it: timestamps as text with any UTC offset, details parsed from JSON. */
export interface SealedRow {
  id: number | string
  timestamp: string
  user_id: string | null
  user_email: string | null
  user_name: string | null
  action: string
  resource_type: string
  resource_id: string | null
  details: unknown
  ip_address: string | null
}

/** A value as PostgreSQL prints jsonb: keys by UTF-8 length then bytewise, ", " and ": " separators. */
export function jsonbText(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>
    const keys = Object.keys(object).sort(
      (a, b) => Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)),
    )
    return `{${keys.map((key) => `${JSON.stringify(key)}: ${jsonbText(object[key])}`).join(', ')}}`
  }
  return JSON.stringify(value)
}

/** "2025-10-07 10:15:00.5+02" or "2025-10-07T08:15:00.5+00:00" → "2025-10-07T08:15:00.500000Z". */
export function utcMicroseconds(timestamp: string): string {
  const match = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(Z|[+-]\d\d(?::?\d\d)?(?::?\d\d)?)$/.exec(timestamp)
  if (!match) throw new Error(`Not a timestamp: ${timestamp}`)
  const [, year, month, day, hour, minute, second, fraction = '', zone] = match
  let offsetSeconds = 0
  if (zone !== 'Z') {
    const [h = '0', m = '0', s = '0'] = zone!.slice(1).match(/\d\d/g)!
    offsetSeconds = (zone!.startsWith('-') ? -1 : 1) * (Number(h) * 3600 + Number(m) * 60 + Number(s))
  }
  const utc = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)) - offsetSeconds * 1000)
  return `${utc.toISOString().slice(0, 19)}.${fraction.padEnd(6, '0')}Z`
}

/** The row's canonical text: the JSON array the hash covers. */
export function canonicalText(row: SealedRow): string {
  return jsonbText([
    Number(row.id),
    utcMicroseconds(row.timestamp),
    row.user_id,
    row.user_email,
    row.user_name,
    row.action,
    row.resource_type,
    row.resource_id,
    row.details,
    row.ip_address,
  ])
}

/** Each row's hash (hex), chained from the first row given, which must be row 1. */
export function chainHashes(rows: SealedRow[]): string[] {
  let previous = Buffer.alloc(0)
  return rows.map((row) => {
    previous = createHash('sha256').update(canonicalText(row), 'utf8').update(previous).digest()
    return previous.toString('hex')
  })
}
