import type { IncomingMessage } from 'node:http'
import { decodeUtf8, header, parseJson } from '../http'
import type { Accept, EmbedPath, PlanOption, Preferences, QueryParams } from './ast'
import { errors, pgrstError } from './errors'
import { parseColumnList, parseFilterValue, parseLogicTree, parseOrder, parseSelect, parseTreePath } from './grammar'

// From the raw request (query string and headers) to the request AST. Nothing here knows the schema.

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** application/x-www-form-urlencoded decoding as PostgREST does it: `+` is a space, stray `%` stays as it is. */
function decodeQueryComponent(text: string): string {
  if (!/[%+]/.test(text)) return text
  const bytes: number[] = []
  const encoder = new TextEncoder()
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (ch === '+') bytes.push(0x20)
    else if (ch === '%' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      const code = text.codePointAt(i)!
      const char = String.fromCodePoint(code)
      bytes.push(...encoder.encode(char))
      i += char.length - 1
    }
  }
  try {
    return strictUtf8.decode(new Uint8Array(bytes))
  } catch {
    throw pgrstError(400, 'PGRST100', 'Invalid UTF-8 in the query string')
  }
}

/** Query parameters in order, without those that have no `=` (PostgREST ignores them). */
function queryPairs(search: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (const part of search.replace(/^\?/, '').split('&')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    pairs.push([decodeQueryComponent(part.slice(0, eq)), decodeQueryComponent(part.slice(eq + 1))])
  }
  return pairs
}

const EMBEDDABLE = ['order', 'limit', 'offset', 'and', 'or']

function keyPath(key: string): string[] {
  const { path, field } = parseTreePath(key, false)
  return [...path, field.name]
}

function parseInteger(value: string): number | undefined {
  return /^-?[0-9]{1,15}$/.test(value.trim()) ? Number(value.trim()) : undefined
}

/**
 * Parses every query parameter. `isRpcRead` (GET or HEAD on /rpc/…): a parameter without an operator is an
 * argument of the function rather than a filter.
 */
export function parseQueryParams(search: string, isRpcRead: boolean): QueryParams {
  const params: QueryParams = { select: [{ type: 'star' }], filters: [], logic: [], order: [], ranges: [], rpcArgs: new Map() }
  const seen = new Set<string>()
  const ranges = new Map<string, { path: EmbedPath; limit?: number; offset?: number }>()

  for (const [key, value] of queryPairs(search)) {
    // The gateway takes the API key from the query string and hides it from PostgREST.
    if (key === 'apikey') continue
    if (key === 'select' || key === 'columns' || key === 'on_conflict') {
      if (seen.has(key)) continue
      seen.add(key)
      if (key === 'select') params.select = parseSelect(value)
      else if (key === 'columns') params.columns = parseColumnList(value, 'columns parameter')
      else params.onConflict = parseColumnList(value, 'on_conflict parameter')
      continue
    }
    const last = key.slice(key.lastIndexOf('.') + 1)
    if (EMBEDDABLE.includes(last)) {
      const segments = keyPath(key)
      if (last === 'and' || last === 'or') {
        const negate = segments.slice(0, -1).includes('not')
        const path = segments.slice(0, -1).filter((segment) => segment !== 'not')
        params.logic.push({ path, tree: parseLogicTree(negate ? `not.${last}` : last, value) })
        continue
      }
      const path = segments.slice(0, -1)
      const id = JSON.stringify(path)
      if (last === 'order') {
        if (seen.has(`order ${id}`)) continue
        seen.add(`order ${id}`)
        params.order.push({ path, terms: parseOrder(value) })
        continue
      }
      const range = ranges.get(id) ?? { path }
      const number = parseInteger(value)
      // PostgREST ignores a limit or offset that is not a number.
      if (number !== undefined) {
        if (last === 'limit') range.limit ??= number
        else range.offset ??= number
      }
      ranges.set(id, range)
      continue
    }
    const { path, field } = parseTreePath(key, true)
    if (isRpcRead) {
      let expression: ReturnType<typeof parseFilterValue> | undefined
      try {
        expression = parseFilterValue(value)
      } catch {
        expression = undefined
      }
      if (!expression) {
        params.rpcArgs.set(key, [...(params.rpcArgs.get(key) ?? []), value])
        continue
      }
      params.filters.push({ path, filter: { field, ...expression } })
      continue
    }
    params.filters.push({ path, filter: { field, ...parseFilterValue(value) } })
  }

  for (const range of ranges.values()) {
    if (range.limit !== undefined && range.limit < 0) throw errors.invalidRange('Limit should be greater than or equal to zero.')
    if (range.offset !== undefined && range.offset < 0) throw errors.invalidRange('Offset should be greater than or equal to zero.')
    params.ranges.push(range)
  }
  return params
}

/** The `Range: 0-9` request header, as an offset and a limit. */
export function parseRangeHeader(value: string | undefined): { offset: number; limit?: number } | undefined {
  const match = /^\s*(?:items=)?([0-9]+)-([0-9]*)\s*$/.exec(value ?? '')
  if (!match) return undefined
  const lower = Number(match[1])
  if (match[2] === '') return { offset: lower }
  const upper = Number(match[2])
  if (upper < lower) throw errors.invalidRange('The lower boundary must be lower than or equal to the upper boundary in the Range header.')
  return { offset: lower, limit: upper - lower + 1 }
}

const KNOWN_PREFERENCES: Record<string, (value: string) => boolean> = {
  return: (v) => ['representation', 'minimal', 'headers-only'].includes(v),
  count: (v) => ['exact', 'planned', 'estimated'].includes(v),
  resolution: (v) => ['merge-duplicates', 'ignore-duplicates'].includes(v),
  missing: (v) => ['default', 'null'].includes(v),
  handling: (v) => ['strict', 'lenient'].includes(v),
  tx: (v) => ['commit', 'rollback'].includes(v),
  'max-affected': (v) => /^[0-9]{1,15}$/.test(v),
  timezone: (v) => v !== '',
}

/** The Prefer header(s). The first value given for a preference wins; unknown ones are refused only with handling=strict. */
export function parsePreferences(header: string | undefined): Preferences {
  const prefs: Preferences = {}
  const invalid: string[] = []
  const tokens = (header ?? '')
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean)
  const raw = new Map<string, string>()
  for (const token of tokens) {
    const eq = token.indexOf('=')
    const name = (eq < 0 ? token : token.slice(0, eq)).trim()
    const value = eq < 0 ? '' : token.slice(eq + 1).trim()
    const valid = KNOWN_PREFERENCES[name]?.(value) ?? false
    if (!valid) {
      invalid.push(token)
      continue
    }
    if (!raw.has(name)) raw.set(name, value)
  }
  if (raw.has('return')) prefs.return = raw.get('return') as Preferences['return']
  if (raw.has('count')) prefs.count = raw.get('count') as Preferences['count']
  if (raw.has('resolution')) prefs.resolution = raw.get('resolution') as Preferences['resolution']
  if (raw.has('missing')) prefs.missing = raw.get('missing') as Preferences['missing']
  if (raw.has('handling')) prefs.handling = raw.get('handling') as Preferences['handling']
  if (raw.has('tx')) prefs.tx = raw.get('tx') as Preferences['tx']
  if (raw.has('max-affected')) prefs.maxAffected = Number(raw.get('max-affected'))
  if (raw.has('timezone')) prefs.timezone = raw.get('timezone')
  if (prefs.handling === 'strict' && invalid.length > 0) throw errors.invalidPreferences(invalid)
  return prefs
}

/** Splits a header list on commas outside double quotes. */
function splitList(value: string): string[] {
  const parts: string[] = []
  let current = ''
  let quoted = false
  for (const ch of value) {
    if (ch === '"') quoted = !quoted
    if (ch === ',' && !quoted) {
      parts.push(current)
      current = ''
    } else current += ch
  }
  parts.push(current)
  return parts.map((part) => part.trim()).filter(Boolean)
}

interface MediaRange {
  type: string
  params: Map<string, string>
  q: number
  index: number
}

function parseMediaRanges(header: string): MediaRange[] {
  return splitList(header)
    .map((raw, index) => {
      const [type = '', ...rest] = raw.split(';').map((part) => part.trim())
      const params = new Map<string, string>()
      for (const param of rest) {
        const eq = param.indexOf('=')
        if (eq > 0) params.set(param.slice(0, eq).trim().toLowerCase(), param.slice(eq + 1).trim().replace(/^"|"$/g, ''))
      }
      const q = Number(params.get('q') ?? '1')
      return { type: type.toLowerCase(), params, q: Number.isFinite(q) ? q : 0, index }
    })
    .filter((range) => range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
}

const PLAN_OPTIONS: PlanOption[] = ['analyze', 'verbose', 'settings', 'buffers', 'wal']

/** `application/vnd.pgrst.plan[+json|+text]; for="…"; options=analyze|verbose`, or undefined for another media. */
function planRange(range: MediaRange): Accept | undefined {
  const format = { 'application/vnd.pgrst.plan': 'text', 'application/vnd.pgrst.plan+text': 'text', 'application/vnd.pgrst.plan+json': 'json' }[range.type]
  if (format !== 'json' && format !== 'text') return undefined
  const media = { 'application/json': 'json', 'application/vnd.pgrst.object+json': 'object', 'text/csv': 'csv' }[range.params.get('for') ?? 'application/json']
  const options = (range.params.get('options') ?? '').split('|').filter(Boolean)
  if ((media !== 'json' && media !== 'object' && media !== 'csv') || !options.every((option) => PLAN_OPTIONS.includes(option as PlanOption))) return undefined
  return { media, stripNulls: false, plan: { format, options: options as PlanOption[] } }
}

/**
 * Content negotiation on Accept. JSON arrays, single objects (vnd.pgrst.object), CSV, and the stripped-nulls
 * variants are offered; EXPLAIN plans only when `planEnabled` (PostgREST's db-plan-enabled, off on Supabase).
 * `root`: the OpenAPI endpoint.
 */
export function negotiate(header: string | undefined, root = false, planEnabled = false): Accept {
  if (!header || header.trim() === '') return { media: root ? 'openapi' : 'json', stripNulls: false }
  const ranges = parseMediaRanges(header)
  for (const range of ranges) {
    const stripNulls = range.params.get('nulls') === 'stripped'
    if (root) {
      if (['*/*', 'application/*', 'application/json', 'application/openapi+json'].includes(range.type)) return { media: 'openapi', stripNulls: false }
      continue
    }
    const plan = planEnabled ? planRange(range) : undefined
    if (plan) return plan
    switch (range.type) {
      case '*/*':
      case 'application/*':
      case 'application/json':
        return { media: 'json', stripNulls: false }
      case 'application/vnd.pgrst.array+json':
      case 'application/vnd.pgrst.array':
        return { media: 'json', stripNulls }
      case 'application/vnd.pgrst.object+json':
      case 'application/vnd.pgrst.object':
        return { media: 'object', stripNulls }
      case 'text/csv':
        return { media: 'csv', stripNulls: false }
    }
  }
  throw errors.mediaType(splitList(header))
}

/** The schema Accept-Profile (reads) or Content-Profile (writes) names, among those exposed; the first by default. */
export function chooseSchema(value: string | undefined, exposed: string[]): string {
  if (value === undefined) return exposed[0]!
  if (!exposed.includes(value.trim())) throw errors.unacceptableSchema(value, exposed)
  return value.trim()
}

/** Deeper payloads are refused before they reach JSON.stringify and Postgres' JSON parser, both recursive. */
const MAX_BODY_DEPTH = 512

function nestingDepth(value: unknown): number {
  let deepest = 0
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!
    if (current === null || typeof current !== 'object') continue
    deepest = Math.max(deepest, depth)
    if (deepest > MAX_BODY_DEPTH) return deepest
    for (const child of Object.values(current)) stack.push([child, depth + 1])
  }
  return deepest
}

/**
 * The payload of a write or a call: JSON, or a form (an object of strings, as PostgREST reads it).
 * `optional`: an empty body is allowed (a function called without arguments) and is undefined.
 */
export function parseBody(req: IncomingMessage, bytes: Buffer, optional: boolean): unknown {
  const type = (header(req, 'content-type') ?? 'application/json').split(';')[0]!.trim().toLowerCase()
  const text = decodeUtf8(bytes)
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(text))
  if (!['application/json', '*/*', '', 'application/vnd.pgrst.object+json', 'application/vnd.pgrst.object'].includes(type)) {
    throw errors.unsupportedContentType(type)
  }
  const value = parseJson(text)
  if (value === undefined && !optional) throw errors.invalidBody('Empty or invalid json')
  if (nestingDepth(value) > MAX_BODY_DEPTH) throw errors.invalidBody('Empty or invalid json', `JSON nested deeper than ${MAX_BODY_DEPTH} levels`)
  return value
}
