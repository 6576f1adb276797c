// Directory synchronisation: the directory and applications imported from files, all or nothing with a
// French report per line; leavers deactivated, never deleted, their rights the RSSI's first risk and « Refuser » in
// the reviewers' queues; only admin and rssi import, deactivate or invite.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, demo, teamMembers, type Actor } from './support/actors'
import { applicationId, auditMark, auditSince, callers, count, createRight, createUser, decide, expectRefused, one, unique } from './support/fixtures'

let db: Database
let sap: string

beforeAll(async () => {
  db = await freshDatabase()
  sap = await applicationId(db, 'SAP Finance')
})
afterAll(() => db.close())

interface DirectoryReport {
  success: boolean
  dry_run: boolean
  complete: boolean
  lines: number
  created: number
  updated: number
  moved: number
  reactivated: number
  leaving: number
  unchanged: number
  errors: { line: number; errors: string[] }[]
  invite: string[]
  deactivated: string[]
  reactivated_emails: string[]
}

interface Person {
  email: string
  first_name?: string
  last_name?: string
  position?: string
  department?: string
  manager_email?: string
  role?: string
}

/** Lines as the browser sends them: the header is line 1. */
const lines = (people: Person[]) => people.map((person, index) => ({ line: index + 2, first_name: 'Prénom', last_name: unique('Nom'), ...person }))

function importDirectory(actor: Actor, rows: unknown, options: { complete?: boolean; dryRun?: boolean } = {}) {
  return attempt(db, actor, async (tx) =>
    (
      await one<{ r: DirectoryReport }>(tx, `select public.import_directory($1::jsonb, $2, $3) as r`, [
        JSON.stringify(rows),
        options.complete ?? false,
        options.dryRun ?? false,
      ])
    ).r,
  )
}

const email = (prefix: string) => `${prefix}.${randomUUID().slice(0, 8)}@import.example.org`

/** The whole directory as stored, to compare before and after a refused import. */
const snapshot = async () =>
  (await db.query(`select id, email, first_name, last_name, role, position, department, manager_id, active from public.users order by id`)).rows

const managerOf = async (address: string) =>
  (await db.query<{ manager: string | null }>(
    `select m.email as manager from public.users u left join public.users m on m.id = u.manager_id where lower(u.email) = lower($1)`,
    [address],
  )).rows[0]?.manager

describe('who may import, deactivate and invite', () => {
  const others = callers.filter((caller) => caller !== 'admin' && caller !== 'rssi')

  it.each(others)('%s cannot import the directory or applications, deactivate anyone or invite', async (caller) => {
    const before = await snapshot()
    const invitations = () => db.query(`select id from public.notifications where kind = 'invitation' order by id`).then((r) => r.rows)
    const invitationsBefore = await invitations()
    const person = lines([{ email: email('refus') }])
    const outcomes = [
      await importDirectory(caller, person),
      await attempt(db, caller, (tx) => tx.query(`select public.import_applications($1::jsonb, false)`, [JSON.stringify([{ name: unique('App') }])])),
      await attempt(db, caller, (tx) => tx.query(`select public.set_user_active($1, false)`, [teamMembers.paul])),
      await attempt(db, caller, (tx) => tx.query(`select public.invitation_emails($1::text[])`, [['paul.mercier@example.com']])),
    ]
    for (const outcome of outcomes) {
      if (caller === 'anon') expectRefused(outcome, '42501', /permission denied/)
      else expectRefused(outcome, '42501', /Seuls les administrateurs et le RSSI/)
    }
    expect(await snapshot()).toEqual(before)
    expect(await invitations()).toEqual(invitationsBefore)
  })

  it.each(['admin', 'rssi'] as const)('%s imports, deactivates, reactivates and invites through the outbox', async (caller) => {
    const address = email(caller)
    const report = await importDirectory(caller, lines([{ email: address }]))
    expect(report.value).toMatchObject({ success: true, created: 1, invite: [address] })
    const { id } = await one<{ id: string }>(db, `select id from public.users where email = $1`, [address])
    const invite = async (emails: string[]) =>
      actAs(db, caller, async (tx) => (await tx.query<{ email: string; already: boolean }>(`select * from public.invitation_emails($1::text[])`, [emails])).rows)
    const outbox = async () =>
      (await db.query<{ kind: string; status: string; recipient_id: string; payload: Record<string, unknown> }>(
        `select kind::text, status::text, recipient_id::text, payload from public.notifications where recipient_email = $1`, [address])).rows
    expect(await invite([address.toUpperCase()])).toEqual([{ email: address, already: false }])
    // The invitation is in the outbox with the request, for the pass to make its link and mail it; asked again while
    // it waits, it stays one message.
    expect(await invite([address])).toEqual([{ email: address, already: false }])
    const inviter = await one<{ n: string }>(db, `select first_name || ' ' || last_name as n from public.users where id = $1`, [demo[caller].id])
    expect(await outbox()).toEqual([{ kind: 'invitation', status: 'queued', recipient_id: id, payload: expect.objectContaining({ inviter_name: inviter.n }) }])
    // Once sent, a new request queues it again (the first link may have expired).
    await db.query(`update public.notifications set status = 'sent', attempts = 1, sent_at = now() where recipient_email = $1`, [address])
    await invite([address])
    expect((await outbox()).map((row) => row.status)).toEqual(['queued'])
    // Someone who already has a password needs no invitation.
    await db.query(`update public.notifications set status = 'sent' where recipient_email = $1`, [address])
    await db.query(`insert into auth.users (id, aud, role, email, email_confirmed_at) values (gen_random_uuid(), 'authenticated', 'authenticated', $1, now())`, [address])
    expect(await invite([address])).toEqual([{ email: address, already: true }])
    expect((await outbox()).map((row) => row.status)).toEqual(['sent'])
    await actAs(db, caller, (tx) => tx.query(`select public.set_user_active($1, false)`, [id]))
    expect(await one(db, `select active, deactivated_by::text as by from public.users where id = $1`, [id])).toEqual({ active: false, by: demo[caller].id })
    // A leaver is not invited, and an invitation still waiting when they left is not sent: its link would make them
    // an account. Reactivated, they get it.
    expect(await invite([address])).toEqual([])
    await db.query(`update public.notifications set status = 'queued', attempts = 0, next_attempt_at = now() where recipient_email = $1`, [address])
    const claimed = async () =>
      (await actAs(db, 'service_role', async (tx) => (await tx.query<{ recipient_email: string }>(`select recipient_email from public.claim_notifications(500, now() + interval '1 day')`)).rows))
        .map((row) => row.recipient_email)
    expect(await claimed()).not.toContain(address)
    await actAs(db, caller, (tx) => tx.query(`select public.set_user_active($1, true)`, [id]))
    expect(await one(db, `select active, deactivated_at from public.users where id = $1`, [id])).toEqual({ active: true, deactivated_at: null })
    expect(await claimed()).toContain(address)
  })

  it('nobody deactivates themselves, and nobody writes active through the API', async () => {
    expectRefused(await attempt(db, 'admin', (tx) => tx.query(`select public.set_user_active($1, false)`, [demo.admin.id])), '42501', /propre compte/)
    expectRefused(
      await attempt(db, 'admin', (tx) => tx.query(`update public.users set active = false where id = $1`, [teamMembers.paul])),
      '42501',
      /permission denied/,
    )
  })
})

describe('import_directory', () => {
  it('creates and updates people matched by e-mail without case, and sets the tree whatever the order of lines', async () => {
    const [boss, middle, worker] = [email('chef'), email('milieu'), email('agent')]
    const mark = await auditMark(db)
    // The worker comes first, naming a manager who is only created two lines below.
    const rows = lines([
      { email: worker, manager_email: middle.toUpperCase(), role: 'Utilisateur', position: 'Comptable' },
      { email: boss, role: 'Manager' },
      { email: middle, manager_email: boss, role: 'manager', department: 'Finance' },
      { email: 'THOMAS.ROUX@example.com', first_name: 'Thomas', last_name: 'Roux', manager_email: boss, position: 'Analyste' },
    ])
    const preview = await importDirectory('admin', rows, { dryRun: true })
    expect(preview.value).toMatchObject({ success: true, dry_run: true, lines: 4, created: 3, updated: 1, moved: 1, errors: [], invite: [] })
    expect(await count(db, `select count(*) from public.users where email = any ($1)`, [[boss, middle, worker]])).toBe(0)

    const report = await importDirectory('admin', rows)
    expect(report.value).toMatchObject({ success: true, dry_run: false, created: 3, updated: 1, moved: 1, unchanged: 0, invite: [worker, boss, middle] })
    expect(await managerOf(worker)).toBe(middle)
    expect(await managerOf(middle)).toBe(boss)
    expect(await managerOf('thomas.roux@example.com')).toBe(boss)
    expect(await managerOf(boss)).toBeNull()
    expect(await one(db, `select role, position from public.users where email = $1`, [worker])).toEqual({ role: 'user', position: 'Comptable' })

    const events = await auditSince(db, mark)
    expect(events.filter((e) => e.resource_type === 'users' && e.action === 'create')).toHaveLength(3)
    expect(events.filter((e) => e.resource_type === 'users' && e.action === 'update').map((e) => e.resource_id)).toEqual([teamMembers.thomas])
    expect(events.filter((e) => e.action === 'import_directory').map((e) => e.details)).toEqual([
      { lines: 4, created: 3, updated: 1, moved: 1, reactivated: 0, leaving: 0, complete: false },
    ])

    // Written in one statement, the events are sealed in the chain like any other.
    expect(await actAs(db, 'rssi', async (tx) => (await one<{ r: { intact: boolean } }>(tx, `select public.verify_audit_chain() as r`)).r.intact)).toBe(true)

    // The same file again changes nothing and audits only the import itself.
    const again = await importDirectory('admin', rows)
    expect(again.value).toMatchObject({ created: 0, updated: 0, unchanged: 4 })
  })

  it('reports a loop in the manager tree on each of its lines, and changes nothing', async () => {
    const [a, b, c] = [email('a'), email('b'), email('c')]
    const before = await snapshot()
    const report = await importDirectory(
      'admin',
      lines([
        { email: a, manager_email: b },
        { email: b, manager_email: c },
        { email: c, manager_email: a },
      ]),
    )
    expect(report.value?.success).toBe(false)
    expect(report.value?.errors.map((e) => e.line)).toEqual([2, 3, 4])
    expect(report.value?.errors[0]?.errors).toEqual([`la chaîne des managers forme une boucle : ${a} → ${b} → ${c} → ${a}`])
    expect(await snapshot()).toEqual(before)
  })

  it('sees a loop through people of the directory the file does not name', async () => {
    // Emma's manager is Marc (seed); making Marc report to Emma closes the loop.
    const report = await importDirectory('admin', lines([{ email: 'manager@example.com', first_name: 'Marc', last_name: 'Dubois', manager_email: 'emma.girard@example.com', role: 'manager' }]))
    expect(report.value?.errors).toEqual([{ line: 2, errors: [expect.stringMatching(/^la chaîne des managers forme une boucle : manager@example\.com → /)] }])
  })

  it('reports duplicates, unknown managers and roles, bad e-mails and hostile lengths, each with its line, and writes nothing', async () => {
    const twice = email('double')
    const before = await snapshot()
    const report = await importDirectory(
      'rssi',
      lines([
        { email: twice },
        { email: twice.toUpperCase() },
        { email: email('orphelin'), manager_email: 'personne@nulle-part.example' },
        { email: email('roi'), role: 'Empereur' },
        { email: 'pas-un-email' },
        { email: email('long'), first_name: 'x'.repeat(101) },
        { email: email('moi'), manager_email: 'MOI@x.example', first_name: 'Moi' },
        { email: 'moi@x.example', manager_email: 'moi@x.example' },
        { email: 'rssi@example.com', first_name: 'Sophie', last_name: 'Laurent', role: 'user' },
      ]),
    )
    expect(report.value?.success).toBe(false)
    expect(report.value?.errors).toEqual([
      { line: 3, errors: [`doublon de la ligne 2 (${twice.toUpperCase()})`] },
      { line: 4, errors: ['manager inconnu : personne@nulle-part.example (ni dans le fichier ni dans l\'annuaire)'] },
      {
        line: 5,
        errors: [
          "rôle inconnu : Empereur (attendus : Utilisateur, Manager, BPO Métier, BPO Groupe, Responsable d'Application, Administrateur, RSSI)",
        ],
      },
      { line: 6, errors: ['e-mail invalide : pas-un-email'] },
      { line: 7, errors: ['prénom trop long (100 caractères au plus)'] },
      { line: 9, errors: ['une personne ne peut pas être son propre manager'] },
      { line: 10, errors: ['vous ne pouvez pas modifier votre propre rôle'] },
    ])
    expect(await snapshot()).toEqual(before)
  })

  it('reports a file from another tool line by line: none of the expected columns', async () => {
    const report = await importDirectory('admin', [
      { line: 2, Matricule: '0042', Service: 'Compta' },
      { line: 3, Matricule: '0043', Service: 'Paie' },
    ])
    expect(report.value?.errors).toEqual([
      { line: 2, errors: ['e-mail manquant', 'prénom manquant', 'nom manquant'] },
      { line: 3, errors: ['e-mail manquant', 'prénom manquant', 'nom manquant'] },
    ])
  })

  it('refuses a file of 50,000 lines whole, in French, before reading it', async () => {
    const before = await count(db, `select count(*) from public.users`)
    const rows = Array.from({ length: 50_000 }, (_, index) => ({ line: index + 2, email: `p${index}@big.example.org`, first_name: 'A', last_name: 'B' }))
    const outcome = await importDirectory('admin', rows)
    expectRefused(outcome, '22023', /^Le fichier contient 50.000 lignes : 20.000 au plus par import\.$/)
    expect(await count(db, `select count(*) from public.users`)).toBe(before)
  })

  it('changes no decision already taken while a campaign runs', async () => {
    const holder = await createUser(db, { managerId: demo.manager.id })
    const rightId = await createRight(db, { holder: holder.id, applicationId: sap })
    await decide(db, { id: holder.id, email: holder.email }, rightId, 'approved')
    const decisions = async () => (await db.query(`select * from public.right_decisions order by id`)).rows
    const rights = async () => (await db.query(`select id, status, campaign_id from public.user_rights order by id`)).rows
    const [decisionsBefore, rightsBefore] = [await decisions(), await rights()]

    const report = await importDirectory('admin', lines([{ email: holder.email, manager_email: 'thomas.roux@example.com' }]))
    expect(report.value).toMatchObject({ success: true, moved: 1 })
    await actAs(db, 'admin', (tx) => tx.query(`select public.set_user_active($1, false)`, [holder.id]))
    expect(await decisions()).toEqual(decisionsBefore)
    expect(await rights()).toEqual(rightsBefore)
  })
})

describe('leavers', () => {
  it('lose their powers at once: a token issued before the deactivation no longer administers anything', async () => {
    const leaver = await createUser(db, { role: 'admin' })
    const asLeaver = { id: leaver.id, email: leaver.email }
    const createCampaign = (tx: Parameters<Parameters<typeof actAs>[2]>[0]) =>
      tx.query(`insert into public.campaigns (name, start_date, end_date) values ($1, current_date, current_date + 1)`, [unique('Campagne')])
    expect((await attempt(db, asLeaver, createCampaign)).ok).toBe(true)
    await actAs(db, 'admin', (tx) => tx.query(`select public.set_user_active($1, false)`, [leaver.id]))
    const refused = await attempt(db, asLeaver, createCampaign)
    expect(refused.ok).toBe(false)
    expect(refused.code).toBe('42501')
    expectRefused(await attempt(db, asLeaver, (tx) => tx.query(`select public.set_user_active($1, false)`, [teamMembers.paul])), '42501')
  })

  it("become the RSSI's first risk and get « Refuser » in their reviewers' queues", async () => {
    const leaver = await createUser(db, { managerId: demo.manager.id })
    const rightId = await createRight(db, { holder: leaver.id, applicationId: sap })
    const risk = async () =>
      (await actAs(db, 'rssi', async (tx) => (await one<{ r: { risks: { key: string; label: string; count: number }[] } }>(tx, `select public.rssi_dashboard() as r`)).r)).risks[0]
    const queued = async () =>
      actAs(db, 'manager', async (tx) => one<{ suggests_refusal: boolean; recommendation: string | null }>(tx, `select suggests_refusal, recommendation from public.review_queue() where right_id = $1`, [rightId]))
    // The right is pending at the holder's stage: the holder decides first, then it reaches the manager.
    await decide(db, { id: leaver.id, email: leaver.email }, rightId, 'approved')

    const before = await risk()
    expect(before).toMatchObject({ key: 'expired', label: 'Comptes expirés' })
    expect((await queued()).recommendation).toBe('Jamais utilisé')

    await actAs(db, 'admin', (tx) => tx.query(`select public.set_user_active($1, false)`, [leaver.id]))
    expect((await risk())?.count).toBe((before?.count ?? 0) + 1)
    expect(await queued()).toEqual({ suggests_refusal: true, recommendation: 'Refuser : compte désactivé' })
    // Never deleted: the profile and the right are still there.
    expect(await count(db, `select count(*) from public.user_rights where id = $1`, [rightId])).toBe(1)
  })

  it('complete mode: says who will leave in the preview, then deactivates them; the caller cannot leave', async () => {
    const { rows: everyone } = await db.query<Person & { manager_email: string | null }>(
      `select u.email, u.first_name, u.last_name, u.position, u.department, m.email as manager_email, u.role::text as role
         from public.users u left join public.users m on m.id = u.manager_id
        where u.active order by u.email`,
    )
    const leavers = [everyone.find((p) => p.email === 'paul.mercier@example.com'), everyone.find((p) => p.email === 'lucas.bonnet@example.com')]
    expect(leavers.every(Boolean)).toBe(true)
    const staying = everyone.filter((p) => !leavers.includes(p)).map((p) => ({ ...p, manager_email: p.manager_email ?? undefined, position: p.position ?? undefined, department: p.department ?? undefined }))
    const rows = staying.map((p, index) => ({ line: index + 2, ...p }))

    const preview = await importDirectory('admin', rows, { complete: true, dryRun: true })
    expect(preview.value).toMatchObject({ success: true, leaving: 2, created: 0, updated: 0, deactivated: [] })
    expect(await count(db, `select count(*) from public.users where not active and email = any ($1)`, [leavers.map((p) => p!.email)])).toBe(0)

    const mark = await auditMark(db)
    const report = await importDirectory('admin', rows, { complete: true })
    expect(report.value).toMatchObject({ success: true, leaving: 2, deactivated: ['lucas.bonnet@example.com', 'paul.mercier@example.com'] })
    expect(await count(db, `select count(*) from public.users where not active and email = any ($1)`, [leavers.map((p) => p!.email)])).toBe(2)
    const events = await auditSince(db, mark)
    expect(events.filter((e) => e.action === 'update' && e.resource_type === 'users')).toHaveLength(2)
    expect(events.find((e) => e.action === 'import_directory')?.details).toMatchObject({ leaving: 2, complete: true })

    // Back in the file: reactivated; someone new in a complete file is created and stays active.
    const newcomer = email('nouveau')
    const back = await importDirectory('admin', [...rows, { line: rows.length + 2, ...leavers[0]!, manager_email: leavers[0]!.manager_email ?? undefined }, { line: rows.length + 3, email: newcomer, first_name: 'Nina', last_name: 'Nouvelle' }], { complete: true })
    expect(back.value).toMatchObject({ success: true, created: 1, reactivated: 1, leaving: 0, deactivated: [], reactivated_emails: [leavers[0]!.email], invite: [newcomer] })
    expect(await one(db, `select active from public.users where email = $1`, [newcomer])).toEqual({ active: true })

    const withoutMe = rows.filter((p) => p.email !== 'admin@example.com')
    expectRefused(await importDirectory('admin', withoutMe, { complete: true, dryRun: true }), '22023', /Votre propre compte est absent du fichier/)
  })
})

describe('import_applications', () => {
  it('creates and updates applications by name, owners checked against their roles', async () => {
    const name = unique('Application')
    const rows = [
      { line: 2, name, description: 'Créée par import', ra_email: 'RA@example.com', bpo_metier_email: 'bpo@example.com' },
      { line: 3, name: 'sap finance', description: 'Mise à jour', ra_email: 'ra@example.com', bpo_metier_email: 'bpo@example.com', bpo_groupe_email: 'bpo.groupe@example.com', rssi_email: 'rssi@example.com' },
    ]
    const run = (dryRun: boolean) =>
      actAs(db, 'admin', async (tx) => (await one<{ r: Record<string, unknown> }>(tx, `select public.import_applications($1::jsonb, $2) as r`, [JSON.stringify(rows), dryRun])).r)
    expect(await run(true)).toMatchObject({ success: true, created: 1, updated: 1 })
    expect(await count(db, `select count(*) from public.applications where name = $1`, [name])).toBe(0)
    expect(await run(false)).toMatchObject({ success: true, created: 1, updated: 1, errors: [] })
    expect(await one(db, `select description from public.applications where id = $1`, [sap])).toEqual({ description: 'Mise à jour' })
  })

  it('reports every bad owner and duplicate with its line, and writes nothing', async () => {
    const gone = await createUser(db, { role: 'ra' })
    await actAs(db, 'admin', (tx) => tx.query(`select public.set_user_active($1, false)`, [gone.id]))
    const before = await count(db, `select count(*) from public.applications`)
    const name = unique('Application')
    const report = await actAs(db, 'rssi', async (tx) =>
      (
        await one<{ r: { success: boolean; errors: unknown } }>(tx, `select public.import_applications($1::jsonb, false) as r`, [
          JSON.stringify([
            { line: 2, name, ra_email: 'ra@example.com', bpo_metier_email: 'bpo@example.com' },
            { line: 3, name: name.toUpperCase(), ra_email: 'user@example.com', bpo_metier_email: 'inconnu@example.org' },
            { line: 4, name: unique('App'), ra_email: gone.email },
            { line: 5, Logiciel: 'Autre outil' },
          ]),
        ])
      ).r,
    )
    expect(report).toEqual({
      success: false,
      dry_run: false,
      lines: 4,
      created: 4,
      updated: 0,
      unchanged: 0,
      errors: [
        { line: 3, errors: [`doublon de la ligne 2 (${name.toUpperCase()})`, "RA : user@example.com n'a pas le rôle Responsable d'Application", 'BPO Métier inconnu : inconnu@example.org'] },
        { line: 4, errors: [`RA : ${gone.email} est désactivé`, 'BPO Métier manquant'] },
        { line: 5, errors: ['nom manquant', 'RA manquant', 'BPO Métier manquant'] },
      ],
    })
    expect(await count(db, `select count(*) from public.applications`)).toBe(before)
  })
})
