/**
 * The authority check's share of a decision: the database's time in private.decision_authority against its whole
 * time for the decision (validate_user_right, and the live updates its commit sends). A decision is allowed the
 * check's cost: the decision budgets take it off their round trips (budgets.ts).
 *
 * Managers approve items of their own queue one after another, alone, on the bench's database once its backend has
 * stopped (PostgreSQL), or on a copy of the large dataset opened in this process (PGlite). The times come from
 * PostgreSQL's function statistics (track_functions), read before and after.
 */
import { openPostgres, type Database } from '../../../supabase/local/database'
import { openLargeDatasetPglite } from '../../../supabase/local/dataset'
import { round } from '../support/stats'

export interface AuthorityResult {
  backend: 'postgres' | 'pglite'
  decisions: number
  /** validate_user_right and the commit's live updates, per decision. */
  databaseMsPerDecision: number
  /** private.decision_authority, with everything it calls, per decision. */
  authorityMsPerDecision: number
  /** authority ÷ database. */
  share: number
}

const WARMUP = 30
const DECISIONS = 200
const MEASURED = ['public.validate_user_right', 'private.send_pending_announcements', 'private.decision_authority']

interface Item {
  right_id: string
  manager_id: string
}

/** Items a manager may approve: waiting at the manager's stage of an active campaign, never answered by them. */
async function managerItems(db: Database, count: number): Promise<Item[]> {
  const { rows } = await db.query<Item>(
    `select i.right_id::text as right_id, i.manager_id::text as manager_id
       from public.campaign_items i
       join public.campaigns c on c.id = i.campaign_id and c.status = 'active'
       join public.users m on m.id = i.manager_id and m.active and m.role = 'manager'
      where i.status in ('pending', 'validated_user') and i.manager_id <> i.holder_id
        and not exists (select 1 from public.right_decisions d where d.right_id = i.right_id and d.decided_by = i.manager_id)
      limit $1`,
    [count],
  )
  return rows
}

/** One decision as the item's manager, in one transaction, as the API runs it. */
async function approve(db: Database, item: Item): Promise<void> {
  const claims = JSON.stringify({ sub: item.manager_id, role: 'authenticated', aal: 'aal1' })
  await db.transaction(async (tx) => {
    await tx.query(`select set_config('request.jwt.claims', $1, true), set_config('role', 'authenticated', true)`, [claims])
    await tx.query(`select public.validate_user_right($1::uuid, 'validated_manager')`, [item.right_id])
  })
}

/** The functions' total times so far, in ms, with what this session has not yet reported made visible. */
async function functionTimes(db: Database): Promise<Map<string, number>> {
  await db.query(`select pg_stat_force_next_flush()`)
  await db.query(`select pg_stat_clear_snapshot()`)
  const { rows } = await db.query<{ name: string; total: number }>(
    `select schemaname || '.' || funcname as name, total_time::float8 as total from pg_stat_user_functions
      where schemaname || '.' || funcname = any ($1)`,
    [MEASURED],
  )
  return new Map(rows.map((row) => [row.name, row.total]))
}

export async function measureAuthorityShare(options: { databaseUrl?: string; scale?: number; seed?: number }): Promise<AuthorityResult> {
  const backend = options.databaseUrl ? 'postgres' : 'pglite'
  // One connection: track_functions is set for the session that decides.
  const db = options.databaseUrl
    ? openPostgres(options.databaseUrl, 1)
    : (await openLargeDatasetPglite({ scale: options.scale, seed: options.seed })).db
  try {
    await db.exec(`set track_functions = 'pl'`)
    const items = await managerItems(db, WARMUP + DECISIONS)
    if (items.length < WARMUP + 10) throw new Error(`only ${items.length} items a manager may approve`)
    for (const item of items.slice(0, WARMUP)) await approve(db, item)
    const before = await functionTimes(db)
    const timed = items.slice(WARMUP)
    for (const item of timed) await approve(db, item)
    const after = await functionTimes(db)
    const spent = (name: string) => ((after.get(name) ?? 0) - (before.get(name) ?? 0)) / timed.length
    const database = spent('public.validate_user_right') + spent('private.send_pending_announcements')
    const authority = spent('private.decision_authority')
    if (!(database > 0)) throw new Error('no function statistics: is track_functions allowed here?')
    return {
      backend,
      decisions: timed.length,
      databaseMsPerDecision: round(database, 2),
      authorityMsPerDecision: round(authority, 2),
      share: round(authority / database, 3),
    }
  } finally {
    await db.close()
  }
}
