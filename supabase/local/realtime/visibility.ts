import type { Database, Sql } from '../database'
import type { Claims } from '../keys'
import type { ChangeRow } from './capture'
import type { Catalog, TableInfo } from './catalog'
import type { Binding } from './channel'
import { ident } from './capture'
import { compileConditions } from './filters'

export interface Candidate {
  change: ChangeRow
  info: TableInfo
  /** The subscriber's bindings on this change that carry a filter. */
  filtered: Binding[]
}

/** For one change: undefined when the subscriber may not read it, else the filtered bindings it satisfies. */
export type Verdict = Set<Binding> | undefined

/**
 * Which changes the subscriber may read, decided by the database as that subscriber: one read-only
 * transaction under their role and JWT claims, set transaction-locally as the REST layer sets them, so that
 * grants and policies (auth.uid(), the role predicates) apply exactly as to the subscriber's own queries.
 *
 * The row checked is the change's own row (the new row of an INSERT or UPDATE, the old row of a DELETE),
 * selected as the subscriber from a one-row relation named like the table and filtered by the table's SELECT
 * policies for their role. Supabase's Realtime instead re-selects the row from the table by primary key when
 * it decodes the change, and skips RLS for deletes (sending their primary key to every subscriber). Checking
 * the change's own values means that:
 * - a change is delivered only if the subscriber could read the row as that change left it: a row that later
 *   becomes visible to someone does not reveal its earlier contents to them, and a change is not lost
 *   because the row was updated or deleted again before delivery;
 * - a DELETE reaches only those who could read the row just before it went, and still carries only its
 *   primary key. A policy that depends on other rows removed in the same transaction (a cascade) fails
 *   closed: the delete is not delivered.
 *
 * A change the subscriber may read is then matched against their bindings' filters, in the same transaction and
 * as the same role: a filter never runs on a row its subscriber may not read, nor with more rights than theirs.
 *
 * Each check runs in its own savepoint, so a policy or filter that raises hides that change only.
 */
export async function visibleChanges(db: Database, catalog: Catalog, claims: Claims, candidates: Candidate[]): Promise<Verdict[]> {
  const role = claims.role
  const bypass = await catalog.bypassesRls(role)
  const policies = new Map<string, string>()
  for (const { info } of candidates) {
    if (policies.has(info.name)) continue
    policies.set(info.name, info.rowSecurity && !bypass ? await catalog.selectPolicy(info, role) : 'true')
  }
  return db.transaction(async (tx) => {
    await tx.query('set transaction read only')
    await tx.query(
      `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('statement_timeout', '5s', true)`,
      [role, JSON.stringify(claims)],
    )
    const privileged = new Map<string, boolean>()
    const results: Verdict[] = []
    for (const { change, info, filtered } of candidates) {
      let allowed = privileged.get(info.name)
      if (allowed === undefined) {
        const { rows } = await tx.query<{ ok: boolean }>(`select has_table_privilege($1::oid, 'SELECT') as ok`, [info.oid])
        allowed = rows[0]?.ok === true
        privileged.set(info.name, allowed)
      }
      const row = change.op === 'DELETE' ? change.oldRecord : change.record
      if (!allowed || !row) {
        results.push(undefined)
        continue
      }
      await tx.query('savepoint realtime_visibility')
      try {
        const { rows } = await tx.query<{ visible: boolean }>(
          `select exists (select 1 from jsonb_populate_record(null::${info.name}, $1::jsonb) as ${ident(info.table)}
                           where ${policies.get(info.name) ?? 'false'}) as visible`,
          [JSON.stringify(row)],
        )
        const verdict = rows[0]?.visible === true ? await passedFilters(tx, info, row, filtered) : undefined
        await tx.query('release savepoint realtime_visibility')
        results.push(verdict)
      } catch {
        await tx.query('rollback to savepoint realtime_visibility')
        results.push(undefined)
      }
    }
    return results
  })
}

/** The bindings whose filter the row satisfies, evaluated in one statement over the row. */
async function passedFilters(tx: Sql, info: TableInfo, row: Record<string, unknown>, filtered: Binding[]): Promise<Set<Binding>> {
  if (filtered.length === 0) return new Set()
  const params: unknown[] = [JSON.stringify(row)]
  const columns = filtered.map((binding, i) => `${compileConditions(binding.conditions, info.columns, params)} as m${i}`)
  const { rows } = await tx.query<Record<string, boolean>>(
    `select ${columns.join(', ')} from jsonb_populate_record(null::${info.name}, $1::jsonb) as r`,
    params,
  )
  return new Set(filtered.filter((_, i) => rows[0]?.[`m${i}`] === true))
}
