import type { Database } from '../database'
import { forgetChanges, readChanges, type ChangeRow } from './capture'
import type { Catalog, TableInfo } from './catalog'
import type { Binding, Channel, Hub } from './channel'
import { compileConditions } from './filters'
import { visibleChanges, type Candidate } from './visibility'

// A large transaction is read and delivered in pages, so memory stays bounded whatever its size.
const PAGE_SIZE = 200

interface Match {
  channel: Channel
  bindings: Binding[]
}

interface Routed extends Candidate {
  matches: Match[]
}

const pick = (record: Record<string, unknown> | null, columns: readonly string[]) =>
  Object.fromEntries(columns.filter((column) => record && column in record).map((column) => [column, record?.[column]]))

function bindingMatches(binding: Binding, change: ChangeRow): boolean {
  return (
    (binding.event === '*' || binding.event === change.op) &&
    (binding.schema === '*' || binding.schema === change.schema) &&
    (binding.table === undefined || binding.table === change.table)
  )
}

/** The message Supabase's Realtime sends for one change (walrus's shape), restricted to a binding's `select`. */
function changeMessage(change: ChangeRow, info: TableInfo, select: string[] | undefined): Record<string, unknown> {
  const columns = select ? info.columns.filter((column) => select.includes(column.name)) : info.columns
  const names = columns.map((column) => column.name)
  const data: Record<string, unknown> = {
    schema: change.schema,
    table: change.table,
    commit_timestamp: change.capturedAt.toISOString(),
    type: change.op,
    columns: columns.map(({ name, type }) => ({ name, type })),
  }
  if (change.op !== 'DELETE') data.record = pick(change.record, names)
  // Only the primary key of the previous row, as Supabase sends for tables under row-level security.
  if (change.op !== 'INSERT') data.old_record = pick(change.oldRecord, info.primaryKey.filter((key) => names.includes(key)))
  data.errors = null
  return data
}

/**
 * Delivers committed changes, one transaction at a time and in commit order, to the channels whose bindings
 * match and whose subscriber may read the row. Work per change is one filter query per table and one
 * visibility check per distinct subscriber token; sockets are only written to (never awaited), so a slow or
 * dead socket cannot hold up the others.
 */
export class Dispatcher {
  private queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Database,
    private readonly catalog: Catalog,
    private readonly hub: Hub,
  ) {}

  notify(txid: string): void {
    if (!/^\d{1,19}$/.test(txid)) return
    this.queue = this.queue.then(() =>
      this.process(txid).catch((error: unknown) => console.error('[realtime] delivering a change failed:', error)),
    )
  }

  /** Resolves once every notification received so far has been handled. */
  drained(): Promise<void> {
    return this.queue
  }

  private async process(txid: string): Promise<void> {
    try {
      let after = '0'
      while (this.hub.listening().length > 0) {
        const changes = await readChanges(this.db, txid, after, PAGE_SIZE)
        if (changes.length > 0) await this.deliver(changes)
        if (changes.length < PAGE_SIZE) break
        after = changes[changes.length - 1]?.id ?? after
      }
    } finally {
      await forgetChanges(this.db, txid)
    }
  }

  private async deliver(changes: ChangeRow[]): Promise<void> {
    const routed: Routed[] = []
    for (const change of changes) {
      const info = await this.catalog.table(change.schema, change.table)
      if (!info) continue
      const matches = await this.route(change, info)
      if (matches.length > 0) routed.push({ change, info, matches })
    }

    const byToken = new Map<string, { channel: Channel; indexes: number[] }>()
    routed.forEach((entry, index) => {
      for (const { channel } of entry.matches) {
        const group = byToken.get(channel.token) ?? { channel, indexes: [] }
        if (!group.indexes.includes(index)) group.indexes.push(index)
        byToken.set(channel.token, group)
      }
    })
    const visible = new Map<string, Set<number>>()
    for (const [token, { channel, indexes }] of byToken) {
      try {
        const results = await visibleChanges(
          this.db,
          this.catalog,
          channel.claims,
          indexes.map((index) => routed[index] as Routed),
        )
        visible.set(token, new Set(indexes.filter((_, i) => results[i])))
      } catch (error) {
        // One subscriber's failing check withholds these changes from that subscriber only.
        console.warn('[realtime] visibility check failed:', (error as Error).message)
      }
    }

    routed.forEach((entry, index) => {
      for (const { channel, bindings } of entry.matches) {
        if (!channel.open || !channel.authorized || !visible.get(channel.token)?.has(index)) continue
        const bySelect = new Map<string, Binding[]>()
        for (const binding of bindings) {
          const key = JSON.stringify(binding.select ?? null)
          bySelect.set(key, [...(bySelect.get(key) ?? []), binding])
        }
        for (const group of bySelect.values()) {
          const ids = [...new Set(group.map((binding) => binding.id))]
          channel.deliver('postgres_changes', { ids, data: changeMessage(entry.change, entry.info, group[0]?.select) })
        }
      }
    })
  }

  /** The channels, and which of their bindings, a change matches, filters included. */
  private async route(change: ChangeRow, info: TableInfo): Promise<Match[]> {
    const candidates: Match[] = []
    for (const channel of this.hub.listening()) {
      if (!channel.authorized) continue
      const bindings = channel.bindings.filter((binding) => bindingMatches(binding, change))
      if (bindings.length > 0) candidates.push({ channel, bindings })
    }
    const filtered = candidates.flatMap(({ bindings }) => bindings).filter((binding) => binding.conditions.length > 0)
    if (filtered.length === 0) return candidates

    // Realtime filters an INSERT or UPDATE on the new row and a DELETE on the old one.
    const row = change.op === 'DELETE' ? change.oldRecord : change.record
    const params: unknown[] = [JSON.stringify(row ?? {})]
    const unique = [...new Set(filtered)]
    const columns = unique.map((binding, i) => `${compileConditions(binding.conditions, info.columns, params)} as m${i}`)
    let passed = new Set<Binding>()
    try {
      const { rows } = await this.db.query<Record<string, boolean>>(
        `select ${columns.join(', ')} from jsonb_populate_record(null::${info.name}, $1::jsonb) as r`,
        params,
      )
      passed = new Set(unique.filter((_, i) => rows[0]?.[`m${i}`] === true))
    } catch (error) {
      console.warn(`[realtime] filter evaluation failed on ${info.name}:`, (error as Error).message)
    }
    return candidates
      .map(({ channel, bindings }) => ({
        channel,
        bindings: bindings.filter((binding) => binding.conditions.length === 0 || passed.has(binding)),
      }))
      .filter(({ bindings }) => bindings.length > 0)
  }
}
