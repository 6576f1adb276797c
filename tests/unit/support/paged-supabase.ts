import type { SupabaseClient } from '@supabase/supabase-js'
import { API_PAGE_SIZE } from '@/lib/paging'

type Row = Record<string, unknown>

/** One table read as the API saw it: the order asked for and the range, if any. */
export interface TableRead {
  table: string
  orders: string[]
  range: [number, number] | null
}

/**
 * Just enough of supabase-js's query builder over in-memory tables to read lists: select, order, in, range. Like
 * the real API it never answers more than 1000 rows at once, so a list read in one request stops there. The rows
 * are served in the order given; `reads` says what each request asked for.
 */
export function createPagedSupabase(tables: Record<string, Row[]>) {
  const reads: TableRead[] = []
  const client = {
    from(table: string) {
      if (!(table in tables)) throw new Error(`unexpected table ${table}`)
      const read: TableRead = { table, orders: [], range: null }
      reads.push(read)
      let rows = tables[table]!
      const builder = {
        select: () => builder,
        overrideTypes: () => builder,
        order(column: string, options?: { ascending?: boolean }) {
          read.orders.push(`${column}.${options?.ascending === false ? 'desc' : 'asc'}`)
          return builder
        },
        in(column: string, values: readonly unknown[]) {
          rows = rows.filter((row) => values.includes(row[column]))
          return builder
        },
        range(from: number, to: number) {
          read.range = [from, to]
          return builder
        },
        then<T>(resolve: (value: { data: Row[]; error: null }) => T, reject?: (reason: unknown) => T) {
          const [from, to] = read.range ?? [0, API_PAGE_SIZE - 1]
          const data = rows.slice(from, Math.min(to + 1, from + API_PAGE_SIZE))
          return Promise.resolve({ data, error: null }).then(resolve, reject)
        },
      }
      return builder
    },
  }
  return { client: client as unknown as SupabaseClient, reads }
}
