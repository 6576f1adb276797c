import type { Accept, Preferences } from './ast'
import { errors } from './errors'
import type { Column, Table } from './schema'

// The pieces of PostgREST's answers (src/PostgREST/Response.hs, RangeQuery.hs): Content-Range, statuses,
// Preference-Applied, Location.

export interface RestResponse {
  status: number
  headers: Record<string, string>
  body: string
}

export const CONTENT_TYPES: Record<Accept['media'], string> = {
  json: 'application/json; charset=utf-8',
  object: 'application/vnd.pgrst.object+json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  openapi: 'application/openapi+json; charset=utf-8',
}

/** `lower-upper/total`, with `*` for an empty range and for an unknown total. */
export function contentRange(lower: number, upper: number, total: number | undefined): string {
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*'
  return `${range}/${total ?? '*'}`
}

/**
 * The answer to a read of `rows` rows from `offset`: 206 when a known total is larger than the page, 416 (with
 * PostgREST's PGRST103 body) when the offset is past the end; without a count, always 200.
 */
export function pageResponse(options: {
  rows: number
  offset: number
  total: number | undefined
  body: string
  media: Accept['media']
  headers: Record<string, string>
}): RestResponse {
  const { rows, offset, total } = options
  const upper = offset + rows - 1
  const headers = { ...options.headers, 'Content-Range': contentRange(offset, upper, total) }
  if (total !== undefined && offset > total) {
    const error = errors.invalidRange(`An offset of ${offset} was requested, but there are only ${total} rows.`)
    return { status: 416, headers: { ...headers, 'Content-Type': CONTENT_TYPES.json }, body: JSON.stringify(error.body) }
  }
  const status = total !== undefined && rows < total ? 206 : 200
  return { status, headers: { ...headers, 'Content-Type': CONTENT_TYPES[options.media] }, body: options.body }
}

export function singularityResponse(rows: number): RestResponse {
  const error = errors.singularity(rows)
  return { status: error.status, headers: { 'Content-Type': CONTENT_TYPES.json }, body: JSON.stringify(error.body) }
}

/** Preference-Applied: the preferences this request honoured. Some only apply to some actions. */
export function preferenceApplied(
  method: string,
  prefs: Preferences,
  applies: { resolution?: boolean; missing?: boolean; maxAffected?: boolean } = {},
): Record<string, string> {
  const applied: string[] = []
  // In PostgREST's order (Preferences.hs).
  if (applies.resolution && prefs.resolution) applied.push(`resolution=${prefs.resolution}`)
  if (applies.missing && prefs.missing) applied.push(`missing=${prefs.missing}`)
  if (method !== 'GET' && method !== 'HEAD' && prefs.return) applied.push(`return=${prefs.return}`)
  if (prefs.count) applied.push(`count=${prefs.count}`)
  if (prefs.tx) applied.push(`tx=${prefs.tx}`)
  if (prefs.handling) applied.push(`handling=${prefs.handling}`)
  if (prefs.timezone) applied.push(`timezone=${prefs.timezone}`)
  if (applies.maxAffected && prefs.maxAffected !== undefined) applied.push(`max-affected=${prefs.maxAffected}`)
  return applied.length > 0 ? { 'Preference-Applied': applied.join(', ') } : {}
}

/** Location of a single inserted row: its primary key as eq filters. `values`: JSON array of key value arrays. */
export function locationFor(table: Table, primaryKey: Column[], values: string | null): string | undefined {
  if (!values || primaryKey.length === 0) return undefined
  const rows = JSON.parse(values) as string[][] | null
  if (!rows || rows.length !== 1) return undefined
  const query = primaryKey.map((column, i) => `${encodeURIComponent(column.name)}=eq.${encodeURIComponent(rows[0]![i] ?? '')}`).join('&')
  return `/${encodeURIComponent(table.name)}?${query}`
}
