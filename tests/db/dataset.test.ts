// The large-organisation dataset (supabase/local/dataset), generated at a small scale: the same seed gives the same
// rows and another seed other rows; the counts follow the scale; the data satisfies every constraint although the
// loader bypasses the row triggers; each right's status is what its decisions lead to under ARCHITECTURE §4 (checked
// here independently of the generator's own paths); and the demo accounts sign in to real queues.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openPglite, openPostgres, prepareDatabase, type Database, type PgliteDatabase } from '../../supabase/local/database'
import { datasetCounts, datasetEmail, FULL_SCALE, loadLargeDataset, type DatasetOptions } from '../../supabase/local/dataset'
import { databaseUrlFor } from '../support/global-setup'
import { actAs, demo, type DemoRole } from './support/actors'
import { count, one } from './support/fixtures'
import { DEMO_TOTP_SECRETS } from '@/pages/login/demo-accounts'

const scale = 0.01
const asOf = '2026-11-20'
const counts = datasetCounts(scale)

let empty: Blob
let db: PgliteDatabase
const opened: PgliteDatabase[] = []

/** A fresh database with the migrations and no seed, loaded with the dataset. */
async function generate(options: DatasetOptions): Promise<PgliteDatabase> {
  const fresh = await openPglite({ loadDataDir: empty })
  opened.push(fresh)
  await loadLargeDataset(fresh, { scale, asOf, ...options })
  return fresh
}

/** An md5 per table over every column of every row, in id order. */
async function contentHash(target: Database): Promise<Record<string, string>> {
  const tables = ['public.users', 'auth.users', 'public.applications', 'public.campaigns', 'public.user_rights', 'public.campaign_items', 'public.right_decisions', 'public.audit_logs', 'public.control_rules']
  const hashes: Record<string, string> = {}
  for (const table of tables) {
    const order = table === 'public.control_rules' ? 't.name' : 't.id'
    hashes[table] = (await one<{ h: string }>(target, `select md5(string_agg(t::text, '|' order by ${order})) as h from ${table} t`)).h
  }
  return hashes
}

beforeAll(async () => {
  const base = await openPglite()
  await prepareDatabase(base, { seed: false })
  empty = await base.dump()
  await base.close()
  db = await generate({ seed: 7 })
}, 120_000)

afterAll(async () => {
  for (const each of opened) await each.close()
})

describe('determinism', () => {
  it('gives the same rows for the same seed, and other rows for another seed', async () => {
    const again = await generate({ seed: 7 })
    const other = await generate({ seed: 8 })
    const [first, second, third] = await Promise.all([contentHash(db), contentHash(again), contentHash(other)])
    expect(second).toEqual(first)
    for (const table of ['public.users', 'public.user_rights', 'public.campaign_items', 'public.right_decisions', 'public.audit_logs']) {
      expect(third[table], table).not.toEqual(first[table])
    }
  }, 60_000)

  it.skipIf(!process.env.DATABASE_URL)('gives the same rows on PostgreSQL as on PGlite', async () => {
    const url = process.env.DATABASE_URL as string
    const name = `recertif_dataset_${randomBytes(6).toString('hex')}`
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    await admin.query(`create database ${name}`)
    const postgres = openPostgres(databaseUrlFor(url, name), 2)
    try {
      await prepareDatabase(postgres, { seed: false })
      await loadLargeDataset(postgres, { scale, asOf, seed: 7 })
      expect(await contentHash(postgres)).toEqual(await contentHash(db))
    } finally {
      await postgres.close()
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    }
  }, 60_000)
})

describe('volumes', () => {
  it('follows the scale: full scale is 10,000 people, 200 applications, 300,000 rights, 100,000 audit events', async () => {
    expect(datasetCounts(1)).toMatchObject({ people: 10_000, applications: 200, rights: 300_000, auditEvents: 100_000 })
    expect(counts).toMatchObject({ people: FULL_SCALE.people * scale, rights: FULL_SCALE.rights * scale, auditEvents: FULL_SCALE.auditEvents * scale })
    expect(await count(db, 'select count(*) from public.users')).toBe(counts.people)
    expect(await count(db, 'select count(*) from auth.users')).toBe(counts.people)
    expect(await count(db, 'select count(*) from auth.identities')).toBe(counts.people)
    expect(await count(db, 'select count(*) from public.applications')).toBe(counts.applications)
    expect(await count(db, 'select count(*) from public.user_rights')).toBe(counts.rights)
    expect(await count(db, 'select count(*) from public.audit_logs')).toBe(counts.auditEvents)
    expect(await count(db, 'select count(*) from public.users where role = $1', ['manager'])).toBe(counts.managers)
  })

  it('has 20 campaigns: 3 active, 2 drafts, the rest completed or archived, and one active campaign holding most rights', async () => {
    const { rows } = await db.query<{ status: string; n: number }>('select status::text, count(*)::int as n from public.campaigns group by status')
    expect(Object.fromEntries(rows.map((r) => [r.status, r.n]))).toEqual({ active: 3, draft: 2, completed: 6, archived: 9 })
    const largest = await count(db, `select max(n) from (select count(*) as n from public.user_rights ur
      join public.campaigns c on c.id = ur.campaign_id where c.status = 'active' group by c.id) x`)
    expect(largest).toBeGreaterThan(counts.rights / 3)
    expect(await count(db, `select count(*) from public.user_rights ur join public.campaigns c on c.id = ur.campaign_id where c.status = 'draft'`)).toBe(0)
  })

  it('spreads the last use: never used, within 90 days and beyond, and every account type', async () => {
    const spread = await one<{ never: number; recent: number; old: number; types: number }>(db, `select
      count(*) filter (where last_used_at is null)::int as never,
      count(*) filter (where last_used_at >= $1::timestamptz - interval '90 days')::int as recent,
      count(*) filter (where last_used_at < $1::timestamptz - interval '90 days')::int as old,
      count(distinct account_type)::int as types
      from public.user_rights`, [`${asOf}T00:00:00Z`])
    expect(spread.never / counts.rights).toBeGreaterThan(0.05)
    expect(spread.recent / counts.rights).toBeGreaterThan(0.4)
    expect(spread.old / counts.rights).toBeGreaterThan(0.15)
    expect(spread.types).toBe(6)
    expect(await count(db, `select count(*) from public.audit_logs where "timestamp" < $1::timestamptz - interval '365 days' or "timestamp" >= $1::timestamptz`, [`${asOf}T00:00:00Z`])).toBe(0)
  })
})

describe('integrity', () => {
  it('satisfies every foreign key although the loader bypassed their triggers', async () => {
    const { rows } = await db.query<{ child: string; parent: string; child_cols: string[]; parent_cols: string[] }>(`
      select conrelid::regclass::text as child, confrelid::regclass::text as parent,
        array(select a.attname::text from unnest(conkey) with ordinality k (attnum, ord)
              join pg_attribute a on a.attrelid = conrelid and a.attnum = k.attnum order by k.ord) as child_cols,
        array(select a.attname::text from unnest(confkey) with ordinality k (attnum, ord)
              join pg_attribute a on a.attrelid = confrelid and a.attnum = k.attnum order by k.ord) as parent_cols
      from pg_constraint where contype = 'f' and connamespace in ('public'::regnamespace, 'auth'::regnamespace)`)
    expect(rows.length).toBeGreaterThan(10)
    for (const fk of rows) {
      const present = fk.child_cols.map((c) => `c.${c} is not null`).join(' and ')
      const match = fk.child_cols.map((c, i) => `p.${fk.parent_cols[i]} = c.${c}`).join(' and ')
      const orphans = await count(db, `select count(*) from ${fk.child} c where ${present} and not exists (select 1 from ${fk.parent} p where ${match})`)
      expect(orphans, `${fk.child}(${fk.child_cols.join(', ')}) → ${fk.parent}`).toBe(0)
    }
  })

  it('gives every right of a started campaign its item there, a copy of the right at its status, and every decision its item', async () => {
    const started = await count(db, `select count(*) from public.user_rights ur join public.campaigns c on c.id = ur.campaign_id where c.status <> 'draft'`)
    expect(started).toBeGreaterThan(counts.rights / 2)
    expect(await count(db, 'select count(*) from public.campaign_items')).toBe(started)
    const unfaithful = await count(db, `
      select count(*) from public.campaign_items i
        left join public.user_rights ur on ur.id = i.right_id and ur.campaign_id = i.campaign_id
        left join public.users h on h.id = ur.user_id
        left join public.users m on m.id = h.manager_id
        left join public.applications a on a.id = ur.application_id
       where ur.id is null
          or (i.status, i.holder_id, i.holder_name, i.holder_email, i.role_name, i.account_type, i.granted_at, i.last_used_at, i.justification)
             is distinct from (ur.status, ur.user_id, h.first_name || ' ' || h.last_name, h.email, ur.role_name, ur.account_type, ur.granted_at, ur.last_used_at, ur.justification)
          or (i.manager_id, i.manager_name) is distinct from (m.id, m.first_name || ' ' || m.last_name)
          or (i.application_id, i.application_name, i.ra_id, i.bpo_metier_id, i.bpo_groupe_id, i.rssi_id)
             is distinct from (a.id, a.name, a.ra_id, a.bpo_metier_id, a.bpo_groupe_id, a.rssi_id)`)
    expect(unfaithful).toBe(0)
    expect(await count(db, `select count(*) from public.right_decisions d left join public.campaign_items i on i.id = d.item_id
      where i.id is null or (i.campaign_id, i.right_id) is distinct from (d.campaign_id, d.right_id)`)).toBe(0)
  })

  it('marks the items a completion sent to the RA undecided, and only those, as Terminer does', async () => {
    const refused = `exists (select 1 from public.right_decisions d
                              where d.item_id = i.id and d.decision = 'refused' and d.stage <> 'ra')`
    expect(await count(db, `select count(*) from public.campaign_items i where i.undecided_at_closure`)).toBeGreaterThan(0)
    // Flagged: in a closed campaign, never refused at a review stage, with the RA (treated or not).
    expect(await count(db, `
      select count(*) from public.campaign_items i join public.campaigns c on c.id = i.campaign_id
       where i.undecided_at_closure
         and (c.status not in ('completed', 'archived') or ${refused} or i.status not in ('treatment_required', 'treated'))`)).toBe(0)
    // Not flagged in a closed campaign: approved at the last stage, or refused at some stage.
    expect(await count(db, `
      select count(*) from public.campaign_items i join public.campaigns c on c.id = i.campaign_id
       where not i.undecided_at_closure and c.status in ('completed', 'archived')
         and i.status not in ('validated_bpo_groupe', 'validated_bpo_metier') and not ${refused}`)).toBe(0)
  })

  it('gives every application owners of the matching roles and everyone but the head a manager, 3 to 5 levels down', async () => {
    expect(await count(db, `select count(*) from public.applications a where
      (select role from public.users where id = a.ra_id) <> 'ra'
      or (select role from public.users where id = a.bpo_metier_id) <> 'bpo_metier'
      or (select role from public.users where id = a.bpo_groupe_id) is distinct from 'bpo_groupe'
      or (a.rssi_id is not null and (select role from public.users where id = a.rssi_id) <> 'rssi')`)).toBe(0)
    const tree = await one<{ heads: number; reached: number; leaf_min: number; leaf_max: number }>(db, `
      with recursive t as (
        select id, 0 as depth from public.users where manager_id is null
        union all
        select u.id, t.depth + 1 from public.users u join t on u.manager_id = t.id where t.depth < 20
      )
      select (select count(*) from public.users where manager_id is null)::int as heads, count(*)::int as reached,
        min(depth) filter (where not exists (select 1 from public.users r where r.manager_id = t.id))::int as leaf_min,
        max(depth)::int as leaf_max
      from t`)
    expect(tree).toEqual({ heads: 1, reached: counts.people, leaf_min: 3, leaf_max: 5 })
  })

})

describe('review state', () => {
  type Right = { id: string; status: string; campaign_id: string | null; campaign_status: string | null; start_at: string | null; end_at: string | null
    holder: string; holder_role: string; manager: string | null; ra: string; bpo_metier: string; bpo_groupe: string | null
    validated_by: string | null; validated_at: string | null }
  type Decision = { right_id: string; stage: string; decision: string; from_status: string; to_status: string; decided_by: string; decided_at: string }

  // ARCHITECTURE §4, restated: the states each stage decides from, and the status each outcome gives.
  const waiting: Record<string, string[]> = {
    user: ['pending'], manager: ['pending', 'validated_user'], bpo_metier: ['validated_manager'], bpo_groupe: ['validated_bpo_metier'],
    ra: ['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe', 'treatment_required'],
  }
  const gives = (stage: string, decision: string) =>
    stage === 'ra' ? (decision === 'approved' ? 'treated' : 'treatment_required') : `${decision === 'approved' ? 'validated' : 'refused'}_${stage}`
  // Completing a campaign sends what is undecided to the RA, without a decision.
  const completable = ['pending', 'validated_user', 'validated_manager', 'validated_bpo_metier']

  /** What is wrong with a right's status given its decisions in its current campaign; null when nothing is. */
  function problem(right: Right, decisions: Decision[]): string | null {
    if (!right.campaign_id) return right.status === 'pending' && decisions.length === 0 ? null : 'outside a campaign but not pending'
    const closed = right.campaign_status === 'completed' || right.campaign_status === 'archived'
    let state = 'pending'
    let completed = false
    for (const d of decisions) {
      if (d.from_status !== state) {
        if (!(closed && !completed && completable.includes(state) && d.from_status === 'treatment_required' && d.stage === 'ra')) {
          return `decision from ${d.from_status} while ${state}`
        }
        completed = true
      }
      if (!waiting[d.stage]?.includes(d.from_status)) return `${d.stage} decided on ${d.from_status}`
      if (d.to_status !== gives(d.stage, d.decision)) return `${d.stage} ${d.decision} gave ${d.to_status}`
      if (d.stage === 'ra' && d.decision === 'refused' && d.from_status === 'treatment_required') return 'RA refused twice'
      const decider = { user: right.holder, manager: right.manager, bpo_metier: right.bpo_metier, bpo_groupe: right.bpo_groupe, ra: right.ra }[d.stage]
      if (d.decided_by !== decider) return `${d.stage} decision by someone else`
      if (d.stage === 'user' && right.holder_role !== 'user') return 'user stage for a holder who is not a user'
      if (d.stage !== 'user' && d.decided_by === right.holder) return 'decision on own right'
      if (d.decided_at < (right.start_at as string)) return 'decision before the campaign'
      if (!closed && d.stage !== 'ra' && d.decided_at >= `${asOf}T00:00:00`) return 'decision after the as-of day'
      if (closed && d.stage !== 'ra' && !completed && d.decided_at > (right.end_at as string)) return 'decision after the campaign'
      state = d.to_status
    }
    const last = decisions[decisions.length - 1]
    if ((right.validated_by ?? null) !== (last?.decided_by ?? null) || (right.validated_at ?? null) !== (last?.decided_at ?? null)) return 'validated_* not the last decision'
    if (state === right.status) return null
    if (closed && !completed && completable.includes(state) && right.status === 'treatment_required') return null
    return `status ${right.status} after decisions leading to ${state}`
  }

  it('gives every right the status its decisions lead to, at every stage', async () => {
    const { rows: rights } = await db.query<Right>(`
      select ur.id, ur.status::text, ur.campaign_id, c.status::text as campaign_status,
        to_char(c.start_date, 'YYYY-MM-DD"T"00:00:00') as start_at, to_char(c.end_date, 'YYYY-MM-DD"T"00:00:00') as end_at,
        ur.user_id as holder, h.role::text as holder_role, h.manager_id as manager, a.ra_id as ra, a.bpo_metier_id as bpo_metier,
        a.bpo_groupe_id as bpo_groupe, ur.validated_by, to_char(ur.validated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as validated_at
      from public.user_rights ur join public.users h on h.id = ur.user_id join public.applications a on a.id = ur.application_id
      left join public.campaigns c on c.id = ur.campaign_id`)
    const { rows: decisions } = await db.query<Decision & { campaign_id: string | null }>(`
      select right_id, campaign_id, stage::text, decision::text, from_status::text, to_status::text, decided_by,
        to_char(decided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as decided_at
      from public.right_decisions order by decided_at, id`)
    const rightsById = new Map(rights.map((r) => [r.id, r]))
    const byRight = new Map<string, Decision[]>()
    for (const d of decisions) {
      expect(rightsById.has(d.right_id)).toBe(true)
      // Decisions of earlier campaigns are history: the right's status comes from its current campaign's.
      if (rightsById.get(d.right_id)?.campaign_id !== d.campaign_id) continue
      byRight.set(d.right_id, [...(byRight.get(d.right_id) ?? []), d])
    }
    const problems = rights.map((r) => [r.id, problem(r, byRight.get(r.id) ?? [])]).filter(([, p]) => p !== null)
    expect(problems.slice(0, 5)).toEqual([])

    const active = new Set(rights.filter((r) => r.campaign_status === 'active').map((r) => r.status))
    for (const status of ['pending', 'validated_user', 'refused_user', 'validated_manager', 'refused_manager', 'validated_bpo_metier',
      'refused_bpo_metier', 'validated_bpo_groupe', 'treatment_required', 'treated']) {
      expect(active, status).toContain(status)
    }
  })
})

describe('accounts', () => {
  it('keeps the seven demo accounts, with their ids, e-mails, roles and password, which every account shares', async () => {
    const password = await one<{ hashes: number; signs_in: boolean }>(db, `select count(distinct encrypted_password)::int as hashes,
      bool_and(encrypted_password = extensions.crypt('Demo1234!', encrypted_password)) as signs_in
      from (select distinct encrypted_password from auth.users) h`)
    expect(password).toEqual({ hashes: 1, signs_in: true })
    for (const role of Object.keys(demo) as DemoRole[]) {
      const account = await one<{ role: string }>(db, `select u.role::text from public.users u join auth.users a on a.id = u.id and a.email = u.email
        join auth.identities i on i.user_id = u.id where u.id = $1 and u.email = $2`, [demo[role].id, demo[role].email])
      expect(account).toEqual({ role })
    }
  })

  it('gives the demo administrator and RSSI their demo second factor, as the demo seed does', async () => {
    const { rows } = await db.query<{ email: string; secret: string }>(`select u.email, f.secret from auth.mfa_factors f
      join auth.users u on u.id = f.user_id where f.factor_type = 'totp' and f.status = 'verified' order by u.email`)
    expect(rows).toEqual(Object.entries(DEMO_TOTP_SECRETS).map(([email, secret]) => ({ email, secret })).sort((a, b) => a.email.localeCompare(b.email)))
  })

  it('gives the demo reviewers non-empty queues, the manager about 1,500 rights at full scale', async () => {
    const queue = async (actor: DemoRole) => actAs(db, actor, (tx) => count(tx, 'select public.review_queue_count()'))
    const managerQueue = await queue('manager')
    // Their team's rights all under review, about 90 % of them at the manager's stage.
    expect(managerQueue).toBeGreaterThan(counts.demoTeam * 30 * 0.8)
    expect(managerQueue).toBeLessThanOrEqual(counts.demoTeam * 30)
    expect(datasetCounts(1).demoTeam * 30 * 0.9).toBeCloseTo(FULL_SCALE.demoManagerQueue, -2)
    for (const actor of ['user', 'bpo_metier', 'bpo_groupe', 'ra'] as const) expect(await queue(actor), actor).toBeGreaterThan(0)
  })

  it('gives generated managers their documented e-mails and rights awaiting them', async () => {
    const { rows } = await db.query<{ id: string; email: string }>(`
      select u.id, u.email from public.users u join auth.users a on a.id = u.id and a.email = u.email
       where u.role = 'manager' and u.email like 'manager.%' order by u.email limit 20`)
    expect(rows.length).toBe(Math.min(20, counts.managers - 1))
    expect(rows[0]?.email).toBe(datasetEmail('manager', 1))
    for (const manager of rows) {
      expect(await actAs(db, manager, (tx) => count(tx, 'select public.review_queue_count()')), manager.email).toBeGreaterThan(0)
    }
  })
})

// Last, since it changes the data.
describe('after the load', () => {
  it('leaves the triggers on: a decision through validate_user_right is audited as usual, and sealed onto the generated chain', async () => {
    expect((await one<{ r: string }>(db, 'select current_setting($1) as r', ['session_replication_role'])).r).toBe('origin')
    const before = await count(db, 'select count(*) from public.audit_logs')
    await actAs(db, 'manager', async (tx) => {
      const { rows } = await tx.query<{ right_id: string; approve_status: string }>('select right_id, approve_status from public.review_queue(p_limit => 1)')
      const first = rows[0] as { right_id: string; approve_status: string }
      await tx.query('select public.validate_user_right($1, $2::public.right_status)', [first.right_id, first.approve_status])
    })
    expect(await count(db, 'select count(*) from public.audit_logs')).toBe(before + 1)
    // The loaded events and the new one, each with its search text (private.index_audit_search's expression, the names
    // its sentence shows included: nothing was renamed since).
    expect(await count(db, `
      select count(*) from public.audit_logs l join private.audit_search s on s.id = l.search_id
       where s.body = coalesce(l.user_email, '') || chr(10) || coalesce(l.user_name, '') || chr(10) || l.action || chr(10)
                      || l.resource_type || chr(10) || coalesce(l.resource_id, '') || chr(10) || l.details::text || chr(10)
                      || private.audit_search_names(l.action, l.resource_type, l.resource_id, l.details)`)).toBe(before + 1)
    const decision = await one<{ body: string; holder: string; application: string; role: string; campaign: string }>(db, `
      select s.body, d.holder_name as holder, d.application_name as application, d.role_name as role, c.name as campaign
        from public.audit_logs l
        join private.audit_search s on s.id = l.search_id
        join public.right_decisions d on d.id = (l.details ->> 'decision_id')::uuid
        join public.campaigns c on c.id = d.campaign_id
       where l.action = 'decide'
       order by l.id
       limit 1`)
    for (const name of [decision.holder, decision.application, decision.role, decision.campaign]) expect(decision.body).toContain(name)
    const verdict = await actAs(db, 'service_role', (tx) => one<{ v: Record<string, unknown> }>(tx, 'select public.verify_audit_chain() as v'))
    expect(verdict.v).toMatchObject({ intact: true, rows_checked: before + 1, head_id: before + 1 })
  })
})
