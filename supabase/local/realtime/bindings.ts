import type { Database } from '../database'
import type { Catalog } from './catalog'
import type { Binding, ChangeEvent } from './channel'
import { FilterError, compileConditions, parseFilter } from './filters'

const EVENTS: ReadonlyArray<ChangeEvent | '*'> = ['*', 'INSERT', 'UPDATE', 'DELETE']

// Realtime's max_channels_per_client bounds joins; this bounds what one join may bind.
const MAX_BINDINGS = 100

/** Realtime's binding id: a stable hash of the binding's parameters (it uses :erlang.phash2). */
function bindingId(params: Record<string, unknown>): number {
  let hash = 0x811c9dc5
  for (const char of JSON.stringify(params)) {
    hash ^= char.codePointAt(0) ?? 0
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash % 2 ** 27
}

export type PreparedBindings = { ok: true; bindings: Binding[] } | { ok: false; message: string }

class InvalidBinding extends Error {}

/**
 * Validates a join's postgres_changes bindings against the catalog, as Realtime does when it creates the
 * subscription: an unknown table or column, an unknown operator or a value the column's type rejects makes
 * the whole subscription fail. Each filter is run once on an empty row so that type and operator errors
 * surface now rather than on the first change.
 */
export async function prepareBindings(db: Database, catalog: Catalog, raw: unknown): Promise<PreparedBindings> {
  if (raw === undefined || raw === null) return { ok: true, bindings: [] }
  const list = Array.isArray(raw) ? raw : [raw]
  if (list.length > MAX_BINDINGS) return { ok: false, message: `Too many postgres_changes bindings (max ${MAX_BINDINGS})` }
  const bindings: Binding[] = []
  for (const params of list) {
    try {
      bindings.push(await prepareBinding(db, catalog, params))
    } catch (error) {
      if (error instanceof FilterError) return { ok: false, message: `Error parsing \`filter\` params: ${error.message}` }
      if (!(error instanceof InvalidBinding)) throw error
      return { ok: false, message: describeFailure(params, error.message) }
    }
  }
  return { ok: true, bindings }
}

function describeFailure(params: unknown, reason: string): string {
  const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>
  const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value ?? null))
  return (
    'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ' +
    `[event: ${show(p.event)}, schema: ${show(p.schema)}, table: ${show(p.table)}, filters: [${show(p.filter ?? '')}]] (${reason})`
  )
}

async function prepareBinding(db: Database, catalog: Catalog, params: unknown): Promise<Binding> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw new InvalidBinding('a binding must be an object')
  const p = params as Record<string, unknown>
  const event = typeof p.event === 'string' ? (p.event.toUpperCase() as ChangeEvent | '*') : undefined
  if (!event || !EVENTS.includes(event)) throw new InvalidBinding('event must be *, INSERT, UPDATE or DELETE')
  if (typeof p.schema !== 'string' || p.schema === '') throw new InvalidBinding('schema is required')
  if (p.table !== undefined && p.table !== null && typeof p.table !== 'string') throw new InvalidBinding('table must be a string')
  if (p.filter !== undefined && p.filter !== null && typeof p.filter !== 'string') throw new InvalidBinding('filter must be a string')
  const schema = p.schema
  const table = typeof p.table === 'string' && p.table !== '' && p.table !== '*' ? p.table : undefined
  const filter = typeof p.filter === 'string' && p.filter.trim() !== '' ? p.filter : undefined
  // Realtime parses the filter before it looks at the table: an unsupported operator is refused whatever the table.
  const conditions = filter ? parseFilter(filter) : []
  const select = p.select
  if (select !== undefined && (!Array.isArray(select) || !select.every((column) => typeof column === 'string'))) {
    throw new InvalidBinding('select must be a list of column names')
  }

  const id = bindingId(p)
  const binding: Binding = {
    id,
    echo: { ...p, id },
    event,
    schema,
    table,
    conditions,
    select: select as string[] | undefined,
  }
  if ((filter || select) && (schema === '*' || !table)) throw new InvalidBinding('filter and select need a schema and a table')
  if (!table || schema === '*') return binding

  const info = await catalog.table(schema, table, true)
  if (!info) throw new InvalidBinding(`relation ${schema}.${table} does not exist`)
  const unknown = binding.select?.find((column) => !info.columns.some((candidate) => candidate.name === column))
  if (unknown) throw new InvalidBinding(`column ${unknown} does not exist`)
  if (conditions.length > 0) {
    const values: unknown[] = ['{}']
    let condition: string
    try {
      condition = compileConditions(binding.conditions, info.columns, values)
    } catch (error) {
      throw new InvalidBinding((error as Error).message)
    }
    try {
      await db.query(`select ${condition} as matches from jsonb_populate_record(null::${info.name}, $1::jsonb) as r`, values)
    } catch (error) {
      throw new InvalidBinding((error as Error).message)
    }
  }
  return binding
}
