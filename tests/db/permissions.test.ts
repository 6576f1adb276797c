// The permission matrix of ARCHITECTURE §5: the anonymous key and each of the seven roles, against every table and
// every operation, as PostgREST runs them. Every cell asserts what the caller observes (the rows returned or changed,
// or the refusal's SQLSTATE) and what the database holds afterwards. A write that row-level security filters out
// "succeeds" on no row at all, so the row counts are what is checked, never the mere absence of an error.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo, isabelle, teamMembers, type Actor } from './support/actors'
import {
  applicationId,
  callers,
  count,
  createApplication,
  createDraftCampaign,
  createRight,
  createUser,
  decide,
  expectRefused,
  ids,
  nonAdmins,
  one,
  roles,
  unique,
  type Caller,
} from './support/fixtures'

let db: Database
let sap: string
/** A right of the demo user on SAP Finance: the holder, their manager, SAP's four owners, admin and rssi all see it. */
let sharedRight: string


beforeAll(async () => {
  db = await freshDatabase()
  sap = await applicationId(db, 'SAP Finance')
  sharedRight = await createRight(db, { applicationId: sap, campaignId: null })

  // The seed's applications all share the same owners. A second RA and BPO Métier with an application of their own,
  // and people outside the demo manager's team, make every scope a strict part of the data.
  const ra2 = await createUser(db, { role: 'ra' })
  const bpo2 = await createUser(db, { role: 'bpo_metier' })
  const outsider = await createUser(db, { role: 'user', managerId: isabelle })
  const outsiderApp = await createApplication(db, { ra: ra2.id, bpoMetier: bpo2.id, bpoGroupe: null, rssi: null })
  const outsiderRight = await createRight(db, { holder: outsider.id, applicationId: outsiderApp })
  await createRight(db, { holder: outsider.id, applicationId: sap })
  await createRight(db, { holder: demo.user.id, applicationId: outsiderApp })

  // Decisions outside every demo reviewer's scope, and one the demo manager took on a right they no longer see
  // (the holder moved to another manager): the decider keeps sight of their own decision.
  const steps = [
    await decide(db, outsider, outsiderRight, 'refused_user'),
    await decide(db, ra2, outsiderRight, 'treated'),
  ]
  const mover = await createUser(db, { role: 'user', managerId: demo.manager.id })
  const moverRight = await createRight(db, { holder: mover.id, applicationId: outsiderApp })
  steps.push(await decide(db, 'manager', moverRight, 'validated_manager'))
  for (const step of steps) expect(step, step.message).toMatchObject({ ok: true })
  await db.query(`update public.users set manager_id = $1 where id = $2`, [isabelle, mover.id])
})
afterAll(() => db.close())

// ─── What each caller may see, written from ARCHITECTURE §5 independently of the policies ──────────────────────────

interface World {
  users: { id: string; manager_id: string | null }[]
  applications: { id: string; owners: (string | null)[] }[]
  rights: { id: string; user_id: string; application_id: string }[]
  decisions: { id: string; right_id: string; decided_by: string | null }[]
}

async function world(): Promise<World> {
  const users = (await db.query<World['users'][number]>(`select id::text, manager_id::text from public.users`)).rows
  const applications = (
    await db.query<World['applications'][number]>(
      `select id::text, array[ra_id, bpo_metier_id, bpo_groupe_id, rssi_id]::text[] as owners from public.applications`,
    )
  ).rows
  const rights = (await db.query<World['rights'][number]>(`select id::text, user_id::text, application_id::text from public.user_rights`)).rows
  const decisions = (await db.query<World['decisions'][number]>(`select id::text, right_id::text, decided_by::text from public.right_decisions`))
    .rows
  return { users, applications, rights, decisions }
}

/** Rights: the holder; the holder's manager; the application's RA, BPO Métier, BPO Groupe and RSSI; admin and rssi. */
function visibleRights(w: World, caller: Caller): Set<string> {
  if (caller === 'anon') return new Set()
  const me: string = demo[caller].id
  if (caller === 'admin' || caller === 'rssi') return new Set(w.rights.map((r) => r.id))
  const reports = new Set(w.users.filter((u) => u.manager_id === me).map((u) => u.id))
  const owned = new Set(w.applications.filter((a) => a.owners.includes(me)).map((a) => a.id))
  return new Set(w.rights.filter((r) => r.user_id === me || reports.has(r.user_id) || owned.has(r.application_id)).map((r) => r.id))
}

/** Decisions: those on a right the caller may see, and those the caller took. */
function visibleDecisions(w: World, caller: Caller): Set<string> {
  if (caller === 'anon') return new Set()
  const rights = visibleRights(w, caller)
  return new Set(w.decisions.filter((d) => rights.has(d.right_id) || d.decided_by === demo[caller].id).map((d) => d.id))
}

// ─── The matrix ──────────────────────────────────────────────────────────────────────────────────────────────────────
//
// select: ALL every row · SCOPE exactly the caller's rows per §5 (a strict, non-empty part) · NONE no row · DENIED 42501
// insert: OK the row is created · DENIED 42501 and nothing created
// update: OK the row is changed · NONE zero rows changed, the row as it was · DENIED 42501 and the row as it was
// delete: OK the row is gone · NONE zero rows deleted, the row still there · DENIED 42501 and the row still there

type Expectation = 'ALL' | 'SCOPE' | 'NONE' | 'DENIED' | 'OK'
type Op = 'select' | 'insert' | 'update' | 'delete'
type Table = 'users' | 'applications' | 'campaigns' | 'user_rights' | 'right_decisions' | 'control_rules' | 'audit_logs'
const ALL = 'ALL', SCOPE = 'SCOPE', NONE = 'NONE', DENIED = 'DENIED', OK = 'OK'

type Row = Expectation[]
type Writes = Record<Exclude<Op, 'select'>, Row>

// Each row gives the eight callers' expectations, in the order of `callers`: a table has one row for select and one
// set of three for its writes.
//                       anon    user    manager bpo_metier bpo_groupe ra   admin  rssi
const EVERY_ROW: Row =  [DENIED, ALL,    ALL,    ALL,    ALL,    ALL,    ALL,   ALL]
const IN_SCOPE: Row =   [DENIED, SCOPE,  SCOPE,  SCOPE,  SCOPE,  SCOPE,  ALL,   ALL]
const ADMIN_RSSI: Row = [DENIED, NONE,   NONE,   NONE,   NONE,   NONE,   ALL,   ALL]
const RSSI_ONLY: Row =  [DENIED, NONE,   NONE,   NONE,   NONE,   NONE,   NONE,  ALL]
const REFUSED: Row =    [DENIED, DENIED, DENIED, DENIED, DENIED, DENIED, DENIED, DENIED]

/** Admin and rssi write; the others may not insert, and their updates and deletes reach no row. */
const ADMINS_WRITE: Writes = {
  insert:               [DENIED, DENIED, DENIED, DENIED, DENIED, DENIED, OK,    OK],
  update:               [DENIED, NONE,   NONE,   NONE,   NONE,   NONE,   OK,    OK],
  delete:               [DENIED, NONE,   NONE,   NONE,   NONE,   NONE,   OK,    OK],
}
/** Nobody writes through the API: the rows are the database's own record. */
const NOBODY_WRITES: Writes = { insert: REFUSED, update: REFUSED, delete: REFUSED }

const matrix: Record<Table, Record<Op, Row>> = {
  users: { select: EVERY_ROW, ...ADMINS_WRITE },
  applications: { select: EVERY_ROW, ...ADMINS_WRITE },
  campaigns: { select: EVERY_ROW, ...ADMINS_WRITE },
  user_rights: { select: IN_SCOPE, ...ADMINS_WRITE },
  right_decisions: { select: IN_SCOPE, ...NOBODY_WRITES },
  control_rules: { select: ADMIN_RSSI, ...ADMINS_WRITE },
  audit_logs: { select: RSSI_ONLY, ...NOBODY_WRITES },
}

// ─── How each cell is tried ───────────────────────────────────────────────────────────────────────────────────────────

interface Write {
  /** The statement, without its returning clause. */
  sql: string
  params: unknown[]
}

interface Probe {
  scope?: (w: World, caller: Caller) => Set<string>
  /** A fresh row for the caller to insert, and how to count it afterwards. */
  insert: () => Promise<Write & { exists: Write }>
  /** A change to an existing row, and how to read back the changed field. */
  update: () => Promise<Write & { read: Write; value: string }>
  /** A row for the caller to delete (fresh when the caller may succeed), and how to count it afterwards. */
  delete: () => Promise<Write & { exists: Write }>
  /** The target of update and delete must be one the caller can see, so that NONE means the write was refused. */
  target?: () => Promise<string>
}

/** How many rows of `table` hold `value` in `column`: whether a write created a row, or left one. */
const rowsWhere = (table: Table, column: string, value: unknown): Write => ({
  sql: `select count(*) from public.${table} where ${column} = $1`,
  params: [value],
})

/** Deleting one row by its id, and counting it afterwards. */
const deleteRow = (table: Table, id: unknown) => ({ sql: `delete from public.${table} where id = $1`, params: [id], exists: rowsWhere(table, 'id', id) })

/** Setting one column of a row to `value`, and reading it back. */
const setColumn = (table: Table, id: unknown, column: string, value: string) => ({
  sql: `update public.${table} set ${column} = $2 where id = $1`,
  params: [id, value],
  read: { sql: `select ${column} as v from public.${table} where id = $1`, params: [id] },
  value,
})

const probes: Record<Table, Probe> = {
  users: {
    insert: async () => {
      const email = `${randomUUID()}@example.org`
      return {
        sql: `insert into public.users (email, first_name, last_name, role) values ($1, 'Nouvel', 'Arrivant', 'user')`,
        params: [email],
        exists: rowsWhere('users', 'email', email),
      }
    },
    update: async () => setColumn('users', teamMembers.thomas, 'department', unique('Service')),
    delete: async () => deleteRow('users', (await createUser(db)).id),
  },
  applications: {
    insert: async () => {
      const name = unique('Application')
      return {
        sql: `insert into public.applications (name, ra_id, bpo_metier_id) values ($1, $2, $3)`,
        params: [name, demo.ra.id, demo.bpo_metier.id],
        exists: rowsWhere('applications', 'name', name),
      }
    },
    update: async () => setColumn('applications', sap, 'description', unique('Description')),
    delete: async () => deleteRow('applications', await createApplication(db)),
  },
  campaigns: {
    insert: async () => {
      const name = unique('Campagne')
      return {
        sql: `insert into public.campaigns (name, start_date, end_date) values ($1, '2027-03-01', '2027-03-31')`,
        params: [name],
        exists: rowsWhere('campaigns', 'name', name),
      }
    },
    update: async () => setColumn('campaigns', campaignIds.draft, 'description', unique('Description')),
    delete: async () => deleteRow('campaigns', await createDraftCampaign(db)),
  },
  user_rights: {
    scope: visibleRights,
    insert: async () => {
      const role = unique('Rôle')
      return {
        sql: `insert into public.user_rights (user_id, application_id, role_name) values ($1, $2, $3)`,
        params: [demo.user.id, sap, role],
        exists: rowsWhere('user_rights', 'role_name', role),
      }
    },
    update: async () => setColumn('user_rights', sharedRight, 'justification', unique('Justification')),
    delete: async () => deleteRow('user_rights', await createRight(db, { applicationId: sap, campaignId: null })),
    target: async () => sharedRight,
  },
  right_decisions: {
    scope: visibleDecisions,
    insert: async () => {
      const marker = unique('Faux')
      return {
        sql: `insert into public.right_decisions (right_id, stage, decision, from_status, to_status, decided_by, decided_by_email, decided_by_name)
              values ($1, 'manager', 'approved', 'pending', 'validated_manager', $2, 'manager@example.com', $3)`,
        params: [sharedRight, demo.manager.id, marker],
        exists: rowsWhere('right_decisions', 'decided_by_name', marker),
      }
    },
    update: async () => {
      const { id } = await one<{ id: string }>(db, `select id from public.right_decisions where to_status <> 'treated' order by decided_at limit 1`)
      return {
        sql: `update public.right_decisions set to_status = 'treated' where id = $1`,
        params: [id],
        read: { sql: `select to_status::text as v from public.right_decisions where id = $1`, params: [id] },
        value: 'treated',
      }
    },
    delete: async () => {
      const { id } = await one<{ id: string }>(db, `select id from public.right_decisions order by decided_at limit 1`)
      return deleteRow('right_decisions', id)
    },
  },
  control_rules: {
    insert: async () => {
      const name = unique('Règle')
      return {
        sql: `insert into public.control_rules (name, parameters) values ($1, '{"inactivity_threshold": 60}')`,
        params: [name],
        exists: rowsWhere('control_rules', 'name', name),
      }
    },
    update: async () => {
      const { id } = await one<{ id: string }>(db, `select id from public.control_rules where name = 'Inactivité de 90 jours'`)
      const value = unique('Description')
      return setColumn('control_rules', id, 'description', value)
    },
    delete: async () => {
      const { id } = await one<{ id: string }>(db, `insert into public.control_rules (name) values ($1) returning id`, [unique('Règle')])
      return deleteRow('control_rules', id)
    },
  },
  audit_logs: {
    insert: async () => {
      const marker = unique('forged')
      return {
        sql: `insert into public.audit_logs (action, resource_type, resource_id) values ('decide', 'user_rights', $1)`,
        params: [marker],
        exists: rowsWhere('audit_logs', 'resource_id', marker),
      }
    },
    update: async () => {
      const { id } = await one<{ id: number }>(db, `select min(id)::int as id from public.audit_logs`)
      return {
        sql: `update public.audit_logs set action = 'forged' where id = $1`,
        params: [id],
        read: { sql: `select action as v from public.audit_logs where id = $1`, params: [id] },
        value: 'forged',
      }
    },
    delete: async () => {
      const { id } = await one<{ id: number }>(db, `select min(id)::int as id from public.audit_logs`)
      return deleteRow('audit_logs', id)
    },
  },
}

async function rowsAs(caller: Actor, write: Write) {
  return attempt(db, caller, async (tx: Sql) => (await tx.query<{ id: string }>(`${write.sql} returning id`, write.params)).rows)
}

async function check(table: Table, op: Op, caller: Caller, expected: Expectation): Promise<void> {
  const probe = probes[table]

  if (op === 'select') {
    // The same read as the caller, then as the owner, who sees every row.
    const read = `select id from public.${table}`
    const outcome = await attempt(db, caller, (tx) => ids(tx, read))
    if (expected === DENIED) return expectRefused(outcome, '42501')
    expect(outcome, outcome.message).toMatchObject({ ok: true })
    const all = await ids(db, read)
    expect(all.length).toBeGreaterThan(0)
    if (expected === ALL) expect(outcome.value).toEqual(all)
    if (expected === NONE) expect(outcome.value).toEqual([])
    if (expected === SCOPE) {
      const wanted = [...probe.scope!(await world(), caller)].sort()
      expect(wanted.length).toBeGreaterThan(0)
      expect(wanted.length).toBeLessThan(all.length)
      expect(outcome.value).toEqual(wanted)
    }
    return
  }

  if (op === 'insert') {
    const write = await probe.insert()
    const outcome = await rowsAs(caller, write)
    const created = await count(db, write.exists.sql, write.exists.params)
    if (expected === OK) {
      expect(outcome, outcome.message).toMatchObject({ ok: true })
      expect(outcome.value).toHaveLength(1)
      expect(created).toBe(1)
    } else {
      expectRefused(outcome, '42501')
      expect(created).toBe(0)
    }
    return
  }

  if (expected === NONE && probe.target && caller !== 'anon') {
    const target = await probe.target()
    const seen = await actAs(db, caller, (tx) => ids(tx, `select id from public.user_rights where id = $1`, [target]))
    expect(seen, `${caller} must see the target for a refused write to mean anything`).toEqual([target])
  }

  if (op === 'update') {
    const write = await probe.update()
    const before = (await one<{ v: string }>(db, write.read.sql, write.read.params)).v
    const outcome = await rowsAs(caller, write)
    const after = (await one<{ v: string }>(db, write.read.sql, write.read.params)).v
    if (expected === OK) {
      expect(outcome, outcome.message).toMatchObject({ ok: true })
      expect(outcome.value).toHaveLength(1)
      expect(after).toBe(write.value)
      return
    }
    if (expected === NONE) {
      expect(outcome, outcome.message).toMatchObject({ ok: true })
      expect(outcome.value).toHaveLength(0)
    } else {
      expectRefused(outcome, '42501')
    }
    expect(after).toBe(before)
    expect(after).not.toBe(write.value)
    return
  }

  const write = await probe.delete()
  const outcome = await rowsAs(caller, write)
  const left = await count(db, write.exists.sql, write.exists.params)
  if (expected === OK) {
    expect(outcome, outcome.message).toMatchObject({ ok: true })
    expect(outcome.value).toHaveLength(1)
    expect(left).toBe(0)
    return
  }
  if (expected === NONE) {
    expect(outcome, outcome.message).toMatchObject({ ok: true })
    expect(outcome.value).toHaveLength(0)
  } else {
    expectRefused(outcome, '42501')
  }
  expect(left).toBe(1)
}

describe.each(Object.keys(matrix) as Table[])('%s', (table) => {
  describe.each(['select', 'insert', 'update', 'delete'] as Op[])('%s', (op) => {
    const cells = callers.map((caller, i) => [caller, matrix[table][op][i] as Expectation] as const)
    it.each(cells)('%s → %s', (caller, expected) => check(table, op, caller, expected))
  })
})

// ─── Rules the matrix alone does not show ─────────────────────────────────────────────────────────────────────────────

describe('users: one’s own profile', () => {
  it('a person signing in for the first time creates their own profile once, as a plain user', async () => {
    const newcomer = { id: randomUUID(), email: `${randomUUID()}@example.org` }
    const insert = (tx: Sql) =>
      tx.query(`insert into public.users (id, email, first_name, last_name, role) values ($1, $2, 'Nouvelle', 'Recrue', 'user') returning id`, [
        newcomer.id,
        newcomer.email.toUpperCase(),
      ])
    const first = await attempt(db, newcomer, insert)
    expect(first, first.message).toMatchObject({ ok: true })
    expect(await one(db, `select role::text from public.users where id = $1`, [newcomer.id])).toEqual({ role: 'user' })

    const second = await attempt(db, newcomer, insert)
    expectRefused(second, '23505')
    expect(await count(db, `select count(*) from public.users where lower(email) = lower($1)`, [newcomer.email])).toBe(1)
  })

  const forbidden: [string, (id: string, email: string) => unknown[]][] = [
    ['with role admin', (id, email) => [id, email, 'admin', null, null]],
    ['with role rssi', (id, email) => [id, email, 'rssi', null, null]],
    ['with role manager', (id, email) => [id, email, 'manager', null, null]],
    ['under another id', (_id, email) => [randomUUID(), email, 'user', null, null]],
    ['under another e-mail', (id) => [id, `${randomUUID()}@example.org`, 'user', null, null]],
    ['choosing their own manager', (id, email) => [id, email, 'user', demo.manager.id, null]],
    ['choosing their own department', (id, email) => [id, email, 'user', null, 'Direction']],
  ]
  it.each(forbidden)('a newcomer cannot create their profile %s', async (_label, values) => {
    const newcomer = { id: randomUUID(), email: `${randomUUID()}@example.org` }
    const row = values(newcomer.id, newcomer.email)
    const outcome = await attempt(db, newcomer, (tx) =>
      tx.query(`insert into public.users (id, email, first_name, last_name, role, manager_id, department) values ($1, $2, 'A', 'B', $3, $4, $5)`, row),
    )
    expectRefused(outcome, '42501')
    expect(await count(db, `select count(*) from public.users where id = $1 or email = $2`, [row[0], row[1]])).toBe(0)
  })

  it('someone who already has a profile cannot create one for somebody else', async () => {
    const email = `${randomUUID()}@example.org`
    const outcome = await attempt(db, 'user', (tx) =>
      tx.query(`insert into public.users (id, email, first_name, last_name) values ($1, $2, 'A', 'B')`, [randomUUID(), email]),
    )
    expectRefused(outcome, '42501')
    expect(await count(db, `select count(*) from public.users where email = $1`, [email])).toBe(0)
  })

  it.each(roles)('%s updates their own last_login', async (role) => {
    const stamp = '2026-01-02 03:04:05+00'
    const outcome = await attempt(db, role, (tx) =>
      tx.query(`update public.users set last_login = $2 where id = $1 returning id`, [demo[role].id, stamp]),
    )
    expect(outcome.value?.rows).toHaveLength(1)
    expect(await count(db, `select count(*) from public.users where id = $1 and last_login = $2::timestamptz`, [demo[role].id, stamp])).toBe(1)
  })

  const ownFields: [string, string, unknown][] = [
    ['position', 'position', 'Directeur général'],
    ['first name', 'first_name', 'Usurpé'],
    ['e-mail', 'email', 'autre@example.org'],
    ['manager', 'manager_id', demo.admin.id],
    ['role', 'role', 'rssi'],
  ]
  describe.each(nonAdmins)('%s', (role) => {
    it.each(ownFields)('cannot change their own %s', async (_label, column, value) => {
      const before = await one(db, `select to_jsonb(u) - 'updated_at' as row from public.users u where id = $1`, [demo[role].id])
      const outcome = await attempt(db, role, (tx) =>
        tx.query(`update public.users set ${column} = $2 where id = $1 returning id`, [demo[role].id, value]),
      )
      expectRefused(outcome, '42501', /Vous ne pouvez modifier que votre date de dernière connexion/)
      expect(await one(db, `select to_jsonb(u) - 'updated_at' as row from public.users u where id = $1`, [demo[role].id])).toEqual(before)
    })
  })

  it.each(['admin', 'rssi'] as const)('%s cannot change their own role, but changes someone else’s', async (role) => {
    const own = await attempt(db, role, (tx) => tx.query(`update public.users set role = 'user' where id = $1 returning id`, [demo[role].id]))
    expectRefused(own, '42501', /Vous ne pouvez pas modifier votre propre rôle/)
    expect(await one(db, `select role::text from public.users where id = $1`, [demo[role].id])).toEqual({ role })

    const other = await createUser(db)
    const promoted = await attempt(db, role, (tx) => tx.query(`update public.users set role = 'manager' where id = $1 returning id`, [other.id]))
    expect(promoted.value?.rows).toHaveLength(1)
    expect(await one(db, `select role::text from public.users where id = $1`, [other.id])).toEqual({ role: 'manager' })
  })

  it.each(['admin', 'rssi'] as const)('%s cannot delete their own profile', async (role) => {
    const outcome = await attempt(db, role, (tx) => tx.query(`delete from public.users where id = $1 returning id`, [demo[role].id]))
    expectRefused(outcome, '42501', /Vous ne pouvez pas supprimer votre propre compte/)
    expect(await count(db, `select count(*) from public.users where id = $1`, [demo[role].id])).toBe(1)
  })

  it.each(roles)('%s cannot rewrite a profile id, their own or anyone’s', async (role) => {
    for (const target of [demo[role].id, teamMembers.emma]) {
      const outcome = await attempt(db, role, (tx) => tx.query(`update public.users set id = $2 where id = $1 returning id`, [target, randomUUID()]))
      expectRefused(outcome, '42501')
      expect(await count(db, `select count(*) from public.users where id = $1`, [target])).toBe(1)
    }
  })
})

describe('campaigns: the creator', () => {
  it.each(['admin', 'rssi'] as const)('is always the %s who creates the campaign, and cannot be rewritten', async (role) => {
    const name = unique('Campagne')
    const created = await attempt(db, role, (tx) =>
      tx.query<{ id: string }>(
        `insert into public.campaigns (name, start_date, end_date, created_by) values ($1, '2027-05-01', '2027-05-31', $2) returning id`,
        [name, demo.user.id],
      ),
    )
    expect(created, created.message).toMatchObject({ ok: true })
    const id = created.value!.rows[0]!.id
    expect(await one(db, `select created_by::text from public.campaigns where id = $1`, [id])).toEqual({ created_by: demo[role].id })

    const rewrite = await attempt(db, role, (tx) => tx.query(`update public.campaigns set created_by = $2 where id = $1`, [id, demo.user.id]))
    expectRefused(rewrite, '42501')
    expect(await one(db, `select created_by::text from public.campaigns where id = $1`, [id])).toEqual({ created_by: demo[role].id })
  })

  it.each(['admin', 'rssi'] as const)('%s cannot create a campaign that is already running', async (role) => {
    const name = unique('Campagne')
    const outcome = await attempt(db, role, (tx) =>
      tx.query(`insert into public.campaigns (name, start_date, end_date, status) values ($1, current_date, current_date + 7, 'active')`, [name]),
    )
    expectRefused(outcome, '23514', /toujours créée en brouillon/)
    expect(await count(db, `select count(*) from public.campaigns where name = $1`, [name])).toBe(0)
  })
})

describe('user_rights: the workflow columns', () => {
  const workflowColumns: [string, string][] = [
    ['status', `'treated'`],
    ['validated_by', `'${demo.admin.id}'`],
    ['validated_at', 'now()'],
    ['review_comment', `'Validé'`],
    ['campaign_id', `'${campaignIds.completed}'`],
  ]
  const everyone: (Caller | 'service_role')[] = [...callers, 'service_role']

  it.each(everyone)('%s cannot write any of them, even on a right they may otherwise edit', async (caller) => {
    for (const [column, value] of workflowColumns) {
      const before = await one(db, `select to_jsonb(r) as row from public.user_rights r where id = $1`, [sharedRight])
      const outcome = await attempt(db, caller, (tx) =>
        tx.query(`update public.user_rights set ${column} = ${value} where id = $1 returning id`, [sharedRight]),
      )
      expectRefused(outcome, '42501')
      expect(await one(db, `select to_jsonb(r) as row from public.user_rights r where id = $1`, [sharedRight]), column).toEqual(before)
    }
  })

  it.each(['admin', 'rssi'] as const)('%s cannot insert a right that looks already reviewed', async (role) => {
    const forged: [string, string][] = [
      ['status', `'validated_bpo_groupe'`],
      ['validated_by', `'${demo.manager.id}'`],
      ['validated_at', 'now()'],
      ['review_comment', `'Validé par le manager'`],
    ]
    for (const [column, value] of forged) {
      const roleName = unique('Rôle')
      const outcome = await attempt(db, role, (tx) =>
        tx.query(`insert into public.user_rights (user_id, application_id, role_name, ${column}) values ($1, $2, $3, ${value})`, [
          demo.user.id,
          sap,
          roleName,
        ]),
      )
      expectRefused(outcome, '42501')
      expect(await count(db, `select count(*) from public.user_rights where role_name = $1`, [roleName]), column).toBe(0)
    }
  })
})

// ─── Functions ────────────────────────────────────────────────────────────────────────────────────────────────────────

describe('functions', () => {
  const rpcs = ['create_application', 'update_application', 'delete_application', 'import_user_rights', 'update_user_id', 'validate_user_right']

  it('anon may execute no function of the public schema, and cannot reach the private one', async () => {
    const { rows } = await db.query<{ name: string; anon: boolean; authenticated: boolean }>(
      `select n.nspname || '.' || p.proname as name,
              has_function_privilege('anon', p.oid, 'execute') as anon,
              has_function_privilege('authenticated', p.oid, 'execute') as authenticated
         from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public'`,
    )
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(rpcs.map((r) => `public.${r}`)))
    expect(rows.filter((r) => r.anon).map((r) => r.name)).toEqual([])
    // The API's functions are for signed-in callers, who are then checked by each function.
    expect(rows.filter((r) => r.authenticated).map((r) => r.name).sort()).toEqual(expect.arrayContaining(rpcs.map((r) => `public.${r}`)))
    expect(await one(db, `select has_schema_privilege('anon', 'private', 'usage') as usage`)).toEqual({ usage: false })
  })

  const anonCalls: [string, string, unknown[]][] = [
    ['create_application', `select public.create_application('X', $1, $2)`, [demo.ra.id, demo.bpo_metier.id]],
    ['update_application', `select public.update_application($1, 'X', $2, $3)`, [randomUUID(), demo.ra.id, demo.bpo_metier.id]],
    ['delete_application', `select public.delete_application($1)`, [randomUUID()]],
    ['import_user_rights', `select public.import_user_rights('[]'::jsonb)`, []],
    ['update_user_id', `select public.update_user_id($1, $2)`, [demo.user.id, randomUUID()]],
    ['validate_user_right', `select public.validate_user_right($1, 'treated')`, [randomUUID()]],
  ]
  it.each(anonCalls)('anon calling %s is refused before it runs', async (_name, sql, params) => {
    const outcome = await attempt(db, 'anon', (tx) => tx.query(sql, params))
    expectRefused(outcome, '42501', /permission denied for function/)
  })

  it('no API role can call the function that writes audit rows', async () => {
    for (const caller of ['user', 'admin', 'rssi', 'service_role'] as const) {
      const before = await count(db, `select count(*) from public.audit_logs`)
      const outcome = await attempt(db, caller, (tx) =>
        tx.query(`select private.write_audit('decide', 'user_rights', 'forged', '{"to_status": "treated"}'::jsonb)`),
      )
      expectRefused(outcome, '42501')
      expect(await count(db, `select count(*) from public.audit_logs`), caller).toBe(before)
    }
  })

  // Administration RPCs: anon cannot execute them; a signed-in caller runs them, and they refuse anyone but admin
  // and rssi with a French message.
  type RpcExpectation = 'DENIED' | 'REFUSED' | 'DONE'
  const REFUSED = 'REFUSED', DONE = 'DONE'
  const rpcMatrix: Record<string, RpcExpectation[]> = {
    //                     anon    user     manager  bpo_metier bpo_groupe ra    admin rssi
    create_application:  [DENIED, REFUSED, REFUSED, REFUSED, REFUSED, REFUSED, DONE, DONE],
    update_application:  [DENIED, REFUSED, REFUSED, REFUSED, REFUSED, REFUSED, DONE, DONE],
    delete_application:  [DENIED, REFUSED, REFUSED, REFUSED, REFUSED, REFUSED, DONE, DONE],
    import_user_rights:  [DENIED, REFUSED, REFUSED, REFUSED, REFUSED, REFUSED, DONE, DONE],
  }

  interface RpcProbe {
    call: () => Promise<{ sql: string; params: unknown[]; done: Write; refusal: RegExp }>
  }
  const rpcProbes: Record<string, RpcProbe> = {
    create_application: {
      call: async () => {
        const name = unique('Application')
        return {
          sql: `select (public.create_application($1, $2, $3)).id`,
          params: [name, demo.ra.id, demo.bpo_metier.id],
          done: { sql: `select count(*) from public.applications where name = $1`, params: [name] },
          refusal: /^Seuls les administrateurs et le RSSI peuvent créer une application\.$/,
        }
      },
    },
    update_application: {
      call: async () => {
        const id = await createApplication(db)
        const name = unique('Renommée')
        return {
          sql: `select (public.update_application($1, $2, $3, $4)).id`,
          params: [id, name, demo.ra.id, demo.bpo_metier.id],
          done: { sql: `select count(*) from public.applications where id = $1 and name = $2`, params: [id, name] },
          refusal: /^Seuls les administrateurs et le RSSI peuvent modifier une application\.$/,
        }
      },
    },
    delete_application: {
      call: async () => {
        const id = await createApplication(db)
        return {
          sql: `select public.delete_application($1)`,
          params: [id],
          done: { sql: `select count(*) = 0 from public.applications where id = $1`, params: [id] },
          refusal: /^Seuls les administrateurs et le RSSI peuvent supprimer une application\.$/,
        }
      },
    },
    import_user_rights: {
      call: async () => {
        const role = unique('Rôle')
        return {
          sql: `select public.import_user_rights($1::jsonb)`,
          params: [JSON.stringify([{ email: demo.user.email, application: 'SAP Finance', role_name: role }])],
          done: { sql: `select count(*) from public.user_rights where role_name = $1`, params: [role] },
          refusal: /^Seuls les administrateurs et le RSSI peuvent importer des droits\.$/,
        }
      },
    },
  }

  describe.each(Object.keys(rpcMatrix))('%s', (rpc) => {
    const cells = callers.map((caller, i) => [caller, rpcMatrix[rpc]![i] as RpcExpectation] as const)
    it.each(cells)('%s → %s', async (caller, expected) => {
      const call = await rpcProbes[rpc]!.call()
      const outcome = await attempt(db, caller, (tx) => tx.query(call.sql, call.params))
      const done = await count(db, call.done.sql, call.done.params)
      if (expected === DONE) {
        expect(outcome, outcome.message).toMatchObject({ ok: true })
        expect(done).toBe(1)
        return
      }
      if (expected === DENIED) expectRefused(outcome, '42501', /permission denied for function/)
      else expectRefused(outcome, '42501', call.refusal)
      expect(done).toBe(0)
    })
  })
})
