// A completed or archived campaign is frozen (ARCHITECTURE §3): no right enters it, leaves it or changes in it and no
// decision in it is added or changed, whoever asks — admin, rssi, the service role, a reviewer, or a function running
// as the owner — so that its figures and Excel files never change after it closes. What the workflow itself still does
// there goes on: the completion sends the undecided rights to the RA, the RA treats them, a new campaign's start takes
// the rights along, and a right follows its holder (deleted or linked to their account).
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, asOwner, attempt, campaignIds, demo } from './support/actors'
import { count, createApplication, createDraftCampaign, createRight, createUser, decide, expectRefused, one, rightStatus, unique } from './support/fixtures'

const frozenRights = /^Cette campagne est clôturée : ses droits ne peuvent plus être modifiés\.$/
const frozenDecisions = /^Cette campagne est clôturée : ses décisions ne peuvent plus être modifiées\.$/

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


/** What the campaign's figures and files are made of, read as the owner. */
async function contents(campaign: string) {
  const rights = await db.query(
    `select id, user_id, status::text, role_name, justification, last_used_at::text, validated_by, review_comment
       from public.user_rights where campaign_id = $1 order by id`,
    [campaign],
  )
  const decisions = await db.query(`select * from public.right_decisions where campaign_id = $1 order by id`, [campaign])
  const progress = await one(db, `select * from public.campaign_progress where campaign_id = $1`, [campaign])
  return { rights: rights.rows, decisions: decisions.rows, progress }
}

interface Closed {
  application: string
  campaign: string
  holder: { id: string; email: string }
  leaver: { id: string; email: string }
  refused: string
  undecided: string
  spare: string
  leaverRight: string
}

/** A campaign on an application of its own, run through the real workflow: one refusal, then Terminer (and Archiver). */
async function closedCampaign(state: 'completed' | 'archived'): Promise<Closed> {
  const application = await createApplication(db)
  const holder = await createUser(db, { managerId: demo.manager.id })
  const leaver = await createUser(db, { managerId: demo.manager.id })
  const campaign = await createDraftCampaign(db, { applicationId: application })
  const right = (holderId: string) => createRight(db, { holder: holderId, applicationId: application, campaignId: campaign })
  const [refused, undecided, spare, leaverRight] = [await right(holder.id), await right(holder.id), await right(holder.id), await right(leaver.id)]
  await setStatus(campaign, 'active')
  expect(await decide(db, 'manager', refused, 'refused_manager')).toMatchObject({ ok: true })
  await setStatus(campaign, 'completed')
  if (state === 'archived') await setStatus(campaign, 'archived')
  return { application, campaign, holder, leaver, refused, undecided, spare, leaverRight }
}

describe.each(['completed', 'archived'] as const)('a %s campaign is frozen', (state) => {
  let c: Closed

  beforeAll(async () => {
    c = await closedCampaign(state)
  })

  it.each(['admin', 'rssi', 'service_role'] as const)('%s cannot add a right to it, change one of its rights or remove one', async (actor) => {
    const before = await contents(c.campaign)
    const refusals = [
      await attempt(db, actor, (tx) =>
        tx.query(`insert into public.user_rights (user_id, application_id, role_name, campaign_id) values ($1, $2, $3, $4)`, [
          c.holder.id,
          c.application,
          unique('Rôle'),
          c.campaign,
        ]),
      ),
      await attempt(db, actor, (tx) => tx.query(`update public.user_rights set justification = 'Réécrite après coup' where id = $1`, [c.spare])),
      await attempt(db, actor, (tx) => tx.query(`update public.user_rights set last_used_at = now() where id = $1`, [c.spare])),
      await attempt(db, actor, (tx) => tx.query(`update public.user_rights set role_name = $2 where id = $1`, [c.refused, unique('Rôle')])),
      await attempt(db, actor, (tx) => tx.query(`delete from public.user_rights where id = $1`, [c.spare])),
    ]
    for (const outcome of refusals) expectRefused(outcome, '23514', frozenRights)
    expect(await contents(c.campaign)).toEqual(before)
  })

  it('a reviewer cannot add, change or decide anything in it either', async () => {
    const before = await contents(c.campaign)
    // The freeze answers before the row-level security that would refuse a reviewer anyway.
    expectRefused(
      await attempt(db, 'ra', (tx) =>
        tx.query(`insert into public.user_rights (user_id, application_id, role_name, campaign_id) values ($1, $2, $3, $4)`, [
          c.holder.id,
          c.application,
          unique('Rôle'),
          c.campaign,
        ]),
      ),
      '23514',
      frozenRights,
    )
    const changed = await actAs(db, 'ra', (tx) =>
      tx.query(`update public.user_rights set justification = 'Réécrite' where campaign_id = $1 returning id`, [c.campaign]),
    )
    expect(changed.rows).toEqual([])
    expectRefused(await decide(db, 'manager', c.spare, 'validated_manager'), 'P0001') // the completion sent it to the RA
    expect(await contents(c.campaign)).toEqual(before)
  })

  it('no function, not even the owner, moves a right into it or out of it but into a running campaign, reopens one, or alters its decisions', async () => {
    const before = await contents(c.campaign)
    const elsewhere = await createRight(db, { applicationId: c.application, campaignId: null })
    expectRefused(await asOwner(db, `update public.user_rights set campaign_id = $2 where id = $1`, [elsewhere, c.campaign]), '23514', frozenRights)
    expectRefused(await asOwner(db, `update public.user_rights set campaign_id = null where id = $1`, [c.spare]), '23514', frozenRights)
    expectRefused(await asOwner(db, `update public.user_rights set status = 'pending' where id = $1`, [c.spare]), '23514', frozenRights)
    expectRefused(await asOwner(db, `update public.user_rights set status = 'validated_bpo_groupe' where id = $1`, [c.spare]), '23514', frozenRights)
    expectRefused(
      await asOwner(
        db,
        `insert into public.right_decisions (right_id, holder_id, holder_email, holder_name, application_id, application_name,
           role_name, account_type, campaign_id, stage, decision, from_status, to_status, decided_by, decided_by_email, decided_by_name)
         select right_id, holder_id, holder_email, holder_name, application_id, application_name, role_name, account_type,
                campaign_id, 'manager', 'approved', 'pending', 'validated_manager', decided_by, decided_by_email, decided_by_name
           from public.right_decisions where campaign_id = $1 limit 1`,
        [c.campaign],
      ),
      '23514',
      frozenDecisions,
    )
    expectRefused(await asOwner(db, `update public.right_decisions set comment = 'Réécrit' where campaign_id = $1`, [c.campaign]), '23514', frozenDecisions)
    expectRefused(await asOwner(db, `update public.right_decisions set decision = 'approved' where campaign_id = $1`, [c.campaign]), '23514', frozenDecisions)
    expectRefused(await asOwner(db, `delete from public.right_decisions where campaign_id = $1`, [c.campaign]), '23514', frozenDecisions)
    expect(await contents(c.campaign)).toEqual(before)
  })

  it('refuses a statement that changes one of its rights beside rights of a running campaign', async () => {
    const application = await createApplication(db)
    const running = await createDraftCampaign(db, { applicationId: application })
    const live = await createRight(db, { applicationId: application, campaignId: running })
    await setStatus(running, 'active')
    const before = await contents(c.campaign)
    expectRefused(
      await asOwner(db, `update public.user_rights set justification = 'Revue en lot' where id = any($1::uuid[])`, [[live, c.spare]]),
      '23514',
      frozenRights,
    )
    expect(await contents(c.campaign)).toEqual(before)
    expect(await asOwner(db, `update public.user_rights set justification = 'Revue en lot' where id = $1`, [live])).toMatchObject({ ok: true })
  })

  // The freeze compares the columns it guards one by one: a column added to either table later must be added there
  // too, or this test, which changes every column but those the workflow writes, lets the change through.
  it('no column of its rights or items but those the workflow writes can change, even as the owner', async () => {
    const frozenItems = /^Cette campagne est clôturée : ses éléments de revue ne peuvent plus être modifiés\.$/
    const workflow: Record<string, string[]> = {
      user_rights: ['id', 'status', 'validated_at', 'validated_by', 'review_comment', 'user_id', 'campaign_id', 'updated_at'],
      campaign_items: ['id', 'status', 'updated_at'],
    }
    const other = {
      application_id: await createApplication(db),
      campaign_id: await createDraftCampaign(db),
    }
    const item = (await one<{ id: string }>(db, `select id from public.campaign_items where right_id = $1`, [c.spare])).id
    for (const [table, skipped] of Object.entries(workflow)) {
      const { rows: columns } = await db.query<{ name: string; type: string }>(
        `select attname as name, format_type(atttypid, atttypmod) as type from pg_catalog.pg_attribute
          where attrelid = $1::regclass and attnum > 0 and not attisdropped order by attnum`,
        [`public.${table}`],
      )
      const guarded = columns.filter((column) => !skipped.includes(column.name))
      expect(guarded.length).toBeGreaterThan(5)
      for (const { name, type } of guarded) {
        const changed =
          name in other ? `'${other[name as keyof typeof other]}'::uuid`
          : type === 'uuid' ? 'gen_random_uuid()'
          : type === 'text' ? `coalesce(${name}, '') || ' (modifié)'`
          : type === 'timestamp with time zone' ? `coalesce(${name}, now()) - interval '1 day'`
          : type === 'account_type' ? `case when ${name} = 'standard' then 'privileged'::public.account_type else 'standard' end`
          : type === 'boolean' ? `not ${name}`
          : undefined
        expect(changed, `${table}.${name} (${type})`).toBeDefined()
        const outcome = await asOwner(db, `update public.${table} set ${name} = ${changed} where id = $1`, [table === 'user_rights' ? c.spare : item])
        expectRefused(outcome, '23514', table === 'user_rights' ? frozenRights : frozenItems)
      }
    }
  })

  it('the completion sent the undecided rights to the RA, who still treats them and what was refused', async () => {
    expect(await rightStatus(db, c.undecided)).toBe('treatment_required')
    expect(await rightStatus(db, c.refused)).toBe('refused_manager')
    expect(await decide(db, 'ra', c.refused, 'treatment_required')).toMatchObject({ ok: true })
    expect(await decide(db, 'ra', c.refused, 'treated')).toMatchObject({ ok: true })
    expect(await decide(db, 'ra', c.undecided, 'treated')).toMatchObject({ ok: true })
    expect(await count(db, `select count(*) from public.right_decisions where campaign_id = $1 and stage = 'ra'`, [c.campaign])).toBe(3)
  })

  it('a person deleted takes their rights along, and the campaign keeps the decisions taken on them', async () => {
    expect(await decide(db, 'ra', c.leaverRight, 'treated')).toMatchObject({ ok: true })
    expect(await attempt(db, 'admin', (tx) => tx.query(`delete from public.users where id = $1`, [c.leaver.id]))).toMatchObject({ ok: true })
    expect(await rightStatus(db, c.leaverRight)).toBeUndefined()
    expect(await count(db, `select count(*) from public.right_decisions where campaign_id = $1 and holder_id = $2 and right_id is null`, [c.campaign, c.leaver.id])).toBe(1)
  })

  it('a profile linked to its account at first sign-in keeps its rights in the campaign', async () => {
    const account = randomUUID()
    const linked = await attempt(db, { id: account, email: c.holder.email }, (tx) => tx.query(`select public.update_user_id($1, $2)`, [c.holder.id, account]))
    expect(linked).toMatchObject({ ok: true })
    expect(await count(db, `select count(*) from public.user_rights where campaign_id = $1 and user_id = $2`, [c.campaign, account])).toBe(3)
  })

  it('a new campaign on its application leaves its rights with the RA until treated, then takes them along, and it keeps its decisions', async () => {
    const waiting = await db.query<{ id: string }>(
      `select id::text from public.user_rights
        where campaign_id = $1 and status = any (private.statuses_awaiting_treatment()) order by id`,
      [c.campaign],
    )
    expect(waiting.rows.length).toBeGreaterThan(0)
    const early = await createDraftCampaign(db, { applicationId: c.application })
    await setStatus(early, 'active')
    const stayed = await db.query<{ id: string }>(`select id::text from public.user_rights where campaign_id = $1 order by id`, [c.campaign])
    expect(stayed.rows).toEqual(waiting.rows)
    await setStatus(early, 'completed')
    for (const { id } of waiting.rows) expect(await decide(db, 'ra', id, 'treated')).toMatchObject({ ok: true })

    const decisions = await count(db, `select count(*) from public.right_decisions where campaign_id = $1`, [c.campaign])
    const next = await createDraftCampaign(db, { applicationId: c.application })
    await setStatus(next, 'active')
    expect(await count(db, `select count(*) from public.user_rights where campaign_id = $1`, [c.campaign])).toBe(0)
    expect(await count(db, `select count(*) from public.user_rights where campaign_id = $1 and status = 'pending'`, [next])).toBe(waiting.rows.length)
    expect(await count(db, `select count(*) from public.right_decisions where campaign_id = $1`, [c.campaign])).toBe(decisions)
  })
})

describe('drafts and active campaigns take and change rights as before', () => {
  it.each([
    ['a draft', (): Promise<string> => createDraftCampaign(db)],
    ['an active', async (): Promise<string> => campaignIds.active],
  ] as const)('admin adds a right to %s campaign, changes it and removes it', async (_label, campaignOf) => {
    const campaign = await campaignOf()
    const application = await createApplication(db)
    const added = await attempt(db, 'admin', (tx) =>
      tx.query<{ id: string }>(`insert into public.user_rights (user_id, application_id, role_name, campaign_id) values ($1, $2, $3, $4) returning id`, [
        demo.user.id,
        application,
        unique('Rôle'),
        campaign,
      ]),
    )
    expect(added).toMatchObject({ ok: true })
    const id = added.value!.rows[0]!.id
    expect(await attempt(db, 'admin', (tx) => tx.query(`update public.user_rights set justification = 'Précisée' where id = $1`, [id]))).toMatchObject({ ok: true })
    expect(await attempt(db, 'admin', (tx) => tx.query(`delete from public.user_rights where id = $1`, [id]))).toMatchObject({ ok: true })
    expect(await rightStatus(db, id)).toBeUndefined()
  })
})
