// Every count of what waits for a reviewer says what that reviewer's queue holds: the sign-off card of Mes revues
// (my_signoffs), the Relecteurs dialog (campaign_signoffs_for_evidence) and the reminders and escalations
// (private.waiting_reviewers) are compared, person by person and campaign by campaign, with review_queue as that person
// calls it, on the demo data and after the changes that used to set them apart (a new owner of an application, a
// leaver, decisions moving rights between stages). And a running campaign says how many rights wait at a stage where
// nobody may decide them (campaign_reviewer_gaps), to admin and rssi only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo, type Actor } from './support/actors'
import { createUser, decide, expectRefused, one } from './support/fixtures'

let db: Database
const active = campaignIds.active
const completed = campaignIds.completed

beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

interface Person {
  id: string
  email: string
  role: string
}

async function people(): Promise<Person[]> {
  return (await db.query<Person>(`select id::text, email, role::text from public.users order by email`)).rows
}

/** How many rights review_queue, the list of Mes revues, offers the person in the campaign. */
async function queueCount(person: Actor, campaignId: string): Promise<number> {
  return actAs(db, person, async (tx) =>
    (await one<{ n: number }>(tx, `select count(*)::integer as n from public.review_queue(p_campaign_id => $1)`, [campaignId])).n,
  )
}

async function queuesOf(everyone: Person[], campaignId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>()
  for (const person of everyone) counts.set(person.id, await queueCount(person, campaignId))
  return counts
}

interface SignoffCard {
  campaign_id: string
  stage: string
  open_count: number
  waiting_count: number
  upcoming_count: number
}

interface ReviewerRow {
  stage: string
  reviewer_id: string | null
  waiting_count: number
}

/** For each person: the sign-off card's « à décider » beside their queue, in every campaign the card lists. */
async function expectCardsMatchQueues(everyone: Person[]) {
  for (const person of everyone) {
    const cards = await actAs(db, person, async (tx) => (await tx.query<SignoffCard>(`select campaign_id::text, stage::text, open_count, waiting_count, upcoming_count from public.my_signoffs()`)).rows)
    for (const card of cards) {
      expect({ who: person.email, campaign: card.campaign_id, waiting: card.waiting_count }).toEqual({
        who: person.email,
        campaign: card.campaign_id,
        waiting: await queueCount(person, card.campaign_id),
      })
      expect(card.waiting_count + card.upcoming_count).toBeLessThanOrEqual(card.open_count)
    }
  }
}

/** Each named reviewer's « À décider » in the Relecteurs dialog, and each person with a queue there, beside that queue. */
async function expectDialogMatchesQueues(everyone: Person[], campaignId: string) {
  const rows = await actAs(db, 'admin', async (tx) => (await tx.query<ReviewerRow>(`select stage::text, reviewer_id::text, waiting_count from public.campaign_signoffs_for_evidence($1)`, [campaignId])).rows)
  const queues = await queuesOf(everyone, campaignId)
  const shown = new Map<string, number>()
  for (const row of rows) if (row.reviewer_id) shown.set(row.reviewer_id, (shown.get(row.reviewer_id) ?? 0) + row.waiting_count)
  for (const person of everyone.filter((p) => p.role !== 'user' && p.role !== 'admin' && p.role !== 'rssi')) {
    expect({ who: person.email, waiting: shown.get(person.id) ?? 0 }).toEqual({ who: person.email, waiting: queues.get(person.id) })
  }
}

/** The reminders' and escalations' count of each person beside their queue (the RA, treating after the close, aside). */
async function expectMailsMatchQueues(everyone: Person[], campaignId: string) {
  const { rows } = await db.query<{ reviewer_id: string; total: number }>(`select reviewer_id::text, total::integer from private.waiting_reviewers(array[$1::uuid])`, [campaignId])
  const mailed = new Map(rows.map((row) => [row.reviewer_id, row.total]))
  const queues = await queuesOf(everyone, campaignId)
  for (const person of everyone.filter((p) => p.role !== 'ra')) {
    expect({ who: person.email, waiting: mailed.get(person.id) ?? 0 }).toEqual({ who: person.email, waiting: queues.get(person.id) })
  }
}

async function expectEveryCountMatchesTheQueues() {
  const everyone = await people()
  await expectCardsMatchQueues(everyone)
  for (const campaignId of [active, completed]) await expectDialogMatchesQueues(everyone, campaignId)
  await expectMailsMatchQueues(everyone, active)
}

async function gaps(actor: Actor = 'admin'): Promise<Record<string, number>> {
  const rows = await actAs(db, actor, async (tx) => (await tx.query<{ stage: string; items_count: number }>(`select stage::text, items_count from public.campaign_reviewer_gaps($1::uuid[])`, [[active, completed]])).rows)
  return Object.fromEntries(rows.map((row) => [row.stage, row.items_count]))
}

async function setActive(id: string, value: boolean) {
  await actAs(db, 'admin', (tx) => tx.query(`select public.set_user_active($1, $2)`, [id, value]))
}

async function setFallback(ids: string[]) {
  await actAs(db, 'admin', (tx) => tx.query(`select public.set_campaign_fallback_reviewers($1, $2::uuid[])`, [active, ids]))
}

describe('counts of what waits for a reviewer', () => {
  it('on the demo data, the BPO Métier\'s sign-off card says what Mes revues holds, not every right still open', async () => {
    const [card] = await actAs(db, 'bpo_metier', async (tx) => (await tx.query<SignoffCard>(`select campaign_id::text, stage::text, open_count, waiting_count, upcoming_count from public.my_signoffs() where campaign_id = $1`, [active])).rows)
    const queue = await queueCount('bpo_metier', active)
    expect(queue).toBeGreaterThan(0)
    expect(card!.waiting_count).toBe(queue)
    // What is open but not yet at her stage is said apart: she cannot sign while it is there.
    expect(card!.upcoming_count).toBe(card!.open_count - queue)
    expect(card!.upcoming_count).toBeGreaterThan(0)
  })

  it('on the demo data, the Relecteurs dialog gives the RA what the RA\'s queue holds, in the running and the closed campaign', async () => {
    for (const campaignId of [active, completed]) {
      const rows = await actAs(db, 'admin', async (tx) => (await tx.query<ReviewerRow>(`select stage::text, reviewer_id::text, waiting_count from public.campaign_signoffs_for_evidence($1)`, [campaignId])).rows)
      const ra = rows.find((row) => row.stage === 'ra' && row.reviewer_id === demo.ra.id)
      expect(ra?.waiting_count).toBe(await queueCount('ra', campaignId))
    }
  })

  it('on the demo data, a manager\'s reminder counts their team\'s rights, not their own rights waiting for their manager', async () => {
    const { rows } = await db.query<{ total: number }>(`select total::integer from private.waiting_reviewers(array[$1::uuid]) where reviewer_id = $2`, [active, demo.manager.id])
    expect(rows[0]?.total).toBe(await queueCount('manager', active))
  })

  it('every place counts what each person\'s queue holds, on the demo data and as the campaign moves on', async () => {
    await expectEveryCountMatchesTheQueues()

    // An application changes BPO Groupe: the rights waiting there are now the newcomer's, whatever the items recorded.
    const newcomer = { ...(await createUser(db, { role: 'bpo_groupe' })), role: 'bpo_groupe' }
    const waitingAtGroupe = await one<{ application_id: string }>(
      db,
      `select ur.application_id::text from public.user_rights ur where ur.campaign_id = $1 and ur.status = 'validated_bpo_metier' limit 1`,
      [active],
    )
    await db.query(`update public.applications set bpo_groupe_id = $1 where id = $2`, [newcomer.id, waitingAtGroupe.application_id])
    expect(await queueCount(newcomer, active)).toBeGreaterThan(0)
    await expectEveryCountMatchesTheQueues()

    // Decisions move rights from stage to stage.
    const [next] = await actAs(db, 'bpo_metier', async (tx) => (await tx.query<{ right_id: string; approve_status: string }>(`select right_id::text, approve_status::text from public.review_queue(p_campaign_id => $1)`, [active])).rows)
    expect((await decide(db, 'bpo_metier', next!.right_id, next!.approve_status)).ok).toBe(true)
    const [team] = await actAs(db, 'manager', async (tx) => (await tx.query<{ right_id: string }>(`select right_id::text from public.review_queue(p_campaign_id => $1)`, [active])).rows)
    expect((await decide(db, 'manager', team!.right_id, 'refused_manager')).ok).toBe(true)
    await expectEveryCountMatchesTheQueues()

    // A manager leaves: their team's rights are nobody's until someone is named.
    const leaver = await one<{ id: string }>(db, `select m.id::text from public.users m where m.role = 'manager' and m.id <> $1 and exists (select 1 from public.users r where r.manager_id = m.id) limit 1`, [demo.manager.id])
    await setActive(leaver.id, false)
    await expectEveryCountMatchesTheQueues()
    await setActive(leaver.id, true)
  })
})

describe('a running campaign with rights nobody may decide', () => {
  it('counts them per stage until a fallback reviewer who may decide them is named', async () => {
    expect(await gaps()).toEqual({})
    const atGroupe = await actAs(db, 'bpo_groupe', async (tx) => (await tx.query(`select 1 from public.review_queue(p_campaign_id => $1)`, [active])).rows.length)
    expect(atGroupe).toBeGreaterThan(0)

    await setActive(demo.bpo_groupe.id, false)
    try {
      expect(await gaps()).toEqual({ bpo_groupe: atGroupe })
      expect(await gaps('rssi')).toEqual({ bpo_groupe: atGroupe })

      const stand_in = await createUser(db, { role: 'user' })
      await setFallback([stand_in.id])
      expect(await gaps()).toEqual({})
      const offered = await actAs(db, stand_in, async (tx) => (await tx.query(`select 1 from public.delegated_review_queue() where stage = 'bpo_groupe'`)).rows.length)
      expect(offered).toBe(atGroupe)

      // A fallback reviewer who left decides nothing: the rights are nobody's again.
      await setActive(stand_in.id, false)
      expect(await gaps()).toEqual({ bpo_groupe: atGroupe })
    } finally {
      await setFallback([])
      await setActive(demo.bpo_groupe.id, true)
    }
    expect(await gaps()).toEqual({})
  })

  it('is for admin and rssi only', async () => {
    for (const role of ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra'] as const) {
      expectRefused(await attempt(db, role, (tx) => tx.query(`select * from public.campaign_reviewer_gaps($1::uuid[])`, [[active]])), '42501', /administrateurs et le RSSI/)
    }
    expectRefused(await attempt(db, 'anon', (tx) => tx.query(`select * from public.campaign_reviewer_gaps($1::uuid[])`, [[active]])), '42501')
    expect((await attempt(db, 'rssi', (tx) => tx.query(`select * from public.campaign_reviewer_gaps($1::uuid[])`, [[active]]))).ok).toBe(true)
  })
})
