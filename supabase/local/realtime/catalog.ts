import type { Database } from '../database'
import { qualified } from './capture'

export interface Column {
  name: string
  /** The type's name as Realtime reports it in `columns` (pg_type.typname: int8, timestamptz, _text…). */
  type: string
  /** A fully qualified type usable in a cast, from the catalog (never from a client). */
  cast: string
}

export interface TableInfo {
  oid: number
  schema: string
  table: string
  /** The quoted, schema-qualified name. */
  name: string
  columns: Column[]
  primaryKey: string[]
  rowSecurity: boolean
}

// Schema changes are rare while the server runs; a short cache keeps each change's lookups off the catalog.
const TTL_MS = 30_000

interface Cached<T> {
  value: T
  at: number
}

/** Table shapes and row-level security policies, read with an empty search_path so every name comes out qualified. */
export class Catalog {
  private readonly tables = new Map<string, Cached<TableInfo | undefined>>()
  private readonly policies = new Map<string, Cached<string>>()
  private readonly bypass = new Map<string, Cached<boolean>>()

  constructor(private readonly db: Database) {}

  async table(schema: string, table: string, fresh = false): Promise<TableInfo | undefined> {
    const key = `${schema}.${table}`
    const cached = this.tables.get(key)
    if (!fresh && cached && Date.now() - cached.at < TTL_MS) return cached.value
    const value = await this.loadTable(schema, table)
    this.tables.set(key, { value, at: Date.now() })
    return value
  }

  /**
   * The condition under which `role` may select a row of the table, as SQL over a row aliased with the table's
   * own name: the table's SELECT policies for that role, permissive ones or-ed and restrictive ones and-ed, as
   * Postgres combines them. 'false' when no permissive policy applies (row-level security denies by default).
   */
  async selectPolicy(info: TableInfo, role: string): Promise<string> {
    const key = `${info.name}:${role}`
    const cached = this.policies.get(key)
    if (cached && Date.now() - cached.at < TTL_MS) return cached.value
    const rows = await this.db.transaction(async (tx) => {
      await tx.query(`select set_config('search_path', '', true)`)
      const { rows } = await tx.query<{ permissive: boolean; qual: string | null }>(
        `select p.polpermissive as permissive, pg_get_expr(p.polqual, p.polrelid) as qual
           from pg_policy p
          where p.polrelid = $1::regclass
            and p.polcmd in ('r', '*')
            and ('0'::oid = any (p.polroles)
                 or exists (select 1 from unnest(p.polroles) as r (oid) where pg_has_role($2, r.oid, 'MEMBER')))
          order by p.polname`,
        [info.name, role],
      )
      return rows
    })
    // A policy without USING grants no row (Postgres ignores it for reads): fail closed.
    const permissive = rows.filter((row) => row.permissive).map((row) => `(${row.qual ?? 'false'})`)
    const restrictive = rows.filter((row) => !row.permissive).map((row) => `(${row.qual ?? 'false'})`)
    const value = permissive.length === 0 ? 'false' : [`(${permissive.join(' or ')})`, ...restrictive].join(' and ')
    this.policies.set(key, { value, at: Date.now() })
    return value
  }

  /** Whether the role skips row-level security (service_role does). */
  async bypassesRls(role: string): Promise<boolean> {
    const cached = this.bypass.get(role)
    if (cached && Date.now() - cached.at < TTL_MS) return cached.value
    const { rows } = await this.db.query<{ bypass: boolean }>('select rolbypassrls or rolsuper as bypass from pg_roles where rolname = $1', [role])
    const value = rows[0]?.bypass === true
    this.bypass.set(role, { value, at: Date.now() })
    return value
  }

  private async loadTable(schema: string, table: string): Promise<TableInfo | undefined> {
    const rows = await this.db.transaction(async (tx) => {
      await tx.query(`select set_config('search_path', '', true)`)
      const { rows } = await tx.query<{ oid: number; columns: Column[]; primary_key: string[]; row_security: boolean }>(
        `select c.oid::int8 as oid, c.relrowsecurity as row_security,
                (select coalesce(json_agg(json_build_object('name', a.attname, 'type', t.typname,
                                                            'cast', pg_catalog.format_type(a.atttypid, null))
                                          order by a.attnum), '[]'::json)
                   from pg_attribute a join pg_type t on t.oid = a.atttypid
                  where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
                (select coalesce(json_agg(a.attname order by array_position(i.indkey::int2[], a.attnum)), '[]'::json)
                   from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
                  where i.indrelid = c.oid and i.indisprimary) as primary_key
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p')`,
        [schema, table],
      )
      return rows
    })
    const row = rows[0]
    if (!row) return undefined
    return {
      oid: Number(row.oid),
      schema,
      table,
      name: qualified(schema, table),
      columns: row.columns,
      primaryKey: row.primary_key,
      rowSecurity: row.row_security,
    }
  }
}
