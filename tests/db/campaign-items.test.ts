// Every campaign keeps its own record (ARCHITECTURE §3): starting it makes one item per in-scope right, a copy of what
// is reviewed with the item's own status; decisions point to their item; its figures and Excel files come from its
// items, so a later campaign taking the same rights over leaves them as they were; once completed or archived nothing
// changes an item but the RA's treatment; a right is under review in one active campaign at a time.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, asOwner, attempt, campaignIds, demo, type Actor } from './support/actors'
import { exportRowOf, type ExportData } from './support/export-rows'
import { count, createApplication, createDraftCampaign, createRight, createUser, decide, expectRefused, one, rightStatus, unique } from './support/fixtures'

const frozenItems = /^Cette campagne est clôturée : ses éléments de revue ne peuvent plus être modifiés\.$/
const files = ['manager', 'bpo_metier', 'bpo_groupe'] as const

let db: Database

beforeAll(async () => {
  db = await freshDatabase()
})

afterAll(async () => {
  await db.close()
})

async function setStatus(campaign: string, status: string): Promise<void> {
  await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = $2 where id = $1`, [campaign, status]))
}

async function startedCampaign(options: { applicationId?: string | null; accountType?: string | null } = {}): Promise<string> {
  const campaign = await createDraftCampaign(db, options)
  await setStatus(campaign, 'active')
  return campaign
}


async function items(campaign: string) {
  return (await db.query(`select * from public.campaign_items where campaign_id = $1 order by right_id`, [campaign])).rows
}

async function item(campaign: string, rightId: string) {
  return one<Record<string, unknown>>(db, `select * from public.campaign_items where campaign_id = $1 and right_id = $2`, [campaign, rightId])
}

/** What a campaign shows a caller: its line of the campaign list and its three Excel files, every row. */
async function shown(campaign: string, actor: Actor = 'admin') {
  return actAs(db, actor, async (tx) => {
    const progress = await one(tx, `select * from public.campaign_progress where campaign_id = $1`, [campaign])
    const rows: Record<string, unknown[]> = {}
    for (const file of files) {
      rows[file] = (await one<{ r: ExportData[] }>(tx, `select public.campaign_export_rows($1, $2::public.review_stage) as r`, [campaign, file])).r.map(exportRowOf)
    }
    return { progress, rows }
  })
}

/** Everything the campaign's record is made of, read as the owner. */
async function record(campaign: string) {
  return {
    items: await items(campaign),
    decisions: (await db.query(`select * from public.right_decisions where campaign_id = $1 order by id`, [campaign])).rows,
  }
}

describe('starting a campaign makes its record', () => {
  it('copies each in-scope right into an item: holder, manager, application and owners, role, type, dates, justification', async () => {
    const application = await createApplication(db, { bpoGroupe: null })
    const holder = await createUser(db, { managerId: demo.manager.id })
    const right = await createRight(db, { holder: holder.id, applicationId: application, campaignId: null, accountType: 'privileged' })
    await db.query(
      `update public.user_rights set justification = 'Clôture', granted_at = '2022-02-03T04:05:06Z', last_used_at = '2026-01-02T03:04:05Z' where id = $1`,
      [right],
    )
    const elsewhere = await createRight(db, { holder: holder.id, applicationId: await createApplication(db), campaignId: null })
    const campaign = await startedCampaign({ applicationId: application })

    const copy = await item(campaign, right)
    const expected = await one<Record<string, unknown>>(
      db,
      `select ur.id as right_id, h.id as holder_id, h.first_name || ' ' || h.last_name as holder_name, h.email as holder_email,
              m.id as manager_id, m.first_name || ' ' || m.last_name as manager_name, a.id as application_id, a.name as application_name,
              a.ra_id, a.bpo_metier_id, a.bpo_groupe_id, a.rssi_id, ur.role_name, ur.account_type, ur.granted_at, ur.last_used_at,
              ur.justification, ur.status
         from public.user_rights ur join public.users h on h.id = ur.user_id join public.users m on m.id = h.manager_id
         join public.applications a on a.id = ur.application_id where ur.id = $1`,
      [right],
    )
    expect(copy).toMatchObject({ ...expected, campaign_id: campaign, status: 'pending', manager_name: 'Marc Dubois', justification: 'Clôture', bpo_groupe_id: null })
    expect(await count(db, `select count(*) from public.campaign_items where right_id = $1`, [elsewhere])).toBe(0)
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [campaign])).toBe(1)
  })

  it('makes no item for a draft; a right imported into a draft becomes one at the start, one added to a running campaign at once', async () => {
    const application = await createApplication(db)
    const app = await one<{ name: string }>(db, `select name from public.applications where id = $1`, [application])
    const draft = await createDraftCampaign(db, { applicationId: application })
    const importInto = (campaign: string) =>
      actAs(db, 'admin', async (tx) =>
        (await one<{ r: { success: boolean } }>(tx, `select public.import_user_rights($1::jsonb, $2) as r`, [
          JSON.stringify([{ email: demo.user.email, application: app.name, role_name: unique('Rôle') }]),
          campaign,
        ])).r,
      )
    expect(await importInto(draft)).toMatchObject({ success: true })
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [draft])).toBe(0)
    expect(await shown(draft)).toMatchObject({ progress: { rights_count: 1, pending_count: 1 }, rows: { manager: [{ status: 'pending' }] } })

    await setStatus(draft, 'active')
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [draft])).toBe(1)
    expect(await importInto(draft)).toMatchObject({ success: true })
    const added = await attempt(db, 'admin', (tx) =>
      tx.query(`insert into public.user_rights (user_id, application_id, role_name, campaign_id) values ($1, $2, $3, $4)`, [demo.user.id, application, unique('Rôle'), draft]),
    )
    expect(added).toMatchObject({ ok: true })
    expect(await count(db, `select count(*) from public.campaign_items i join public.user_rights ur on ur.id = i.right_id and ur.campaign_id = i.campaign_id where i.campaign_id = $1`, [draft])).toBe(3)
    expect((await shown(draft)).progress).toMatchObject({ rights_count: 3, pending_count: 3 })
  })

  it('leaves a right under review in one active campaign at a time, and lets the next one take it once that one is closed', async () => {
    const application = await createApplication(db)
    const right = await createRight(db, { applicationId: application, campaignId: null })
    const first = await startedCampaign({ applicationId: application })
    const second = await startedCampaign({ applicationId: application })
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [second])).toBe(0)
    expect(await one(db, `select campaign_id from public.user_rights where id = $1`, [right])).toEqual({ campaign_id: first })

    expect(await decide(db, 'manager', right, 'refused_manager')).toMatchObject({ ok: true })
    await setStatus(first, 'completed')
    // A refusal stays with the RA until treated.
    expect(await one(db, `select campaign_id from public.user_rights where id = $1`, [right])).toEqual({ campaign_id: first })
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [await startedCampaign({ applicationId: application })])).toBe(0)
    expect(await decide(db, 'ra', right, 'treated')).toMatchObject({ ok: true })
    const third = await startedCampaign({ applicationId: application })
    expect(await one(db, `select campaign_id, status::text from public.user_rights where id = $1`, [right])).toEqual({ campaign_id: third, status: 'pending' })
    expect(await item(first, right)).toMatchObject({ status: 'treated' })
    expect(await item(third, right)).toMatchObject({ status: 'pending' })
  })

  it('refuses, even as the owner, an item of a campaign that does not exist or has not started, in French', async () => {
    const draft = await createDraftCampaign(db)
    const addItem = (campaign: string) =>
      asOwner(
        db,
        `insert into public.campaign_items (campaign_id, right_id, holder_id, holder_name, holder_email, application_id, application_name, role_name, account_type, granted_at)
         values ($1, $2, $3, 'X', 'x@example.com', $4, 'App', 'Rôle', 'standard', now())`,
        [campaign, randomUUID(), demo.user.id, randomUUID()],
      )
    expectRefused(await addItem(randomUUID()), '23503', /^Cette campagne n'existe pas : aucun élément de revue ne peut lui être ajouté\.$/)
    expectRefused(await addItem(draft), '23514', /^Une campagne en brouillon n'a pas encore d'éléments de revue/)
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [draft])).toBe(0)
  })

  it('stamps each right it takes, and at its completion each item and right it sends to the RA', async () => {
    const application = await createApplication(db)
    const right = await createRight(db, { applicationId: application, campaignId: null })
    const stamps = async (campaign?: string) =>
      one<{ right: Date; item: Date | null }>(
        db,
        `select ur.updated_at as right, (select i.updated_at from public.campaign_items i where i.campaign_id = $2 and i.right_id = ur.id) as item
           from public.user_rights ur where ur.id = $1`,
        [right, campaign ?? randomUUID()],
      )
    const imported = await stamps()
    const campaign = await startedCampaign({ applicationId: application })
    const started = await stamps(campaign)
    expect(started.right.getTime()).toBeGreaterThan(imported.right.getTime())
    await setStatus(campaign, 'completed')
    const completed = await stamps(campaign)
    expect(await item(campaign, right)).toMatchObject({ status: 'treatment_required' })
    expect(completed.right.getTime()).toBeGreaterThan(started.right.getTime())
    expect(completed.item!.getTime()).toBeGreaterThan(started.item!.getTime())
    // Outside a transition the row trigger stamps as before.
    const other = await createRight(db, { applicationId: application, campaignId: null })
    const stamp = async () => (await one<{ at: Date }>(db, `select updated_at as at from public.user_rights where id = $1`, [other])).at.getTime()
    const before = await stamp()
    await db.query(`update public.user_rights set justification = 'Revue' where id = $1`, [other])
    expect(await stamp()).toBeGreaterThan(before)
  })
})

describe('deciding', () => {
  it('sets the right and its item together, and the decision points to the item', async () => {
    const application = await createApplication(db)
    const right = await createRight(db, { applicationId: application, campaignId: null })
    const campaign = await startedCampaign({ applicationId: application })
    const { id } = await item(campaign, right)
    const outcome = await decide(db, 'manager', right, 'validated_manager')
    expect(outcome).toMatchObject({ ok: true, value: { status: 'validated_manager', item_id: id } })
    expect(await item(campaign, right)).toMatchObject({ status: 'validated_manager' })
    expect(await one(db, `select item_id, campaign_id from public.right_decisions where id = $1`, [outcome.value!.decision_id])).toEqual({ item_id: id, campaign_id: campaign })

    // A refused decision changes neither.
    expectRefused(await decide(db, 'manager', right, 'refused_manager'), 'P0001')
    expect(await item(campaign, right)).toMatchObject({ status: 'validated_manager' })
  })

  it('refuses a decision in a campaign that is not on the right’s item of that campaign, even from the owner', async () => {
    const application = await createApplication(db)
    const right = await createRight(db, { applicationId: application, campaignId: null })
    const other = await createRight(db, { applicationId: application, campaignId: null })
    const campaign = await startedCampaign({ applicationId: application })
    const otherItem = (await item(campaign, other)).id
    for (const itemId of [null, otherItem]) {
      expectRefused(
        await asOwner(
        db,
          `insert into public.right_decisions (right_id, holder_id, holder_email, holder_name, application_id, application_name, role_name,
             account_type, campaign_id, item_id, stage, decision, from_status, to_status, decided_by, decided_by_email, decided_by_name)
           values ($1, $2, 'x@example.com', 'X', $3, 'App', 'Rôle', 'standard', $4, $5, 'manager', 'approved', 'pending', 'validated_manager', $6, 'm@example.com', 'M')`,
          [right, demo.user.id, application, campaign, itemId, demo.manager.id],
        ),
        '23514',
        /^Une décision prise dans une campagne porte sur l'élément de revue de ce droit dans cette campagne\.$/,
      )
    }
  })
})

describe('while a campaign runs, its items follow its rights', () => {
  it('a change to what a right is reaches its item; a right deleted takes its item along, and its decisions stay', async () => {
    const application = await createApplication(db)
    const right = await createRight(db, { applicationId: application, campaignId: null })
    const campaign = await startedCampaign({ applicationId: application })
    expect(await attempt(db, 'admin', (tx) => tx.query(`update public.user_rights set justification = 'Précisée', last_used_at = '2026-03-04T00:00:00Z' where id = $1`, [right]))).toMatchObject({ ok: true })
    expect(await item(campaign, right)).toMatchObject({ justification: 'Précisée', last_used_at: new Date('2026-03-04T00:00:00Z') })

    const decision = (await decide(db, 'manager', right, 'validated_manager')).value!.decision_id
    expect(await attempt(db, 'admin', (tx) => tx.query(`delete from public.user_rights where id = $1`, [right]))).toMatchObject({ ok: true })
    expect(await items(campaign)).toEqual([])
    expect(await one(db, `select right_id, item_id, campaign_id from public.right_decisions where id = $1`, [decision])).toEqual({ right_id: null, item_id: null, campaign_id: campaign })
    expect((await shown(campaign)).progress).toMatchObject({ rights_count: 0 })
  })
})

// ─── The freeze ────────────────────────────────────────────────────────────────────────────────────────────────────

describe.each(['completed', 'archived'] as const)('the items of a %s campaign', (state) => {
  let campaign: string
  let application: string
  let refused: string
  let undecided: string
  let leaver: { id: string; email: string }

  beforeAll(async () => {
    application = await createApplication(db, { bpoGroupe: null })
    const holder = await createUser(db, { managerId: demo.manager.id })
    leaver = await createUser(db, { managerId: demo.manager.id })
    refused = await createRight(db, { holder: holder.id, applicationId: application, campaignId: null })
    undecided = await createRight(db, { holder: holder.id, applicationId: application, campaignId: null })
    const validated = await createRight(db, { holder: holder.id, applicationId: application, campaignId: null })
    await createRight(db, { holder: leaver.id, applicationId: application, campaignId: null })
    campaign = await startedCampaign({ applicationId: application })
    expect(await decide(db, 'manager', refused, 'refused_manager')).toMatchObject({ ok: true })
    expect(await decide(db, 'manager', validated, 'validated_manager')).toMatchObject({ ok: true })
    expect(await decide(db, 'bpo_metier', validated, 'validated_bpo_metier')).toMatchObject({ ok: true })
    await setStatus(campaign, 'completed')
    if (state === 'archived') {
      const before = { record: await record(campaign), shown: await shown(campaign) }
      await setStatus(campaign, 'archived')
      // Archiving changes nothing but the campaign's status.
      expect({ record: await record(campaign), shown: await shown(campaign) }).toEqual(before)
    }
  })

  it('were sent to the RA with their rights when undecided, and keep the final outcome of the others', async () => {
    expect(await item(campaign, undecided)).toMatchObject({ status: 'treatment_required' })
    expect(await rightStatus(db, undecided)).toBe('treatment_required')
    expect((await items(campaign)).map((i) => i.status).sort()).toEqual(['refused_manager', 'treatment_required', 'treatment_required', 'validated_bpo_metier'])
  })

  it.each(['anon', 'user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra', 'admin', 'rssi', 'service_role'] as const)(
    '%s can neither add, change nor remove one through the API',
    async (actor) => {
      const before = await record(campaign)
      const attempts = [
        (tx: Sql) =>
          tx.query(
            `insert into public.campaign_items (campaign_id, right_id, holder_id, holder_name, holder_email, application_id, application_name, role_name, account_type, granted_at)
             values ($1, $2, $3, 'X', 'x@example.com', $4, 'App', 'Rôle', 'standard', now())`,
            [campaign, randomUUID(), demo.user.id, application],
          ),
        (tx: Sql) => tx.query(`update public.campaign_items set status = 'validated_bpo_groupe' where campaign_id = $1`, [campaign]),
        (tx: Sql) => tx.query(`update public.campaign_items set justification = 'Réécrite' where campaign_id = $1`, [campaign]),
        (tx: Sql) => tx.query(`delete from public.campaign_items where campaign_id = $1`, [campaign]),
      ]
      for (const fn of attempts) expectRefused(await attempt(db, actor, fn), '42501')
      expect(await record(campaign)).toEqual(before)
    },
  )

  it('cannot be added, changed or removed by any function either, not even as the owner, in French', async () => {
    const before = await record(campaign)
    const refusals = [
      await asOwner(
        db,
        `insert into public.campaign_items (campaign_id, right_id, holder_id, holder_name, holder_email, application_id, application_name, role_name, account_type, granted_at)
         select campaign_id, gen_random_uuid(), holder_id, holder_name, holder_email, application_id, application_name, role_name, account_type, granted_at
           from public.campaign_items where campaign_id = $1 limit 1`,
        [campaign],
      ),
      await asOwner(db, `update public.campaign_items set justification = 'Réécrite' where campaign_id = $1`, [campaign]),
      await asOwner(db, `update public.campaign_items set holder_name = 'Quelqu''un d''autre' where right_id = $1`, [refused]),
      await asOwner(db, `update public.campaign_items set status = 'pending' where right_id = $1 and campaign_id = $2`, [undecided, campaign]),
      await asOwner(db, `update public.campaign_items set status = 'validated_bpo_groupe' where right_id = $1 and campaign_id = $2`, [refused, campaign]),
      await asOwner(db, `delete from public.campaign_items where campaign_id = $1`, [campaign]),
    ]
    for (const outcome of refusals) expectRefused(outcome, '23514', frozenItems)
    expect(await record(campaign)).toEqual(before)
  })

  it('stay in place when a right goes with its holder', async () => {
    const before = await record(campaign)
    expect(await attempt(db, 'admin', (tx) => tx.query(`delete from public.users where id = $1`, [leaver.id]))).toMatchObject({ ok: true })
    expect(await record(campaign)).toEqual(before)
  })

  it('take the RA’s treatment, which is part of the campaign’s outcome, and nothing else', async () => {
    const before = await shown(campaign)
    expect(await decide(db, 'ra', refused, 'treated', 'Accès supprimé')).toMatchObject({ ok: true })
    expect(await item(campaign, refused)).toMatchObject({ status: 'treated' })
    expect(await decide(db, 'ra', undecided, 'treated')).toMatchObject({ ok: true })
    expect(await item(campaign, undecided)).toMatchObject({ status: 'treated' })
    const after = await shown(campaign)
    expect(after.progress).toMatchObject({ rights_count: (before.progress as { rights_count: number }).rights_count, refused_count: 0 })
    expect(after.rows).toEqual(before.rows)
  })
})

describe('reading items', () => {
  it('shows each caller the items of the people and applications they could read at the review', async () => {
    const application = await createApplication(db, { bpoMetier: demo.bpo_metier.id })
    const outsider = await createUser(db, { managerId: null })
    const mine = await createRight(db, { holder: demo.user.id, applicationId: application, campaignId: null })
    const theirs = await createRight(db, { holder: outsider.id, applicationId: application, campaignId: null })
    const campaign = await startedCampaign({ applicationId: application })
    const visible = (actor: Actor) =>
      actAs(db, actor, async (tx) => (await tx.query<{ right_id: string }>(`select right_id from public.campaign_items where campaign_id = $1 order by right_id`, [campaign])).rows.map((r) => r.right_id))
    const both = [mine, theirs].sort()
    for (const actor of ['admin', 'rssi', 'bpo_metier', 'bpo_groupe', 'ra', 'service_role'] as const) expect(await visible(actor), actor).toEqual(both)
    expect(await visible('user')).toEqual([mine])
    expect(await visible('manager')).toEqual([mine])
    expect(await visible(outsider)).toEqual([theirs])
    expect(await visible({ id: randomUUID(), email: 'nobody@example.com' })).toEqual([])
    expectRefused(await attempt(db, 'anon', (tx) => tx.query(`select * from public.campaign_items`)), '42501')
  })
})

// ─── The record stays when the inventory moves on ────────────────────────────────────

describe('a completed campaign whose rights a new campaign takes over', () => {
  it('keeps its progress and its three files, row for row, for every reader, before and after the start and its decisions', async () => {
    const application = await createApplication(db, { bpoGroupe: null })
    const rights: Record<string, string> = {}
    for (const key of ['final', 'refused', 'undecided', 'userOnly']) rights[key] = await createRight(db, { applicationId: application, campaignId: null })
    const campaign = await startedCampaign({ applicationId: application })
    expect(await decide(db, 'manager', rights.final!, 'validated_manager', 'Utile')).toMatchObject({ ok: true })
    expect(await decide(db, 'bpo_metier', rights.final!, 'validated_bpo_metier', 'Conforme')).toMatchObject({ ok: true })
    expect(await decide(db, 'manager', rights.refused!, 'refused_manager', 'Jamais utilisé')).toMatchObject({ ok: true })
    expect(await decide(db, 'user', rights.userOnly!, 'validated_user')).toMatchObject({ ok: true })
    await setStatus(campaign, 'completed')
    // The RA treats what it sent her, so that a new campaign may take those rights again.
    for (const key of ['refused', 'undecided', 'userOnly']) expect(await decide(db, 'ra', rights[key]!, 'treated')).toMatchObject({ ok: true })

    const readers: Actor[] = ['admin', 'rssi', 'manager', 'user', 'bpo_metier']
    const read = async () => ({
      mine: await Promise.all(readers.map((actor) => shown(campaign, actor))),
      seed: await shown(campaignIds.completed),
      record: await record(campaign),
    })
    const before = await read()
    // The BPO Métier's approval is final on an application without BPO Groupe: the BPO Groupe file keeps that row.
    expect(before.mine[0]!.rows.bpo_groupe).toMatchObject([
      { right_id: rights.final, status: 'validated_bpo_metier', manager_comment: 'Utile', bpo_metier_comment: 'Conforme', bpo_metier_decided_by_name: 'Sophie Bernard' },
    ])
    // Reviewed: the approval at the last stage and the refusal; the other two went to the RA undecided.
    // (The refusal is no longer counted as awaiting removal: the RA has treated it.)
    expect(before.mine[0]!.progress).toMatchObject({ rights_count: 4, reviewed_count: 2, undecided_count: 2, progress: 50, refused_count: 0 })
    expect(before.seed.progress).toMatchObject({ rights_count: 17, reviewed_count: 3, undecided_count: 14, progress: 18 })

    // As an administrator would: a campaign over every application and every account type, then Démarrer.
    const everything = await startedCampaign()
    expect(await one(db, `select campaign_id, status::text from public.user_rights where id = $1`, [rights.final])).toEqual({ campaign_id: everything, status: 'pending' })
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1 and right_id = any($2::uuid[])`, [everything, Object.values(rights)])).toBe(4)
    expect(await read()).toEqual(before)

    // Decisions in the new campaign leave the old one as it was too.
    expect(await decide(db, 'user', rights.final!, 'validated_user')).toMatchObject({ ok: true })
    expect(await decide(db, 'manager', rights.refused!, 'validated_manager')).toMatchObject({ ok: true })
    expect(await read()).toEqual(before)
    // The right is a new item there, and this campaign's files show this campaign's decisions only.
    expect((await shown(everything)).rows.bpo_metier).toMatchObject([{ right_id: rights.refused, manager_decision: 'approved', manager_comment: null }])
  })
})

// ─── Concurrency, on a real server ─────────────────────────────────────────────────────────────────────────────────

describe('transitions, decisions and imports arriving together on one campaign', () => {
  // PGlite runs one transaction at a time: there, the sequence at the end checks the same records.
  const onPostgres = Boolean(process.env.DATABASE_URL)

  /** A transaction that does its work, then stays open until released. */
  function held<T>(actor: Actor, fn: (tx: Sql) => Promise<T>) {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let ready!: () => void
    const done = new Promise<void>((resolve) => (ready = resolve))
    const outcome = attempt(db, actor, async (tx) => {
      try {
        return await fn(tx)
      } finally {
        ready()
        await gate
      }
    })
    return { done, outcome, release }
  }

  /** Waits until some transaction of the test database waits for a lock. */
  async function someoneWaits(): Promise<void> {
    for (let i = 0; i < 10_000; i++) {
      if ((await count(db, `select count(*) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)) > 0) return
    }
    throw new Error('no transaction ever waited for a lock')
  }

  /** first holds its transaction open while second starts and must wait for it; then first commits. */
  async function race<A, B>(first: [Actor, (tx: Sql) => Promise<A>], second: [Actor, (tx: Sql) => Promise<B>]) {
    const a = held(first[0], first[1])
    await a.done
    const b = attempt(db, second[0], second[1])
    await someoneWaits()
    a.release()
    return { first: await a.outcome, second: await b }
  }

  const start = (campaign: string) => (tx: Sql) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [campaign])
  const complete = (campaign: string) => (tx: Sql) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [campaign])
  const validate = (right: string, status: string) => (tx: Sql) => tx.query(`select public.validate_user_right($1, $2::public.right_status)`, [right, status])

  /** Every right of the campaign has exactly one item there, at the right's status. */
  async function consistent(campaign: string): Promise<void> {
    const mismatched = await count(
      db,
      `select count(*) from public.user_rights ur
         full join (select * from public.campaign_items where campaign_id = $1) i on i.right_id = ur.id
        where (ur.campaign_id = $1 or i.id is not null) and (ur.id is null or i.id is null or i.status <> ur.status)`,
      [campaign],
    )
    expect(mismatched).toBe(0)
    expect(await count(db, `select count(*) from (select right_id from public.campaign_items where campaign_id = $1 group by right_id having count(*) > 1) d`, [campaign])).toBe(0)
  }

  async function campaignWith(n: number, options: { bpoGroupe?: string | null } = {}) {
    const application = await createApplication(db, options)
    const rights: string[] = []
    for (let i = 0; i < n; i++) rights.push(await createRight(db, { applicationId: application, campaignId: null }))
    return { application, rights, campaign: await createDraftCampaign(db, { applicationId: application }) }
  }

  it.runIf(onPostgres)('two campaigns starting together on the same rights: each right is reviewed in one of them', async () => {
    const { application, rights, campaign } = await campaignWith(5)
    const rival = await createDraftCampaign(db, { applicationId: application })
    const { first, second } = await race(['admin', start(campaign)], ['rssi', start(rival)])
    expect([first.ok, second.ok]).toEqual([true, true])
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [campaign])).toBe(5)
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [rival])).toBe(0)
    expect(await count(db, `select count(*) from public.user_rights where id = any($1::uuid[]) and campaign_id = $2`, [rights, campaign])).toBe(5)
    await consistent(campaign)
  })

  it.runIf(onPostgres)('a decision then Terminer: the decision counts, the rest goes to the RA, right and item alike', async () => {
    const { rights, campaign } = await campaignWith(4, { bpoGroupe: null })
    await setStatus(campaign, 'active')
    expect(await decide(db, 'manager', rights[0]!, 'validated_manager')).toMatchObject({ ok: true })
    const { first, second } = await race(['bpo_metier', validate(rights[0]!, 'validated_bpo_metier')], ['admin', complete(campaign)])
    expect([first.ok, second.ok]).toEqual([true, true])
    expect(await item(campaign, rights[0]!)).toMatchObject({ status: 'validated_bpo_metier' })
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1 and status = 'treatment_required'`, [campaign])).toBe(3)
    await consistent(campaign)
  })

  it.runIf(onPostgres)('Terminer then a decision: the decision finds the right gone to the RA and changes nothing', async () => {
    const { rights, campaign } = await campaignWith(3, { bpoGroupe: null })
    await setStatus(campaign, 'active')
    expect(await decide(db, 'manager', rights[0]!, 'validated_manager')).toMatchObject({ ok: true })
    const { first, second } = await race(['admin', complete(campaign)], ['bpo_metier', validate(rights[0]!, 'validated_bpo_metier')])
    expect(first.ok).toBe(true)
    expectRefused(second, 'P0001', /^Ce droit n'attend pas votre décision : son statut est « Traitement requis »\.$/)
    expect(await count(db, `select count(*) from public.right_decisions where right_id = $1`, [rights[0]])).toBe(1)
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1 and status = 'treatment_required'`, [campaign])).toBe(3)
    await consistent(campaign)
  })

  async function importOne(campaign: string, application: string) {
    const app = await one<{ name: string }>(db, `select name from public.applications where id = $1`, [application])
    const rows = JSON.stringify([{ email: demo.user.email, application: app.name, role_name: unique('Rôle') }])
    return (tx: Sql) => tx.query(`select public.import_user_rights($1::jsonb, $2) as r`, [rows, campaign])
  }

  it.runIf(onPostgres)('an import into a draft then Démarrer: the start reviews the imported rights too', async () => {
    const { application, campaign } = await campaignWith(2)
    const { first, second } = await race(['admin', await importOne(campaign, application)], ['rssi', start(campaign)])
    expect([first.ok, second.ok]).toEqual([true, true])
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [campaign])).toBe(3)
    await consistent(campaign)
  })

  it.runIf(onPostgres)('Démarrer then an import into it: the imported right becomes an item of the running campaign', async () => {
    const { application, campaign } = await campaignWith(2)
    const { first, second } = await race(['rssi', start(campaign)], ['admin', await importOne(campaign, application)])
    expect([first.ok, second.ok]).toEqual([true, true])
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1 and status = 'pending'`, [campaign])).toBe(3)
    await consistent(campaign)
  })

  it.runIf(onPostgres)('an import into a running campaign then Terminer: the imported right goes to the RA with the others', async () => {
    const { application, campaign } = await campaignWith(2)
    await setStatus(campaign, 'active')
    const { first, second } = await race(['admin', await importOne(campaign, application)], ['admin', complete(campaign)])
    expect([first.ok, second.ok]).toEqual([true, true])
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1 and status = 'treatment_required'`, [campaign])).toBe(3)
    await consistent(campaign)
  })

  it.runIf(onPostgres)('Terminer then an import into it: the import is refused and the record unchanged', async () => {
    const { application, campaign } = await campaignWith(2)
    await setStatus(campaign, 'active')
    const before = await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [campaign])
    const { first, second } = await race(['admin', complete(campaign)], ['admin', await importOne(campaign, application)])
    expect(first.ok).toBe(true)
    expectRefused(second, 'P0001', /on ne peut plus y importer de droits/)
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [campaign])).toBe(before)
    await consistent(campaign)
  })

  it('the same transitions one after the other give the same records (every backend)', async () => {
    const { application, rights, campaign } = await campaignWith(3, { bpoGroupe: null })
    const rival = await createDraftCampaign(db, { applicationId: application })
    await setStatus(campaign, 'active')
    await setStatus(rival, 'active')
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [rival])).toBe(0)
    await actAs(db, 'admin', await importOne(campaign, application))
    expect(await decide(db, 'manager', rights[0]!, 'validated_manager')).toMatchObject({ ok: true })
    expect(await decide(db, 'bpo_metier', rights[0]!, 'validated_bpo_metier')).toMatchObject({ ok: true })
    await setStatus(campaign, 'completed')
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1 and status = 'treatment_required'`, [campaign])).toBe(3)
    await consistent(campaign)
  })
})
