import type { Database } from '../database'
import { forgetChanges, readChanges, type ChangeRow } from './capture'
import type { Catalog, TableInfo } from './catalog'
import type { Binding, Channel, Hub } from './channel'
import { visibleChanges, type Verdict } from './visibility'

// A large transaction is read and delivered in pages, so memory stays bounded whatever its size.
const PAGE_SIZE = 200

interface Match {
  channel: Channel
  bindings: Binding[]
}

interface Routed {
  change: ChangeRow
  info: TableInfo
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
 * match and whose subscriber may read the row. Work per change is one visibility check per distinct subscriber
 * token, which also evaluates that subscriber's filters, as them; sockets are only written to (never awaited),
 * so a slow or dead socket cannot hold up the others.
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
      const matches = this.route(change)
      if (matches.length > 0) routed.push({ change, info, matches })
    }

    const byToken = new Map<string, { channel: Channel; indexes: Map<number, Set<Binding>> }>()
    routed.forEach((entry, index) => {
      for (const { channel, bindings } of entry.matches) {
        const group = byToken.get(channel.token) ?? { channel, indexes: new Map<number, Set<Binding>>() }
        const filtered = group.indexes.get(index) ?? new Set<Binding>()
        for (const binding of bindings) if (binding.conditions.length > 0) filtered.add(binding)
        group.indexes.set(index, filtered)
        byToken.set(channel.token, group)
      }
    })
    const verdicts = new Map<string, Map<number, Verdict>>()
    for (const [token, { channel, indexes }] of byToken) {
      const entries = [...indexes]
      try {
        const results = await visibleChanges(
          this.db,
          this.catalog,
          channel.claims,
          entries.map(([index, filtered]) => ({ ...(routed[index] as Routed), filtered: [...filtered] })),
        )
        verdicts.set(token, new Map(entries.map(([index], i) => [index, results[i]])))
      } catch (error) {
        // One subscriber's failing check withholds these changes from that subscriber only.
        console.warn('[realtime] visibility check failed:', (error as Error).message)
      }
    }

    routed.forEach((entry, index) => {
      for (const { channel, bindings } of entry.matches) {
        const passed = verdicts.get(channel.token)?.get(index)
        if (!channel.open || !channel.authorized || !passed) continue
        const bySelect = new Map<string, Binding[]>()
        for (const binding of bindings) {
          if (binding.conditions.length > 0 && !passed.has(binding)) continue
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

  /** The channels, and which of their bindings, a change matches by event, schema and table (filters come later). */
  private route(change: ChangeRow): Match[] {
    const candidates: Match[] = []
    for (const channel of this.hub.listening()) {
      if (!channel.authorized) continue
      const bindings = channel.bindings.filter((binding) => bindingMatches(binding, change))
      if (bindings.length > 0) candidates.push({ channel, bindings })
    }
    return candidates
  }
}
