// The audit trail: every write on the audited tables, every decision and every campaign start and completion leaves
// a row naming who acted, what, on which resource, with the changed fields before and after, when, and from which IP
// (as the API passed it in X-Forwarded-For). Nobody can change or remove a row, the database owner included.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, demo, teamMembers, type Actor, type DemoRole } from './support/actors'
import {
  applicationId,
  auditMark,
  auditSince,
  callers,
  count,
  createApplication,
  createDraftCampaign,
  createRight,
  createUser,
  expectRefused,
  one,
  rightIn,
  unique,
  type AuditRow,
  type Caller,
} from './support/fixtures'

let db: Database
let sap: string
const ip = '203.0.113.9'
const headers = { 'x-forwarded-for': `10.0.0.1, ${ip}` }

beforeAll(async () => {
  db = await freshDatabase()
  sap = await applicationId(db, 'SAP Finance')
})
afterAll(() => db.close())

/** Runs fn as the caller through the API's headers; returns its result, the transaction's now() and the rows it audited. */
async function audited<T>(actor: Actor, fn: (tx: Sql) => Promise<T>, options: { headers?: Record<string, string> } = { headers }) {
  const mark = await auditMark(db)
  const { result, now } = await actAs(
    db,
    actor,
    async (tx) => {
      const result = await fn(tx)
      const { now } = await one<{ now: string }>(tx, `select now()::text as now`)
      return { result, now }
    },
    options,
  )
  return { result, now, rows: await auditSince(db, mark) }
}

async function nameOf(id: string): Promise<string> {
  return (await one<{ name: string }>(db, `select first_name || ' ' || last_name as name from public.users where id = $1`, [id])).name
}

/** Asserts the row names the demo actor, carries the transaction's time and the caller's first-hop IP. */
async function expectStamped(row: AuditRow | undefined, actor: DemoRole, now: string, expectedIp: string | null = ip) {
  expect(row).toBeDefined()
  expect(row).toMatchObject({ user_id: demo[actor].id, user_email: demo[actor].email, user_name: await nameOf(demo[actor].id), ip: expectedIp })
  expect(await one(db, `select $1::timestamptz = $2::timestamptz as same`, [row!.timestamp, now])).toEqual({ same: true })
}

function only(rows: AuditRow[], action: string, resourceType: string, resourceId?: string): AuditRow {
  const matching = rows.filter((r) => r.action === action && r.resource_type === resourceType && (resourceId === undefined || r.resource_id === resourceId))
  expect(matching, `${action} ${resourceType} ${resourceId ?? ''}`).toHaveLength(1)
  return matching[0]!
}

// ─── Each kind of write ──────────────────────────────────────────────────────────────────────────────────────────────

describe('each write leaves its audit row', () => {
  describe('users', () => {
    it('create, by an administrator', async () => {
      const email = `${randomUUID()}@example.org`
      const { result, now, rows } = await audited('admin', (tx) =>
        one<{ id: string }>(tx, `insert into public.users (email, first_name, last_name, role) values ($1, 'Inès', 'Durand', 'manager') returning id`, [email]),
      )
      expect(rows).toHaveLength(1)
      const row = only(rows, 'create', 'users', result.id)
      await expectStamped(row, 'admin', now)
      expect(row.details).toMatchObject({ new: { id: result.id, email, first_name: 'Inès', last_name: 'Durand', role: 'manager' } })
    })

    it('update: only the changed fields, each before and after', async () => {
      const { now, rows } = await audited('rssi', (tx) =>
        tx.query(`update public.users set department = 'Audit interne', position = position where id = $1`, [teamMembers.emma]),
      )
      expect(rows).toHaveLength(1)
      const row = only(rows, 'update', 'users', teamMembers.emma)
      await expectStamped(row, 'rssi', now)
      expect(row.details).toEqual({ changes: { department: { old: 'Finance', new: 'Audit interne' } } })
    })

    it('a person’s own last_login, in their own name', async () => {
      const { now, rows } = await audited('user', (tx) =>
        tx.query(`update public.users set last_login = '2026-11-01 08:00:00+00' where id = $1`, [demo.user.id]),
      )
      const row = only(rows, 'update', 'users', demo.user.id)
      await expectStamped(row, 'user', now)
      expect(Object.keys(row.details.changes as object)).toEqual(['last_login'])
    })

    it('a first sign-in creating one’s own profile, in the newcomer’s name', async () => {
      const newcomer = { id: randomUUID(), email: `${randomUUID()}@example.org` }
      const mark = await auditMark(db)
      await actAs(
        db,
        newcomer,
        (tx) => tx.query(`insert into public.users (id, email, first_name, last_name) values ($1, $2, 'Nouvelle', 'Recrue')`, [newcomer.id, newcomer.email]),
        { headers },
      )
      const row = only(await auditSince(db, mark), 'create', 'users', newcomer.id)
      expect(row).toMatchObject({ user_id: newcomer.id, user_email: newcomer.email, user_name: 'Nouvelle Recrue', ip })
    })

    it('delete, with the deleted profile kept in the row, and the reports’ manager link cleared in the trail too', async () => {
      const boss = await createUser(db, { role: 'manager' })
      const report = await createUser(db, { managerId: boss.id })
      const { now, rows } = await audited('admin', (tx) => tx.query(`delete from public.users where id = $1`, [boss.id]))
      const row = only(rows, 'delete', 'users', boss.id)
      await expectStamped(row, 'admin', now)
      expect(row.details).toMatchObject({ old: { id: boss.id, email: boss.email, role: 'manager' } })
      expect(only(rows, 'update', 'users', report.id).details).toEqual({ changes: { manager_id: { old: boss.id, new: null } } })
    })
  })

  describe('applications, through their functions', () => {
    it('create, update and delete — and the delete accounts for each right and rule it takes along', async () => {
      const name = unique('Application')
      const created = await audited('admin', (tx) =>
        one<{ id: string }>(tx, `select (public.create_application($1, $2, $3, 'Première description')).id`, [name, demo.ra.id, demo.bpo_metier.id]),
      )
      const appId = created.result.id
      expect(created.rows).toHaveLength(1)
      await expectStamped(only(created.rows, 'create', 'applications', appId), 'admin', created.now)
      expect(created.rows[0]!.details).toMatchObject({ new: { name, ra_id: demo.ra.id, description: 'Première description' } })

      const updated = await audited('rssi', (tx) =>
        tx.query(`select public.update_application($1, $2, $3, $4, 'Nouvelle description')`, [appId, name, demo.ra.id, demo.bpo_metier.id]),
      )
      expect(updated.rows).toHaveLength(1)
      await expectStamped(only(updated.rows, 'update', 'applications', appId), 'rssi', updated.now)
      expect(updated.rows[0]!.details).toEqual({ changes: { description: { old: 'Première description', new: 'Nouvelle description' } } })

      const right = await createRight(db, { applicationId: appId, campaignId: null })
      const { id: rule } = await one<{ id: string }>(db, `insert into public.control_rules (name, global, application_id) values ($1, false, $2) returning id`, [
        unique('Règle'),
        appId,
      ])
      const deleted = await audited('admin', (tx) => tx.query(`select public.delete_application($1)`, [appId]))
      await expectStamped(only(deleted.rows, 'delete', 'applications', appId), 'admin', deleted.now)
      await expectStamped(only(deleted.rows, 'delete', 'user_rights', right), 'admin', deleted.now)
      await expectStamped(only(deleted.rows, 'delete', 'control_rules', rule), 'admin', deleted.now)
      expect(deleted.rows).toHaveLength(3)
    })
  })

  describe('campaigns', () => {
    it('create, update and delete of a draft', async () => {
      const name = unique('Campagne')
      const created = await audited('admin', (tx) =>
        one<{ id: string }>(tx, `insert into public.campaigns (name, start_date, end_date) values ($1, '2027-04-01', '2027-04-30') returning id`, [name]),
      )
      const id = created.result.id
      await expectStamped(only(created.rows, 'create', 'campaigns', id), 'admin', created.now)
      expect(created.rows[0]!.details).toMatchObject({ new: { name, status: 'draft', created_by: demo.admin.id } })

      const updated = await audited('admin', (tx) => tx.query(`update public.campaigns set end_date = '2027-05-15' where id = $1`, [id]))
      await expectStamped(only(updated.rows, 'update', 'campaigns', id), 'admin', updated.now)
      expect(updated.rows[0]!.details).toEqual({ changes: { end_date: { old: '2027-04-30', new: '2027-05-15' } } })

      const deleted = await audited('rssi', (tx) => tx.query(`delete from public.campaigns where id = $1`, [id]))
      await expectStamped(only(deleted.rows, 'delete', 'campaigns', id), 'rssi', deleted.now)
      expect(deleted.rows).toHaveLength(1)
    })

    it('start and complete: the status change and one summary event with its counts, none per right moved', async () => {
      const app = await createApplication(db)
      const rights = [await createRight(db, { applicationId: app, campaignId: null }), await createRight(db, { applicationId: app, campaignId: null })]
      const id = await createDraftCampaign(db, { applicationId: app })

      const started = await audited('admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [id]))
      await expectStamped(only(started.rows, 'start_campaign', 'campaigns', id), 'admin', started.now)
      expect(only(started.rows, 'start_campaign', 'campaigns', id).details).toEqual({
        rights_attached: 2,
        rights_left_with_ra: 0,
        scope: { application_id: app, account_type: null },
      })
      expect(only(started.rows, 'update', 'campaigns', id).details).toEqual({ changes: { status: { old: 'draft', new: 'active' } } })
      // The campaign's items are the per-right record of what it took.
      expect(started.rows).toHaveLength(2)
      const items = await db.query<{ right_id: string }>(`select right_id from public.campaign_items where campaign_id = $1`, [id])
      expect(items.rows.map((item) => item.right_id).sort()).toEqual([...rights].sort())

      const completed = await audited('rssi', (tx) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [id]))
      await expectStamped(only(completed.rows, 'complete_campaign', 'campaigns', id), 'rssi', completed.now)
      expect(only(completed.rows, 'complete_campaign', 'campaigns', id).details).toEqual({ rights_sent_to_ra: 2, items: 2 })
      expect(only(completed.rows, 'update', 'campaigns', id).details).toEqual({ changes: { status: { old: 'active', new: 'completed' } } })
      expect(completed.rows).toHaveLength(2)
    })

    it('the suppression of the per-right audit ends with the transition: a later change in the transaction is audited', async () => {
      const app = await createApplication(db)
      const right = await createRight(db, { applicationId: app, campaignId: null })
      const id = await createDraftCampaign(db, { applicationId: app })
      const { rows } = await audited('admin', async (tx) => {
        await tx.query(`update public.campaigns set status = 'active' where id = $1`, [id])
        await tx.query(`update public.user_rights set justification = 'Astreinte' where id = $1`, [right])
      })
      expect(only(rows, 'update', 'user_rights', right).details).toEqual({ changes: { justification: { old: null, new: 'Astreinte' } } })
    })
  })

  describe('user_rights', () => {
    it('import: one row per right created', async () => {
      const roleNames = [unique('Rôle'), unique('Rôle')]
      const { result, now, rows } = await audited('rssi', async (tx) =>
        (
          await one<{ r: { success: boolean } }>(tx, `select public.import_user_rights($1::jsonb) as r`, [
            JSON.stringify(roleNames.map((role_name) => ({ email: 'thomas.roux@example.com', application: 'SAP Finance', role_name }))),
          ])
        ).r,
      )
      expect(result.success).toBe(true)
      expect(rows).toHaveLength(2)
      for (const row of rows) {
        await expectStamped(row, 'rssi', now)
        expect(row).toMatchObject({ action: 'create', resource_type: 'user_rights', details: { new: { user_id: teamMembers.thomas } } })
      }
      expect(rows.map((r) => (r.details.new as { role_name: string }).role_name).sort()).toEqual([...roleNames].sort())
    })

    it('update of a descriptive field, and delete', async () => {
      const right = await createRight(db, { applicationId: sap, campaignId: null })
      const updated = await audited('admin', (tx) => tx.query(`update public.user_rights set justification = 'Astreinte' where id = $1`, [right]))
      await expectStamped(only(updated.rows, 'update', 'user_rights', right), 'admin', updated.now)
      expect(updated.rows[0]!.details).toEqual({ changes: { justification: { old: null, new: 'Astreinte' } } })

      const deleted = await audited('admin', (tx) => tx.query(`delete from public.user_rights where id = $1`, [right]))
      await expectStamped(only(deleted.rows, 'delete', 'user_rights', right), 'admin', deleted.now)
      expect(deleted.rows[0]!.details).toMatchObject({ old: { id: right, justification: 'Astreinte', status: 'pending' } })
    })
  })

  describe('control_rules', () => {
    it('create, update (the toggle) and delete', async () => {
      const name = unique('Règle')
      const created = await audited('rssi', (tx) =>
        one<{ id: string }>(tx, `insert into public.control_rules (name, parameters) values ($1, '{"inactivity_threshold": 45}') returning id`, [name]),
      )
      const id = created.result.id
      await expectStamped(only(created.rows, 'create', 'control_rules', id), 'rssi', created.now)
      expect(created.rows[0]!.details).toMatchObject({ new: { name, enabled: true, parameters: { inactivity_threshold: 45 } } })

      const toggled = await audited('admin', (tx) => tx.query(`update public.control_rules set enabled = false where id = $1`, [id]))
      await expectStamped(only(toggled.rows, 'update', 'control_rules', id), 'admin', toggled.now)
      expect(toggled.rows[0]!.details).toEqual({ changes: { enabled: { old: true, new: false } } })

      const deleted = await audited('admin', (tx) => tx.query(`delete from public.control_rules where id = $1`, [id]))
      await expectStamped(only(deleted.rows, 'delete', 'control_rules', id), 'admin', deleted.now)
      expect(deleted.rows).toHaveLength(1)
    })
  })

  describe('decisions', () => {
    const decisions: [DemoRole, string, string][] = [
      ['user', 'pending', 'refused_user'],
      ['manager', 'validated_user', 'validated_manager'],
      ['bpo_metier', 'validated_manager', 'refused_bpo_metier'],
      ['bpo_groupe', 'validated_bpo_metier', 'validated_bpo_groupe'],
      ['ra', 'refused_manager', 'treated'],
    ]
    it.each(decisions)('%s: one “decide” row, and no second row for the same status change', async (stage, from, to) => {
      const right = await rightIn(db, from, sap)
      const { result, now, rows } = await audited(stage, (tx) =>
        one<{ r: { decision_id: string } }>(tx, `select public.validate_user_right($1, $2, 'Vu') as r`, [right, to]),
      )
      expect(rows).toHaveLength(1)
      const row = only(rows, 'decide', 'user_rights', right)
      await expectStamped(row, stage, now)
      expect(row.details).toMatchObject({ stage, from_status: from, to_status: to, comment: 'Vu', decision_id: result.r.decision_id })
    })
  })
})

// ─── The caller's IP ─────────────────────────────────────────────────────────────────────────────────────────────────

// Only what the platform writes is trusted (private.request_ip): Cloudflare's CF-Connecting-IP, otherwise the last
// X-Forwarded-For entry, the one our own proxy appended; every earlier entry, and X-Real-IP, may come from the client.
describe('the caller’s IP comes from the headers the platform writes, never from one the client can forge', () => {
  const cases: [string, Record<string, string>, string | null][] = [
    ['the last hop of X-Forwarded-For, the one our proxy appended', { 'x-forwarded-for': '10.1.2.3, 10.0.0.1, 198.51.100.20' }, '198.51.100.20'],
    ['a forged first hop is ignored', { 'x-forwarded-for': '203.0.113.66, 198.51.100.5' }, '198.51.100.5'],
    ['surrounding spaces ignored', { 'x-forwarded-for': '  198.51.100.21  ' }, '198.51.100.21'],
    ['an IPv6 address', { 'x-forwarded-for': '2001:db8::7' }, '2001:db8::7'],
    ['CF-Connecting-IP wins over X-Forwarded-For', { 'cf-connecting-ip': '198.51.100.30', 'x-forwarded-for': '203.0.113.66, 198.51.100.5' }, '198.51.100.30'],
    ['CF-Connecting-IP alone', { 'cf-connecting-ip': ' 2001:db8::30 ' }, '2001:db8::30'],
    ['the last hop of X-Forwarded-For when CF-Connecting-IP is malformed', { 'cf-connecting-ip': 'not-an-ip', 'x-forwarded-for': '198.51.100.31' }, '198.51.100.31'],
    ['nothing from X-Real-IP alone: a client can send it', { 'x-real-ip': '198.51.100.22' }, null],
    ['nothing when the last hop is malformed — and the write still succeeds', { 'x-forwarded-for': '198.51.100.23, not-an-ip' }, null],
    ['nothing when the header is forged with SQL', { 'x-forwarded-for': "1.2.3.4'; drop table public.audit_logs; --" }, null],
    ['nothing when there is no header', {}, null],
  ]
  it.each(cases)('%s', async (_label, requestHeaders, expected) => {
    const value = unique('Service')
    const { result, rows } = await audited(
      'admin',
      (tx) => tx.query(`update public.users set department = $2 where id = $1 returning id`, [teamMembers.lucas, value]),
      { headers: requestHeaders },
    )
    expect(result.rows).toHaveLength(1)
    expect(await one(db, `select department from public.users where id = $1`, [teamMembers.lucas])).toEqual({ department: value })
    expect(only(rows, 'update', 'users', teamMembers.lucas).ip).toBe(expected)
  })
})

// ─── Nobody alters the trail ─────────────────────────────────────────────────────────────────────────────────────────

describe('no one can change or remove an audit row', () => {
  const everyone: (Caller | 'service_role')[] = [...callers, 'service_role']
  let target: AuditRow

  beforeAll(async () => {
    const { rows } = await audited('user', (tx) => tx.query(`update public.users set last_login = now() where id = $1`, [demo.user.id]))
    target = rows[0]!
  })

  const trail = () => one(db, `select count(*)::int as n, max(id)::int as last, md5(string_agg(to_jsonb(a)::text, '|' order by id)) as digest from public.audit_logs a`)

  it.each(everyone)('%s can neither update, delete nor insert one', async (caller) => {
    const before = await trail()
    const writes = [
      `update public.audit_logs set user_email = 'quelquun@example.org', details = '{}' where id = ${target.id}`,
      `update public.audit_logs set ip_address = null`,
      `delete from public.audit_logs where id = ${target.id}`,
      `delete from public.audit_logs`,
      `insert into public.audit_logs (user_id, action, resource_type) values ('${demo.rssi.id}', 'decide', 'user_rights')`,
    ]
    for (const sql of writes) expectRefused(await attempt(db, caller, (tx) => tx.query(sql)), '42501')
    expect(await trail()).toEqual(before)
  })

  it('the owner of the table is stopped by the trigger, for update, delete and truncate alike', async () => {
    const before = await trail()
    for (const sql of [
      `update public.audit_logs set action = 'forged' where id = ${target.id}`,
      `delete from public.audit_logs where id = ${target.id}`,
      `truncate public.audit_logs`,
    ]) {
      const outcome = await db.transaction((tx) => tx.query(sql)).then(
        () => ({ ok: true }) as const,
        (e: { code?: string; message?: string }) => ({ ok: false, code: e.code, message: e.message }),
      )
      expectRefused(outcome, '42501', /^Le journal d'audit est en lecture seule\.$/)
    }
    expect(await trail()).toEqual(before)
  })

  it('deleting a person keeps their name and e-mail on what they did', async () => {
    const temp = await createUser(db, { role: 'admin' })
    const mark = await auditMark(db)
    await actAs(db, temp, (tx) => tx.query(`update public.users set position = 'Intérim' where id = $1`, [teamMembers.paul]))
    const name = await nameOf(temp.id)
    await actAs(db, 'admin', (tx) => tx.query(`delete from public.users where id = $1`, [temp.id]))
    const row = only(await auditSince(db, mark), 'update', 'users', teamMembers.paul)
    expect(row).toMatchObject({ user_id: temp.id, user_email: temp.email, user_name: name })
  })
})

// Last but one: reads what the writes above left.
describe('the search text of each row', () => {
  it('is the row’s actor, action, resource and details, then the names it shows, one per row, written by the trigger whatever the writer sends', async () => {
    await db.query(`insert into public.audit_logs (action, resource_type, resource_id, details, search_id) values ('test', 'test', 'x', '{"k": "v"}', 1)`)
    // The names are those of the time of the event (tests/db/audit-search.test.ts): only the row's part is compared.
    const { rows } = await db.query<{ rows: number | string; texts: number | string; wrong: number | string }>(`
      select count(*) as rows, count(distinct s.id) as texts,
             count(*) filter (where not starts_with(s.body, coalesce(l.user_email, '') || chr(10) || coalesce(l.user_name, '')
               || chr(10) || l.action || chr(10) || l.resource_type || chr(10) || coalesce(l.resource_id, '') || chr(10)
               || l.details::text || chr(10)) or s.body is null) as wrong
        from public.audit_logs l
        left join private.audit_search s on s.id = l.search_id`)
    expect(Number(rows[0]!.rows)).toBeGreaterThan(10)
    expect(Number(rows[0]!.wrong)).toBe(0)
    expect(Number(rows[0]!.texts)).toBe(Number(rows[0]!.rows))
  })

  it.each(callers)('is read by no API role but through the RSSI’s search: %s', async (caller) => {
    const outcome = await attempt(db, caller, (tx) => tx.query(`select body from private.audit_search limit 1`))
    expectRefused(outcome, '42501')
  })
})

describe('who reads the trail', () => {
  it.each(callers)('%s', async (caller) => {
    const total = await count(db, `select count(*) from public.audit_logs`)
    const outcome = await attempt(db, caller, (tx) => tx.query<{ n: number | string }>(`select count(*) as n from public.audit_logs`))
    if (caller === 'anon') return expectRefused(outcome, '42501')
    expect(total).toBeGreaterThan(0)
    expect(Number(outcome.value!.rows[0]!.n)).toBe(caller === 'rssi' ? total : 0)
  })
})
