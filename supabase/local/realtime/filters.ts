import type { Column } from './catalog'
import { ident } from './capture'

/**
 * A postgres_changes filter as realtime-js writes it: `column=op.value` conditions joined by commas (all must
 * hold), each optionally negated with `not.`, values double-quoted PostgREST-style when they contain `,()"\`.
 */
export interface Condition {
  column: string
  op: Operator
  negate: boolean
  values: string[]
}

const OPERATORS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'in', 'like', 'ilike', 'is', 'match', 'imatch', 'isdistinct'] as const
type Operator = (typeof OPERATORS)[number]

const COMPARISONS: Partial<Record<Operator, string>> = { eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' }
const PATTERNS: Partial<Record<Operator, string>> = { like: 'like', ilike: 'ilike', match: '~', imatch: '~*' }
const IS_VALUES = ['null', 'true', 'false', 'unknown']

// Bounds on what one binding may ask the database to evaluate for every change of its table.
const MAX_CONDITIONS = 20
const MAX_IN_VALUES = 100
const MAX_FILTER_LENGTH = 4096

export class FilterError extends Error {}

/** Splits on commas that are outside double quotes and parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = []
  let depth = 0
  let quoted = false
  let current = ''
  for (let i = 0; i < text.length; i++) {
    const char = text[i]
    if (quoted) {
      current += char
      if (char === '\\' && i + 1 < text.length) current += text[++i]
      else if (char === '"') quoted = false
    } else if (char === '"') {
      quoted = true
      current += char
    } else if (char === '(') {
      depth++
      current += char
    } else if (char === ')') {
      depth--
      current += char
    } else if (char === ',' && depth === 0) {
      parts.push(current)
      current = ''
    } else {
      current += char
    }
  }
  if (quoted || depth !== 0) throw new FilterError('unbalanced quotes or parentheses')
  parts.push(current)
  return parts
}

function unquote(value: string): string {
  if (!value.startsWith('"')) return value
  if (value.length < 2 || !value.endsWith('"')) throw new FilterError(`badly quoted value ${value}`)
  return value.slice(1, -1).replace(/\\(.)/g, '$1')
}

export function parseFilter(filter: string): Condition[] {
  if (filter.length > MAX_FILTER_LENGTH) throw new FilterError('filter too long')
  const parts = splitTopLevel(filter)
  if (parts.length > MAX_CONDITIONS) throw new FilterError('too many conditions')
  return parts.map((part) => {
    const equals = part.indexOf('=')
    if (equals <= 0) throw new FilterError(`expected column=operator.value, got ${part}`)
    const column = part.slice(0, equals)
    let rest = part.slice(equals + 1)
    const negate = rest.startsWith('not.')
    if (negate) rest = rest.slice(4)
    const dot = rest.indexOf('.')
    const op = (dot < 0 ? rest : rest.slice(0, dot)) as Operator
    if (!OPERATORS.includes(op) || dot < 0) throw new FilterError(`unknown operator in ${part}`)
    const raw = rest.slice(dot + 1)
    if (op === 'in') {
      if (!raw.startsWith('(') || !raw.endsWith(')')) throw new FilterError(`in expects (a,b,…), got ${raw}`)
      const values = splitTopLevel(raw.slice(1, -1)).map(unquote)
      if (values.length === 0 || values.length > MAX_IN_VALUES) throw new FilterError('in expects 1 to 100 values')
      return { column, op, negate, values }
    }
    if (op === 'is' && !IS_VALUES.includes(raw.toLowerCase())) throw new FilterError(`is expects null, true, false or unknown`)
    return { column, op, negate, values: [unquote(raw)] }
  })
}

/**
 * SQL that is true when a row, aliased `r`, satisfies every condition. Column names and types come from the
 * catalog; filter values go in only as bound parameters, appended to `params`.
 */
export function compileConditions(conditions: Condition[], columns: Column[], params: unknown[]): string {
  const parts = conditions.map((condition) => {
    const column = columns.find((candidate) => candidate.name === condition.column)
    if (!column) throw new FilterError(`column ${condition.column} does not exist`)
    const ref = `r.${ident(column.name)}`
    const bind = (value: string, cast?: string) => {
      params.push(value)
      return cast ? `$${params.length}::${cast}` : `$${params.length}`
    }
    const [first = ''] = condition.values
    let sql: string
    const comparison = COMPARISONS[condition.op]
    const pattern = PATTERNS[condition.op]
    if (comparison) {
      sql = `${ref} ${comparison} ${bind(first, column.cast)}`
    } else if (pattern) {
      // PostgREST's `*` wildcard, which realtime-js users carry over from their REST filters.
      const value = condition.op === 'like' || condition.op === 'ilike' ? first.replace(/\*/g, '%') : first
      sql = `${ref}::text ${pattern} ${bind(value)}`
    } else if (condition.op === 'in') {
      sql = `${ref} in (${condition.values.map((value) => bind(value, column.cast)).join(', ')})`
    } else if (condition.op === 'is') {
      sql = `${ref} is ${first.toLowerCase()}`
    } else {
      sql = `${ref} is distinct from ${bind(first, column.cast)}`
    }
    return condition.negate ? `not (${sql})` : `(${sql})`
  })
  return `coalesce(${parts.join(' and ')}, false)`
}
