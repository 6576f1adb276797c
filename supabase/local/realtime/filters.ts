import type { Column } from './catalog'
import { ident } from './capture'

/**
 * A postgres_changes filter as realtime-js writes it: `column=op.value` conditions joined by commas (all must
 * hold), each optionally negated with `not.`, values double-quoted PostgREST-style when they contain `,()"\`.
 * Only Supabase Realtime's operators: comparisons and `in`, which cost the database next to nothing per change
 * (no pattern a subscriber could make slow).
 */
export interface Condition {
  column: string
  op: Operator
  negate: boolean
  values: string[]
}

const COMPARISONS = { eq: '=', neq: '<>', lt: '<', lte: '<=', gt: '>', gte: '>=' } as const
type Operator = keyof typeof COMPARISONS | 'in'
const isOperator = (op: string): op is Operator => op === 'in' || Object.hasOwn(COMPARISONS, op)

// Bounds on what one binding may ask the database to evaluate for every change of its table.
const MAX_CONDITIONS = 20
const MAX_IN_VALUES = 100
const MAX_FILTER_LENGTH = 4096

/** A filter Realtime would not parse; the message is the reason Realtime gives after `Error parsing \`filter\` params: `. */
export class FilterError extends Error {}

/** Elixir's inspect of a list of strings, which Realtime puts in its parse errors: ["foo", "hey"]. */
const inspectList = (parts: string[]) => `[${parts.map((part) => JSON.stringify(part)).join(', ')}]`

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
      depth = Math.max(0, depth - 1)
      current += char
    } else if (char === ',' && depth === 0) {
      parts.push(current)
      current = ''
    } else {
      current += char
    }
  }
  if (quoted) throw new FilterError('unbalanced quotes')
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
  if (filter.trim() === '') return []
  const parts = splitTopLevel(filter.trim())
  if (parts.length > MAX_CONDITIONS) throw new FilterError('too many conditions')
  return parts.map(parseCondition)
}

function parseCondition(segment: string): Condition {
  const part = segment.trim()
  if (part === '') throw new FilterError('filter must not contain empty segments (check for extra commas)')
  const equals = part.indexOf('=')
  if (equals < 0) throw new FilterError(inspectList([part]))
  const column = part.slice(0, equals)
  let rest = part.slice(equals + 1)
  const negate = rest.startsWith('not.')
  if (negate) rest = rest.slice(4)
  const dot = rest.indexOf('.')
  if (dot < 0) throw new FilterError(inspectList([rest]))
  const op = rest.slice(0, dot)
  const raw = rest.slice(dot + 1)
  if (!isOperator(op)) throw new FilterError(inspectList([op, raw]))
  if (op === 'in') {
    if (raw.length < 2 || !raw.startsWith('(') || !raw.endsWith(')')) throw new FilterError('`in` filter value must be wrapped by parentheses')
    const values = raw === '()' ? [] : splitTopLevel(raw.slice(1, -1)).map(unquote)
    if (values.length > MAX_IN_VALUES) throw new FilterError(`\`in\` filter takes at most ${MAX_IN_VALUES} values`)
    return { column, op, negate, values }
  }
  return { column, op, negate, values: [unquote(raw)] }
}

/**
 * SQL that is true when a row, aliased `alias`, satisfies every condition. Column names and types come from the
 * catalog; filter values go in only as bound parameters, appended to `params`.
 */
export function compileConditions(conditions: Condition[], columns: Column[], params: unknown[], alias = 'r'): string {
  const parts = conditions.map((condition) => {
    const column = columns.find((candidate) => candidate.name === condition.column)
    if (!column) throw new FilterError(`column ${condition.column} does not exist`)
    const ref = `${ident(alias)}.${ident(column.name)}`
    const bind = (value: string) => {
      params.push(value)
      return `$${params.length}::${column.cast}`
    }
    const sql =
      condition.op === 'in'
        ? condition.values.length === 0
          ? 'false'
          : `${ref} in (${condition.values.map(bind).join(', ')})`
        : `${ref} ${COMPARISONS[condition.op]} ${bind(condition.values[0] ?? '')}`
    return condition.negate ? `not (${sql})` : `(${sql})`
  })
  return parts.length === 0 ? 'true' : `coalesce(${parts.join(' and ')}, false)`
}
