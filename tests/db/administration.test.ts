// Administration across tables: the all-or-nothing import of rights, deleting an application, linking a profile to
// the account that signs in with its e-mail, deleting people, and the check constraints.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo, teamMembers } from './support/actors'
import {
  applicationId,
  auditMark,
  auditSince,
  count,
  createApplication,
  createDraftCampaign,
  createRight,
  createUser,
  decide,
  expectRefused,
  nonAdmins,
  one,
  unique,
} from './support/fixtures'

let db: Database
let sap: string

beforeAll(async () => {
  db = await freshDatabase()
  sap = await applicationId(db, 'SAP Finance')
})
afterAll(() => db.close())

// ─── import_user_rights ──────────────────────────────────────────────────────────────────────────────────────────────

interface ImportReport {
  success: boolean
  imported: number
  errors: { line: number; errors: string[] }[]
}

function importAs(actor: Parameters<typeof attempt>[1], rows: unknown) {
  return attempt(db, actor, async (tx) => (await one<{ r: ImportReport }>(tx, `select public.import_user_rights($1::jsonb) as r`, [JSON.stringify(rows)])).r)
}

describe('import_user_rights', () => {
  it('reports every bad line with all its problems in French, and imports nothing — not even the good lines', async () => {
    const good = unique('Rôle')
    const rows = [
      { email: 'thomas.roux@example.com', application: 'ServiceNow', role_name: good, account_type: 'Technique', granted_at: '15/03/2024' },
      { email: 'personne@example.org', application: 'SAP Finance', role_name: unique('Rôle') },
      { email: 'user@example.com', application: 'Oracle Paie', role_name: unique('Rôle') },
      { email: 'user@example.com', application: 'SAP Finance', role_name: '   ' },
      { email: 'user@example.com', application: 'SAP Finance', role_name: unique('Rôle'), account_type: 'root' },
      { email: 'user@example.com', application: 'SAP Finance', role_name: unique('Rôle'), granted_at: '31/02/2024', last_used_at: 'hier' },
      { email: 'THOMAS.ROUX@example.com', application: 'servicenow', role_name: good },
      { email: 'user@example.com', application: 'SAP Finance', role_name: 'Comptable' },
      { email: 'nobody@example.org', application: 'Nulle part', role_name: '' },
      { email: 'user@example.com', application: 'GitLab', role_name: unique('Rôle'), granted_at: '2999-01-01' },
      { application: 'GitLab', role_name: unique('Rôle') },
      'pas un objet',
    ]
    const rightsBefore = await count(db, `select count(*) from public.user_rights`)
    const mark = await auditMark(db)
    const outcome = await importAs('admin', rows)

    expect(outcome, outcome.message).toMatchObject({ ok: true })
    expect(outcome.value).toEqual({
      success: false,
      imported: 0,
      errors: [
        { line: 2, errors: ['utilisateur inconnu : personne@example.org'] },
        { line: 3, errors: ['application inconnue : Oracle Paie'] },
        { line: 4, errors: ['rôle manquant'] },
        { line: 5, errors: ['type de compte inconnu : root'] },
        { line: 6, errors: ["date d'attribution invalide : 31/02/2024", 'date de dernière utilisation invalide : hier'] },
        { line: 7, errors: ['doublon de la ligne 1'] },
        { line: 8, errors: ['ce droit existe déjà'] },
        { line: 9, errors: ['utilisateur inconnu : nobody@example.org', 'application inconnue : Nulle part', 'rôle manquant'] },
        { line: 10, errors: ["date d'attribution dans le futur"] },
        { line: 11, errors: ['e-mail manquant'] },
        { line: 12, errors: ['ligne illisible'] },
      ],
    })
    expect(await count(db, `select count(*) from public.user_rights`)).toBe(rightsBefore)
    expect(await count(db, `select count(*) from public.user_rights where role_name = $1`, [good])).toBe(0)
    expect(await auditSince(db, mark)).toEqual([])
  })

  it('reports the line numbers of the file when the caller gives them', async () => {
    const outcome = await importAs('rssi', [
      { line: 2, email: 'user@example.com', application: 'SAP Finance', role_name: unique('Rôle') },
      { line: 3, email: 'inconnu@example.org', application: 'SAP Finance', role_name: unique('Rôle') },
    ])
    expect(outcome.value?.errors).toEqual([{ line: 3, errors: ['utilisateur inconnu : inconnu@example.org'] }])
  })

  it('imports every line when all are good, reading French account types and dates', async () => {
    const roleNames = [unique('Rôle'), unique('Rôle'), unique('Rôle')]
    const outcome = await importAs('rssi', [
      { email: 'emma.girard@example.com', application: 'SAP Finance', role_name: ` ${roleNames[0]} `, account_type: 'Technique', granted_at: '15/03/2024', last_used_at: '2026-10-01', justification: 'Clôture mensuelle' },
      { email: 'Emma.Girard@Example.com', application: 'gitlab', role_name: roleNames[1], account_type: 'Partagé / Générique' },
      { email: 'lucas.bonnet@example.com', application: 'ServiceNow', role_name: roleNames[2], account_type: 'privileged', granted_at: '2023-12-31' },
    ])
    expect(outcome.value).toEqual({ success: true, imported: 3, errors: [] })

    const { rows } = await db.query(
      `select u.email, a.name as application, r.role_name, r.account_type::text, r.granted_at::date::text as granted, r.last_used_at::date::text as used,
              r.justification, r.status::text, r.campaign_id, r.validated_by
         from public.user_rights r join public.users u on u.id = r.user_id join public.applications a on a.id = r.application_id
        where r.role_name = any($1) order by r.role_name = $2 desc, r.role_name = $3 desc`,
      [roleNames, roleNames[0], roleNames[1]],
    )
    const common = { status: 'pending', campaign_id: null, validated_by: null }
    expect(rows[0]).toEqual({ ...common, email: 'emma.girard@example.com', application: 'SAP Finance', role_name: roleNames[0], account_type: 'technical', granted: '2024-03-15', used: '2026-10-01', justification: 'Clôture mensuelle' })
    expect(rows[1]).toMatchObject({ ...common, email: 'emma.girard@example.com', application: 'GitLab', account_type: 'shared', used: null, justification: null })
    expect(rows[2]).toMatchObject({ ...common, email: 'lucas.bonnet@example.com', application: 'ServiceNow', account_type: 'privileged', granted: '2023-12-31' })
    expect(rows).toHaveLength(3)

    // The same file a second time is refused whole: every line already exists.
    const again = await importAs('rssi', [{ email: 'lucas.bonnet@example.com', application: 'ServiceNow', role_name: roleNames[2] }])
    expect(again.value).toEqual({ success: false, imported: 0, errors: [{ line: 1, errors: ['ce droit existe déjà'] }] })
  })

  it.each([
    ['an empty list', [], /aucune ligne/],
    ['something that is not a list', { email: 'user@example.com' }, /attend une liste de lignes/],
  ])('refuses %s', async (_label, rows, message) => {
    expectRefused(await importAs('admin', rows), '22023', message)
  })

  it.each(nonAdmins)('%s is refused and imports nothing', async (role) => {
    const roleName = unique('Rôle')
    const outcome = await importAs(role, [{ email: demo[role].email, application: 'SAP Finance', role_name: roleName }])
    expectRefused(outcome, '42501', /^Seuls les administrateurs et le RSSI peuvent importer des droits\.$/)
    expect(await count(db, `select count(*) from public.user_rights where role_name = $1`, [roleName])).toBe(0)
  })
})

// ─── delete_application ──────────────────────────────────────────────────────────────────────────────────────────────

describe('delete_application', () => {
  async function applicationWithDependents() {
    const app = await createApplication(db)
    const rights = [await createRight(db, { applicationId: app, campaignId: null }), await createRight(db, { holder: teamMembers.emma, applicationId: app, campaignId: null })]
    const { id: rule } = await one<{ id: string }>(db, `insert into public.control_rules (name, global, application_id) values ($1, false, $2) returning id`, [unique('Règle'), app])
    return { app, rights, rule }
  }
  async function remaining(target: Awaited<ReturnType<typeof applicationWithDependents>>) {
    return {
      app: await count(db, `select count(*) from public.applications where id = $1`, [target.app]),
      rights: await count(db, `select count(*) from public.user_rights where id = any($1::uuid[])`, [target.rights]),
      rule: await count(db, `select count(*) from public.control_rules where id = $1`, [target.rule]),
    }
  }

  it('removes the application with its rights and its control rules, and nothing else', async () => {
    const target = await applicationWithDependents()
    const totals = async () => ({
      apps: await count(db, `select count(*) from public.applications`),
      rights: await count(db, `select count(*) from public.user_rights`),
      rules: await count(db, `select count(*) from public.control_rules`),
    })
    const before = await totals()
    const outcome = await attempt(db, 'admin', (tx) => tx.query(`select public.delete_application($1)`, [target.app]))
    expect(outcome, outcome.message).toMatchObject({ ok: true })
    expect(await remaining(target)).toEqual({ app: 0, rights: 0, rule: 0 })
    expect(await totals()).toEqual({ apps: before.apps - 1, rights: before.rights - 2, rules: before.rules - 1 })
  })

  it('refuses while a campaign targets the application, and goes through once the draft is gone', async () => {
    const target = await applicationWithDependents()
    const campaign = await createDraftCampaign(db, { applicationId: target.app })
    const outcome = await attempt(db, 'rssi', (tx) => tx.query(`select public.delete_application($1)`, [target.app]))
    expectRefused(outcome, '23503', /^Impossible de supprimer cette application : 1 campagne\(s\) la ciblent\.$/)
    expect(await remaining(target)).toEqual({ app: 1, rights: 2, rule: 1 })

    await actAs(db, 'rssi', (tx) => tx.query(`delete from public.campaigns where id = $1`, [campaign]))
    expect(await attempt(db, 'rssi', (tx) => tx.query(`select public.delete_application($1)`, [target.app]))).toMatchObject({ ok: true })
    expect(await remaining(target)).toEqual({ app: 0, rights: 0, rule: 0 })
  })

  it('refuses while a launched campaign targets it: review evidence is never removed as a side effect', async () => {
    const target = await applicationWithDependents()
    const campaign = await createDraftCampaign(db, { applicationId: target.app })
    await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [campaign]))
    expect((await decide(db, 'user', target.rights[0]!, 'validated_user')).ok).toBe(true)
    await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [campaign]))
    expectRefused(await attempt(db, 'admin', (tx) => tx.query(`select public.delete_application($1)`, [target.app])), '23503', /campagne\(s\) la ciblent/)
    expect(await remaining(target)).toEqual({ app: 1, rights: 2, rule: 1 })
    expect(await count(db, `select count(*) from public.right_decisions where right_id = $1`, [target.rights[0]])).toBe(1)
  })

  it('says so when the application does not exist', async () => {
    expectRefused(await attempt(db, 'admin', (tx) => tx.query(`select public.delete_application($1)`, [randomUUID()])), 'P0001', /^Application introuvable\.$/)
  })

  it.each(nonAdmins)('%s is refused and nothing is removed', async (role) => {
    const target = await applicationWithDependents()
    const outcome = await attempt(db, role, (tx) => tx.query(`select public.delete_application($1)`, [target.app]))
    expectRefused(outcome, '42501', /^Seuls les administrateurs et le RSSI peuvent supprimer une application\.$/)
    expect(await remaining(target)).toEqual({ app: 1, rights: 2, rule: 1 })
  })
})

// ─── update_user_id ──────────────────────────────────────────────────────────────────────────────────────────────────

describe('update_user_id', () => {
  const link = (actor: { id: string; email: string }, oldId: string, newId: string) =>
    attempt(db, actor, (tx) => tx.query(`select public.update_user_id($1, $2)`, [oldId, newId]))
  const profile = async (id: string) => (await db.query(`select id::text, email, role::text from public.users where id = $1`, [id])).rows

  it('links the caller’s own account to the profile an administrator created with the caller’s e-mail', async () => {
    const provisional = await createUser(db, { role: 'manager', managerId: demo.manager.id })
    const report = await createUser(db, { managerId: provisional.id })
    const right = await createRight(db, { holder: provisional.id, applicationId: sap, campaignId: null })
    const account = { id: randomUUID(), email: provisional.email.toUpperCase() }

    const outcome = await link(account, provisional.id, account.id)
    expect(outcome, outcome.message).toMatchObject({ ok: true })
    expect(await profile(provisional.id)).toEqual([])
    expect(await profile(account.id)).toEqual([{ id: account.id, email: provisional.email, role: 'manager' }])
    expect(await one(db, `select manager_id::text from public.users where id = $1`, [report.id])).toEqual({ manager_id: account.id })
    expect(await one(db, `select user_id::text from public.user_rights where id = $1`, [right])).toEqual({ user_id: account.id })
    // The account now works as that person: their team's rights are theirs to see.
    const seen = await actAs(db, account, (tx) => tx.query(`select id from public.user_rights where id = $1`, [right]))
    expect(seen.rows).toHaveLength(1)

    // Once linked, calling again changes nothing and succeeds.
    expect(await link(account, account.id, account.id)).toMatchObject({ ok: true })
    expect(await profile(account.id)).toHaveLength(1)
  })

  it('never moves another person’s profile onto the caller’s account', async () => {
    const account = { id: randomUUID(), email: `${randomUUID()}@example.org` }
    const outcome = await link(account, demo.user.id, account.id)
    expectRefused(outcome, '42501', /^Aucun profil à votre adresse e-mail ne correspond\.$/)
    expect(await profile(demo.user.id)).toEqual([{ id: demo.user.id, email: demo.user.email, role: 'user' }])
    expect(await profile(account.id)).toEqual([])
  })

  it('never links a profile to an account that is not the caller’s', async () => {
    const provisional = await createUser(db)
    const account = { id: randomUUID(), email: provisional.email }
    const elsewhere = randomUUID()
    expectRefused(await link(account, provisional.id, elsewhere), '42501', /^Vous ne pouvez lier un profil qu'à votre propre compte\.$/)
    // Nor can a signed-in person move their own profile onto somebody else's id.
    expectRefused(await link(demo.user, demo.user.id, demo.manager.id), '42501', /propre compte/)
    expect(await profile(provisional.id)).toHaveLength(1)
    expect(await profile(elsewhere)).toEqual([])
    expect(await profile(demo.user.id)).toHaveLength(1)
    expect(await profile(demo.manager.id)).toEqual([{ id: demo.manager.id, email: demo.manager.email, role: 'manager' }])
  })

  it('refuses when the profile’s e-mail is not the caller’s', async () => {
    const provisional = await createUser(db)
    const account = { id: randomUUID(), email: `${randomUUID()}@example.org` }
    expectRefused(await link(account, provisional.id, account.id), '42501', /Aucun profil à votre adresse e-mail/)
    expect(await profile(provisional.id)).toHaveLength(1)
    expect(await profile(account.id)).toEqual([])
  })

  it('refuses when the caller’s account already has a profile of its own', async () => {
    const provisional = await createUser(db)
    // The demo user's account, whose sign-in e-mail now matches someone else's provisional profile.
    const account = { id: demo.user.id, email: provisional.email }
    expectRefused(await link(account, provisional.id, account.id), '23505', /^Votre compte est déjà lié à un autre profil\.$/)
    expect(await profile(provisional.id)).toHaveLength(1)
    expect(await profile(demo.user.id)).toEqual([{ id: demo.user.id, email: demo.user.email, role: 'user' }])
  })

  it('refuses an unknown profile', async () => {
    const account = { id: randomUUID(), email: `${randomUUID()}@example.org` }
    expectRefused(await link(account, randomUUID(), account.id), '42501', /Aucun profil/)
  })
})

// ─── Deleting people ─────────────────────────────────────────────────────────────────────────────────────────────────

describe('deleting a person', () => {
  it('clears the manager link of everyone who reported to them, and keeps those people', async () => {
    const boss = await createUser(db, { role: 'manager' })
    const reports = [await createUser(db, { managerId: boss.id }), await createUser(db, { managerId: boss.id })]
    const outcome = await attempt(db, 'admin', (tx) => tx.query(`delete from public.users where id = $1 returning id`, [boss.id]))
    expect(outcome.value?.rows).toHaveLength(1)
    const { rows } = await db.query(`select manager_id from public.users where id = any($1::uuid[])`, [reports.map((r) => r.id)])
    expect(rows).toEqual([{ manager_id: null }, { manager_id: null }])
  })

  it.each([
    ['the RA', demo.ra.id],
    ['the BPO Métier', demo.bpo_metier.id],
  ])('refuses to delete %s of an application, in French, until someone replaces them', async (_label, id) => {
    const outcome = await attempt(db, 'rssi', (tx) => tx.query(`delete from public.users where id = $1`, [id]))
    expectRefused(outcome, '23503', /^Impossible de supprimer cet utilisateur : il est RA ou BPO Métier de .*SAP Finance.*\. Désignez d'abord un remplaçant\.$/)
    expect(await count(db, `select count(*) from public.users where id = $1`, [id])).toBe(1)
  })

  it('deleting a BPO Groupe or an RSSI of an application leaves the application without one', async () => {
    const groupe = await createUser(db, { role: 'bpo_groupe' })
    const rssi = await createUser(db, { role: 'rssi' })
    const app = await createApplication(db, { bpoGroupe: groupe.id, rssi: rssi.id })
    for (const person of [groupe, rssi]) {
      const outcome = await attempt(db, 'admin', (tx) => tx.query(`delete from public.users where id = $1 returning id`, [person.id]))
      expect(outcome, outcome.message).toMatchObject({ ok: true })
    }
    expect(await one(db, `select bpo_groupe_id, rssi_id from public.applications where id = $1`, [app])).toEqual({ bpo_groupe_id: null, rssi_id: null })
  })

  it('deleting the person who created a campaign keeps the campaign, without its creator', async () => {
    const creator = await createUser(db, { role: 'rssi' })
    const name = unique('Campagne')
    const { rows } = await actAs(db, creator, (tx) =>
      tx.query<{ id: string }>(`insert into public.campaigns (name, start_date, end_date) values ($1, '2027-09-01', '2027-09-30') returning id`, [name]),
    )
    const campaign = rows[0]!.id
    const outcome = await attempt(db, 'admin', (tx) => tx.query(`delete from public.users where id = $1 returning id`, [creator.id]))
    expect(outcome, outcome.message).toMatchObject({ ok: true })
    expect(await one(db, `select name, created_by from public.campaigns where id = $1`, [campaign])).toEqual({ name, created_by: null })
    // …and the seeded campaigns' creator can still not be rewritten by anyone else.
    const rewrite = await attempt(db, 'service_role', (tx) => tx.query(`update public.campaigns set created_by = null where id = $1`, [campaignIds.active]))
    expectRefused(rewrite, '42501', /Le créateur d'une campagne ne peut pas être modifié/)
  })
})

// ─── Check constraints ───────────────────────────────────────────────────────────────────────────────────────────────

describe('check constraints', () => {
  it('an e-mail is unique whatever its case, on creation and on change', async () => {
    const created = await attempt(db, 'admin', (tx) =>
      tx.query(`insert into public.users (email, first_name, last_name) values ('USER@Example.COM', 'Double', 'Compte')`),
    )
    expectRefused(created, '23505')
    expect(await count(db, `select count(*) from public.users where lower(email) = 'user@example.com'`)).toBe(1)

    const changed = await attempt(db, 'admin', (tx) => tx.query(`update public.users set email = 'Manager@example.com' where id = $1`, [teamMembers.paul]))
    expectRefused(changed, '23505')
    expect(await one(db, `select email from public.users where id = $1`, [teamMembers.paul])).toEqual({ email: 'paul.mercier@example.com' })
  })

  it('a campaign ends on or after its start', async () => {
    const name = unique('Campagne')
    const outcome = await attempt(db, 'rssi', (tx) => tx.query(`insert into public.campaigns (name, start_date, end_date) values ($1, '2027-02-02', '2027-02-01')`, [name]))
    expectRefused(outcome, '23514', /campaigns_dates_ordered/)
    expect(await count(db, `select count(*) from public.campaigns where name = $1`, [name])).toBe(0)
  })

  it.each([
    ['a rule that is not global names an application', false, null, '23514'],
    ['a global rule names no application', true, 'SAP', '23514'],
    ['a rule on one application', false, 'SAP', null],
    ['a global rule', true, null, null],
  ] as const)('%s', async (_label, global, app, code) => {
    const name = unique('Règle')
    const outcome = await attempt(db, 'admin', (tx) =>
      tx.query(`insert into public.control_rules (name, global, application_id) values ($1, $2, $3)`, [name, global, app ? sap : null]),
    )
    if (code) {
      expectRefused(outcome, code, /^Une règle globale ne vise aucune application ; une règle d'application en vise une\.$/)
      expect(await count(db, `select count(*) from public.control_rules where name = $1`, [name])).toBe(0)
    } else {
      expect(outcome, outcome.message).toMatchObject({ ok: true })
      expect(await count(db, `select count(*) from public.control_rules where name = $1`, [name])).toBe(1)
    }
  })

  it.each([
    ['a list', '[90]', /^Les paramètres de la règle doivent être un objet JSON\.$/],
    ['a string', '"90 jours"', /^Les paramètres de la règle doivent être un objet JSON\.$/],
    ['a number', '90', /^Les paramètres de la règle doivent être un objet JSON\.$/],
    ['JSON null', 'null', /^Les paramètres de la règle doivent être un objet JSON\.$/],
    ['an inactivity threshold given as text', '{"inactivity_threshold": "90"}', /^Le seuil d'inactivité doit être un nombre de jours supérieur à zéro, cent ans \(36 500 jours\) au plus\.$/],
    ['a negative inactivity threshold', '{"inactivity_threshold": -5}', /^Le seuil d'inactivité doit être un nombre de jours supérieur à zéro, cent ans \(36 500 jours\) au plus\.$/],
  ])('rule parameters cannot be %s', async (_label, parameters, constraint) => {
    const name = unique('Règle')
    const outcome = await attempt(db, 'rssi', (tx) => tx.query(`insert into public.control_rules (name, parameters) values ($1, $2::jsonb)`, [name, parameters]))
    expectRefused(outcome, '23514', constraint)
    expect(await count(db, `select count(*) from public.control_rules where name = $1`, [name])).toBe(0)

    const { id } = await one<{ id: string }>(db, `select id from public.control_rules where name = 'Inactivité de 90 jours'`)
    const update = await attempt(db, 'rssi', (tx) => tx.query(`update public.control_rules set parameters = $2::jsonb where id = $1`, [id, parameters]))
    expectRefused(update, '23514', constraint)
    expect(await one(db, `select parameters from public.control_rules where id = $1`, [id])).toEqual({ parameters: { inactivity_threshold: 90 } })
  })

  it('an application’s owners hold the matching role', async () => {
    const name = unique('Application')
    const outcome = await attempt(db, 'admin', (tx) => tx.query(`select public.create_application($1, $2, $3)`, [name, demo.user.id, demo.bpo_metier.id]))
    expectRefused(outcome, '23514', /^Le Responsable d'Application choisi n'existe pas ou n'a pas ce rôle\.$/)
    expect(await count(db, `select count(*) from public.applications where name = $1`, [name])).toBe(0)
  })
})
