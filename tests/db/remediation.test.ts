// Remediation: a refused right « à supprimer », its removal requested by the RA (ticket or connector), then settled by
// the application's next complete snapshot: constatée when gone, non constatée when still there past the delay. Who
// may do what, the connector's functions reserved to the secret key, and every transition in the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, demo, type Actor } from './support/actors'
import { auditMark, auditSince, callers, createApplication, createDraftCampaign, createRight, decide, expectRefused, one, unique } from './support/fixtures'

let db: Database

beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

interface Removal {
  id: string
  state: string
  method: string
  ticket: string | null
  verified_at: string | null
  verified_source: string | null
  unverified_at: string | null
  apply_outcome: string | null
}

const requestRemoval = (actor: Actor, rightId: string, method: string, ticket: string | null = null) =>
  attempt(db, actor, async (tx) =>
    (await one<{ r: Removal }>(tx, `select public.request_right_removal($1, $2, $3) as r`, [rightId, method, ticket])).r,
  )

const snapshot = (actor: Actor, application: string, rows: { email: string; role_name: string }[], dryRun = false) =>
  attempt(db, actor, async (tx) =>
    (await one<{ r: Record<string, unknown> }>(tx, `select public.import_rights_snapshot($1, $2::jsonb, $3) as r`, [
      application,
      JSON.stringify(rows.map((row, index) => ({ line: index + 2, ...row }))),
      dryRun,
    ])).r,
  )

const removalOf = async (rightId: string) =>
  (await db.query<Removal>(`select * from public.right_removals where right_id = $1`, [rightId])).rows[0]

/** An application of the demo owners, with a campaign over it that runs, whose rights are then decided and closed. */
async function closedReview(decisions: Record<string, 'refused_manager' | 'validated_manager' | null>) {
  const applicationId = await createApplication(db)
  const { name } = await one<{ name: string }>(db, `select name from public.applications where id = $1`, [applicationId])
  const campaign = await createDraftCampaign(db, { applicationId })
  const rights: Record<string, string> = {}
  for (const role of Object.keys(decisions)) rights[role] = await createRight(db, { applicationId, campaignId: campaign, roleName: role })
  await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [campaign]))
  for (const [role, status] of Object.entries(decisions)) {
    if (status) expect((await decide(db, 'manager', rights[role]!, status)).ok).toBe(true)
  }
  await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [campaign]))
  return { applicationId, name, campaign, rights }
}

const connectorManaged = (applicationId: string) =>
  db.query(`insert into public.remediation_settings (application_id, connector_managed) values ($1, true)`, [applicationId])

describe('the RA asks for a removal', () => {
  it('records a ticket on a refused right, treats it and audits both', async () => {
    const { rights } = await closedReview({ Lecteur: 'refused_manager' })
    const mark = await auditMark(db)
    const outcome = await requestRemoval('ra', rights.Lecteur!, 'ticket', '  INC-1234 ')
    expect(outcome.ok, outcome.message).toBe(true)
    expect(outcome.value).toMatchObject({ state: 'requested', method: 'ticket', ticket: 'INC-1234' })
    const { status } = await one<{ status: string }>(db, `select status::text from public.user_rights where id = $1`, [rights.Lecteur])
    expect(status).toBe('treated')
    const trail = await auditSince(db, mark)
    expect(trail.map((row) => `${row.action} ${row.resource_type}`)).toEqual(expect.arrayContaining(['decide user_rights', 'create right_removals']))
    expect(trail.find((row) => row.resource_type === 'right_removals')?.user_email).toBe(demo.ra.email)
  })

  it.each(callers.filter((caller) => caller !== 'ra'))('%s cannot ask for it', async (caller) => {
    const { rights } = await closedReview({ Lecteur: 'refused_manager' })
    const outcome = await requestRemoval(caller, rights.Lecteur!, 'ticket', 'INC-1')
    expect(outcome.ok).toBe(false)
    expect(await removalOf(rights.Lecteur!)).toBeUndefined()
  })

  it('refuses a missing ticket, an unknown method, a right not refused and the connector where none manages the application', async () => {
    const { applicationId, rights } = await closedReview({ Lecteur: 'refused_manager', Gardé: 'validated_manager' })
    expectRefused(await requestRemoval('ra', rights.Lecteur!, 'ticket', '  '), '22023', /référence du ticket/)
    expectRefused(await requestRemoval('ra', rights.Lecteur!, 'courrier'), '22023', /ticket ou par le connecteur/)
    expectRefused(await requestRemoval('ra', rights.Lecteur!, 'connector'), '22023', /pas gérée par le connecteur/)
    // Approved by the manager, then left undecided by the BPO Métier at closure: it awaits treatment too.
    const kept = await requestRemoval('ra', rights.Gardé!, 'ticket', 'INC-2')
    expect(kept.ok, kept.message).toBe(true)
    const pending = await createRight(db, { applicationId, campaignId: null })
    expectRefused(await requestRemoval('ra', pending, 'ticket', 'INC-3'), '22023', /n'attend pas de suppression/)
    await connectorManaged(applicationId)
    expect((await requestRemoval('ra', rights.Lecteur!, 'connector')).value).toMatchObject({ method: 'connector', ticket: null })
    expectRefused(await requestRemoval('ra', rights.Lecteur!, 'connector'), '22023', /n'attend pas de suppression/)
  })

  it('lets nobody write removals directly', async () => {
    const { rights } = await closedReview({ Lecteur: 'refused_manager' })
    await requestRemoval('ra', rights.Lecteur!, 'ticket', 'INC-9')
    for (const actor of ['ra', 'admin', 'rssi'] as const) {
      const outcome = await attempt(db, actor, (tx) => tx.query(`update public.right_removals set state = 'verified' where right_id = $1`, [rights.Lecteur]))
      expectRefused(outcome, '42501')
    }
    expect((await removalOf(rights.Lecteur!))?.state).toBe('requested')
  })
})

describe('who reads removals', () => {
  it('the application owners, administrators and the RSSI; not the holder or another RA', async () => {
    const otherRa = (await db.query<{ id: string; email: string }>(
      `insert into public.users (email, first_name, last_name, role) values ($1, 'Autre', 'RA', 'ra') returning id, email`,
      [`${unique('ra').replace(' ', '.')}@example.org`],
    )).rows[0]!
    const { rights } = await closedReview({ Lecteur: 'refused_manager' })
    await requestRemoval('ra', rights.Lecteur!, 'ticket', 'INC-5')
    const sees = (actor: Actor) =>
      actAs(db, actor, (tx: Sql) => tx.query(`select id from public.right_removals where right_id = $1`, [rights.Lecteur])).then((r) => r.rows.length)
    for (const actor of ['ra', 'bpo_metier', 'admin', 'rssi'] as const) expect(await sees(actor), actor).toBe(1)
    for (const actor of ['user', 'manager', otherRa] as const) expect(await sees(actor)).toBe(0)
    expectRefused(await attempt(db, 'anon', (tx) => tx.query(`select id from public.right_removals`)), '42501')
  })
})

describe('the next complete snapshot settles removals', () => {
  it('constatée when the list no longer holds the right, with the date and the source; nothing else changes', async () => {
    const { name, rights } = await closedReview({ Lecteur: 'refused_manager', Éditeur: 'refused_manager' })
    await requestRemoval('ra', rights.Lecteur!, 'ticket', 'INC-10')
    await requestRemoval('ra', rights.Éditeur!, 'ticket', 'INC-11')
    const rows = [{ email: demo.user.email, role_name: 'Éditeur' }]
    const preview = await snapshot('admin', name, rows, true)
    expect(preview.value).toMatchObject({ success: true, dry_run: true, verified: 1, unverified: 0 })
    expect((await removalOf(rights.Lecteur!))?.state).toBe('requested')

    const mark = await auditMark(db)
    const applied = await snapshot('admin', name, rows)
    expect(applied.value).toMatchObject({ success: true, created: 0, present: 1, absent: 1, verified: 1 })
    expect(await removalOf(rights.Lecteur!)).toMatchObject({ state: 'verified', verified_source: 'csv' })
    expect((await removalOf(rights.Lecteur!))?.verified_at).not.toBeNull()
    expect((await removalOf(rights.Éditeur!))?.state).toBe('requested')
    const trail = await auditSince(db, mark)
    expect(trail.find((row) => row.resource_type === 'right_removals')?.details).toMatchObject({
      changes: { state: { old: 'requested', new: 'verified' } },
    })
  })

  it('non constatée when still there past the application’s delay, then constatée once gone', async () => {
    const { applicationId, name, rights } = await closedReview({ Lecteur: 'refused_manager' })
    await actAs(db, 'rssi', (tx) => tx.query(`select public.set_removal_delay($1, 0)`, [applicationId]))
    await requestRemoval('ra', rights.Lecteur!, 'ticket', 'INC-20')
    const still = await snapshot('rssi', name, [{ email: demo.user.email, role_name: 'Lecteur' }])
    expect(still.value).toMatchObject({ success: true, verified: 0, unverified: 1 })
    expect((await removalOf(rights.Lecteur!))?.state).toBe('unverified')
    await snapshot('rssi', name, [])
    expect((await removalOf(rights.Lecteur!))?.state).toBe('verified')
  })

  it('adds the rights the list names and Recertif lacks, and refuses a wrong list whole', async () => {
    const { name } = await closedReview({ Lecteur: null })
    const refused = await snapshot('admin', name, [{ email: 'personne@nulle.part', role_name: 'X' }, { email: demo.user.email, role_name: '' }])
    expect(refused.value).toMatchObject({ success: false, created: 0 })
    expect((refused.value as { errors: unknown[] }).errors).toEqual([
      { line: 2, errors: ['utilisateur inconnu : personne@nulle.part'] },
      { line: 3, errors: ['rôle manquant'] },
    ])
    const added = await snapshot('admin', name, [{ email: demo.manager.email, role_name: 'Nouveau' }])
    expect(added.value).toMatchObject({ success: true, created: 1 })
    expect((await snapshot('admin', name, [{ email: demo.manager.email, role_name: 'Nouveau' }])).value).toMatchObject({ created: 0, present: 1 })
  })

  it.each(callers.filter((caller) => caller !== 'admin' && caller !== 'rssi'))('%s cannot import a snapshot', async (caller) => {
    const { name } = await closedReview({ Lecteur: null })
    expect((await snapshot(caller, name, [])).ok).toBe(false)
  })
})

describe('the connector’s functions', () => {
  it('are the secret key’s only', async () => {
    for (const caller of callers) {
      for (const call of [
        `select public.connector_sync('{}'::jsonb)`,
        `select * from public.connector_pending_removals()`,
        `select public.connector_record_removals('admin@example.com', '[]'::jsonb)`,
      ]) {
        expectRefused(await attempt(db, caller, (tx) => tx.query(call)), '42501')
      }
    }
  })

  it('lists only connector removals of rights a completed review refused, and records what it did', async () => {
    const { applicationId, name, rights } = await closedReview({ Lecteur: 'refused_manager', Gardé: 'validated_manager' })
    await connectorManaged(applicationId)
    await requestRemoval('ra', rights.Lecteur!, 'connector')
    await requestRemoval('ra', rights.Gardé!, 'connector')
    const pending = await actAs(db, 'service_role', (tx) =>
      tx.query<{ id: string; role_name: string; application_name: string }>(`select * from public.connector_pending_removals() where application_name = $1`, [name]),
    )
    expect(pending.rows.map((row) => row.role_name).sort()).toEqual(['Gardé', 'Lecteur'])

    const lecteur = (await removalOf(rights.Lecteur!))!.id
    const stranger = await attempt(db, 'service_role', (tx) =>
      tx.query(`select public.connector_record_removals('admin@example.com', $1::jsonb)`, [
        JSON.stringify([{ id: lecteur, outcome: 'removed' }, { id: '00000000-0000-4000-a000-000000000001', outcome: 'removed' }]),
      ]),
    )
    expectRefused(stranger, '22023', /pas demandée/)
    expect((await removalOf(rights.Lecteur!))?.apply_outcome).toBeNull()
    const asUser = await attempt(db, 'service_role', (tx) =>
      tx.query(`select public.connector_record_removals('user@example.com', $1::jsonb)`, [JSON.stringify([{ id: lecteur, outcome: 'removed' }])]),
    )
    expectRefused(asUser, '42501', /administrateur ou le RSSI/)
    await actAs(db, 'service_role', (tx) =>
      tx.query(`select public.connector_record_removals('admin@example.com', $1::jsonb)`, [JSON.stringify([{ id: lecteur, outcome: 'removed' }])]),
    )
    expect((await removalOf(rights.Lecteur!))?.apply_outcome).toBe('removed')
    const after = await actAs(db, 'service_role', (tx) =>
      tx.query<{ role_name: string }>(`select role_name from public.connector_pending_removals() where application_name = $1`, [name]),
    )
    expect(after.rows.map((row) => row.role_name)).toEqual(['Gardé'])
  })

  it('imports the directory and the snapshots all or nothing, as the named account', async () => {
    const { name, rights } = await closedReview({ Lecteur: 'refused_manager' })
    await requestRemoval('ra', rights.Lecteur!, 'ticket', 'INC-30')
    const directory = (
      await db.query<Record<string, string | null>>(
        `select u.email, u.first_name, u.last_name, u.position, u.department, m.email as manager_email
           from public.users u left join public.users m on m.id = u.manager_id where u.active`,
      )
    ).rows
    const run = (applications: unknown[]) =>
      attempt(db, 'service_role', async (tx) =>
        (await one<{ r: Record<string, unknown> }>(tx, `select public.connector_sync($1::jsonb) as r`, [
          JSON.stringify({ account: demo.rssi.email, directory, applications }),
        ])).r,
      )
    const broken = await run([{ name, rows: [] }, { name, rows: [{ email: 'inconnu@nulle.part', role_name: 'X' }] }])
    expectRefused(broken, '22023', /sont refusés : rien n'a été importé/)
    expect((await removalOf(rights.Lecteur!))?.state).toBe('requested')

    const done = await run([{ name, rows: [] }])
    expect(done.ok, done.message).toBe(true)
    expect(await removalOf(rights.Lecteur!)).toMatchObject({ state: 'verified', verified_source: 'connector' })
    const { connector_managed } = await one<{ connector_managed: boolean }>(
      db,
      `select connector_managed from public.remediation_settings s join public.applications a on a.id = s.application_id where a.name = $1`,
      [name],
    )
    expect(connector_managed).toBe(true)
  })
})
