// Delegation, reassignment, fallback reviewers and sign-off: a delegate or a fallback reviewer
// decides for a reviewer exactly what that reviewer could, and the decision records both people; a reviewer signs off a
// stage only once nothing of theirs is left open there. Every refusal is checked to change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo, type Actor } from './support/actors'
import {
  auditMark,
  auditSince,
  count,
  createApplication,
  createRight,
  createUser,
  decide,
  expectRefused,
  one,
  rightStatus,
} from './support/fixtures'

let db: Database
let app: string
let manager: Actor & { id: string; email: string }
let colleague: Actor & { id: string; email: string }
let otherManager: Actor & { id: string; email: string }
let holder: Actor & { id: string; email: string }
const active = campaignIds.active
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)

beforeAll(async () => {
  db = await freshDatabase()
  app = await createApplication(db)
  manager = await createUser(db, { role: 'manager' })
  colleague = await createUser(db, { role: 'user' })
  otherManager = await createUser(db, { role: 'manager' })
  holder = await createUser(db, { role: 'user', managerId: manager.id })
})
afterAll(() => db.close())

function delegate(actor: Actor, delegateId: string, rightIds: string[] | null = null, endsOn = tomorrow()) {
  return attempt(db, actor, async (tx) =>
    (
      await one<{ id: string }>(tx, `select public.delegate_review_items($1, $2, $3, $4::date, $5::uuid[]) as id`, [
        active,
        delegateId,
        'Congés',
        endsOn,
        rightIds,
      ])
    ).id,
  )
}

function queueOf(actor: Actor) {
  return actAs(db, actor, async (tx) => (await tx.query<{ right_id: string; on_behalf_of_name: string | null; acting_as: string; approve_status: string | null }>(`select * from public.delegated_review_queue()`)).rows)
}

async function nameOf(id: string): Promise<string> {
  return (await one<{ n: string }>(db, `select first_name || ' ' || last_name as n from public.users where id = $1`, [id])).n
}

describe('delegation', () => {
  it('lets the delegate decide the delegated items for the reviewer, and records both people', async () => {
    const right = await createRight(db, { holder: holder.id, applicationId: app })
    const delegation = await delegate(manager, colleague.id)
    expect(delegation.ok, delegation.message).toBe(true)

    const queue = await queueOf(colleague)
    expect(queue.find((row) => row.right_id === right)).toMatchObject({
      on_behalf_of_name: await nameOf(manager.id),
      acting_as: 'delegate',
      approve_status: 'validated_manager',
    })

    const mark = await auditMark(db)
    const outcome = await decide(db, colleague, right, 'validated_manager', 'Vu pendant les congés')
    expect(outcome.ok, outcome.message).toBe(true)
    expect(await rightStatus(db, right)).toBe('validated_manager')
    expect(
      await one(db, `select decided_by::text, on_behalf_of::text, on_behalf_of_name, acting_as, stage::text from public.right_decisions where right_id = $1`, [right]),
    ).toEqual({ decided_by: colleague.id, on_behalf_of: manager.id, on_behalf_of_name: await nameOf(manager.id), acting_as: 'delegate', stage: 'manager' })
    const [audit] = (await auditSince(db, mark)).filter((row) => row.action === 'decide')
    expect(audit).toMatchObject({ user_id: colleague.id, details: { on_behalf_of: manager.id, acting_as: 'delegate' } })

    // The decided right leaves the delegate's queue, and the next stage is not the delegate's to decide.
    expect((await queueOf(colleague)).some((row) => row.right_id === right)).toBe(false)
    expectRefused(await decide(db, colleague, right, 'validated_bpo_metier'), '22023')
    expect(await rightStatus(db, right)).toBe('validated_manager')
  })

  it('keeps the delegate to the delegated items: a selection, the reviewer\'s scope, the reviewer\'s stage', async () => {
    const chosen = await createRight(db, { holder: holder.id, applicationId: app })
    const notChosen = await createRight(db, { holder: holder.id, applicationId: app })
    expect((await delegate(manager, otherManager.id, [chosen])).ok).toBe(true)

    expectRefused(await decide(db, otherManager, notChosen, 'validated_manager'), '42501', /périmètre/)
    // Another manager's team is outside the delegation whatever the selection says.
    const demoTeamRight = await createRight(db, { holder: '00000000-0000-4000-b000-000000000002', applicationId: app })
    expectRefused(await decide(db, otherManager, demoTeamRight, 'validated_manager'), '42501', /périmètre/)
    expect(await rightStatus(db, notChosen)).toBe('pending')
    expect(await rightStatus(db, demoTeamRight)).toBe('pending')
    expect((await decide(db, otherManager, chosen, 'refused_manager')).ok).toBe(true)
  })

  it('refuses to delegate what is not the caller\'s, and to anyone but a reviewer', async () => {
    const foreign = await createRight(db, { holder: '00000000-0000-4000-b000-000000000003', applicationId: app })
    expectRefused(await delegate(manager, colleague.id, [foreign]), '42501', /ne font pas partie/)
    expectRefused(await delegate(holder, colleague.id), '42501')
    expectRefused(await delegate('admin', colleague.id), '42501')
    expectRefused(await delegate(manager, manager.id), '22023')
    expectRefused(await delegate(manager, colleague.id, null, '2000-01-01'), '22023')
    expectRefused(
      await attempt(db, manager, (tx) => tx.query(`select public.delegate_review_items($1, $2, '   ', current_date + 1)`, [active, colleague.id])),
      '22023',
      /motif/,
    )
    expect(await count(db, `select count(*) from public.review_delegations where delegator_id = $1 and delegate_id = $2 and item_ids is not null`, [manager.id, colleague.id])).toBe(0)
  })

  it('never lets a delegate decide a right they hold', async () => {
    const ownRight = await createRight(db, { holder: holder.id, applicationId: app })
    expect((await delegate(manager, holder.id)).ok).toBe(true)
    expectRefused(await decide(db, holder, ownRight, 'validated_manager'), '42501', /détenez vous-même/)
    expect(await rightStatus(db, ownRight)).toBe('pending')
    // The holder still attests their own right at their own stage.
    expect((await decide(db, holder, ownRight, 'validated_user')).ok).toBe(true)
  })

  it('ends with its end date and when it is revoked', async () => {
    const delegateUser = await createUser(db, { role: 'user' })
    const right = await createRight(db, { holder: holder.id, applicationId: app })
    const created = await delegate(manager, delegateUser.id)
    expect(created.ok).toBe(true)

    await db.query(`update public.review_delegations set ends_on = current_date - 1 where id = $1`, [created.value])
    expect(await queueOf(delegateUser)).toEqual([])
    expectRefused(await decide(db, delegateUser, right, 'validated_manager'), '22023')

    await db.query(`update public.review_delegations set ends_on = current_date + 1 where id = $1`, [created.value])
    expectRefused(await attempt(db, delegateUser, (tx) => tx.query(`select public.revoke_delegation($1)`, [created.value])), 'P0001')
    expect((await attempt(db, manager, (tx) => tx.query(`select public.revoke_delegation($1)`, [created.value]))).ok).toBe(true)
    expectRefused(await decide(db, delegateUser, right, 'validated_manager'), '22023')
    expect(await rightStatus(db, right)).toBe('pending')
  })

  it('is read by its two people and admin/rssi only, and written through its functions only', async () => {
    const created = await delegate(manager, colleague.id)
    const sees = async (actor: Actor) =>
      actAs(db, actor, (tx) => count(tx, `select count(*) from public.review_delegations where id = $1`, [created.value]))
    expect(await sees(manager)).toBe(1)
    expect(await sees(colleague)).toBe(1)
    expect(await sees('admin')).toBe(1)
    expect(await sees('rssi')).toBe(1)
    for (const actor of ['user', 'manager', 'bpo_metier', 'ra'] as const) expect(await sees(actor)).toBe(0)
    expectRefused(
      await attempt(db, manager, (tx) =>
        tx.query(`insert into public.review_delegations (campaign_id, delegator_id, delegate_id, reason, ends_on) values ($1, $2, $3, 'x', current_date)`, [
          active,
          manager.id,
          colleague.id,
        ]),
      ),
      '42501',
    )
    expectRefused(await attempt(db, colleague, (tx) => tx.query(`update public.review_delegations set ends_on = '2999-01-01' where id = $1`, [created.value])), '42501')
    expectRefused(await attempt(db, 'anon', (tx) => tx.query(`select public.delegated_review_queue()`)), '42501')
  })
})

describe('reassignment by an admin or the RSSI', () => {
  const reassign = (actor: Actor, from: string, to: string) =>
    attempt(db, actor, (tx) => tx.query(`select public.reassign_review_items($1, $2, $3, 'Absence longue', current_date + 7)`, [active, from, to]))

  it('hands an absent reviewer\'s items to someone who then decides for them', async () => {
    const absent = await createUser(db, { role: 'manager' })
    const member = await createUser(db, { role: 'user', managerId: absent.id })
    const right = await createRight(db, { holder: member.id, applicationId: app })
    const stand_in = await createUser(db, { role: 'bpo_metier' })
    for (const actor of ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra'] as const) {
      expectRefused(await reassign(actor, absent.id, stand_in.id), '42501')
    }
    expectRefused(await reassign(absent, absent.id, stand_in.id), '42501')
    expect(await count(db, `select count(*) from public.review_delegations where delegator_id = $1`, [absent.id])).toBe(0)

    expect((await reassign('rssi', absent.id, stand_in.id)).ok).toBe(true)
    expect((await decide(db, stand_in, right, 'validated_manager')).ok).toBe(true)
    expect(await one(db, `select decided_by::text, on_behalf_of::text from public.right_decisions where right_id = $1`, [right])).toEqual({
      decided_by: stand_in.id,
      on_behalf_of: absent.id,
    })
    expect(await one(db, `select created_by::text from public.review_delegations where delegator_id = $1`, [absent.id])).toEqual({ created_by: demo.rssi.id })
  })
})

describe('fallback reviewers', () => {
  it('decide the items without reviewer, and only those', async () => {
    const orphan = await createUser(db, { role: 'user' })
    const orphanRight = await createRight(db, { holder: orphan.id, applicationId: app })
    const managedRight = await createRight(db, { holder: holder.id, applicationId: app })
    const fallback = await createUser(db, { role: 'user' })
    const setFallback = (actor: Actor) => attempt(db, actor, (tx) => tx.query(`select public.set_campaign_fallback_reviewers($1, $2::uuid[])`, [active, [fallback.id]]))

    expectRefused(await decide(db, fallback, orphanRight, 'validated_manager'), '22023')
    for (const actor of ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra'] as const) expectRefused(await setFallback(actor), '42501')
    expect((await setFallback('admin')).ok).toBe(true)

    const queue = await queueOf(fallback)
    expect(queue.map((row) => row.right_id)).toContain(orphanRight)
    expect(queue.map((row) => row.right_id)).not.toContain(managedRight)
    expectRefused(await decide(db, fallback, managedRight, 'validated_manager'), '22023')
    expect((await decide(db, fallback, orphanRight, 'validated_manager')).ok).toBe(true)
    expect(await one(db, `select acting_as, on_behalf_of from public.right_decisions where right_id = $1`, [orphanRight])).toEqual({
      acting_as: 'fallback',
      on_behalf_of: null,
    })

    // The items without reviewer are visible as such on the campaign's sign-off list.
    const rows = await actAs(db, 'admin', async (tx) => (await tx.query<{ stage: string; reviewer_id: string | null }>(`select * from public.campaign_signoffs_for_evidence($1)`, [active])).rows)
    expect(rows.some((row) => row.stage === 'manager' && row.reviewer_id === null)).toBe(true)
  })
})

describe('leavers', () => {
  const setActive = (userId: string, value: boolean) => actAs(db, 'admin', (tx) => tx.query(`select public.set_user_active($1, $2)`, [userId, value]))
  const withoutReviewer = async () =>
    (await actAs(db, 'admin', async (tx) => (await tx.query<{ stage: string; reviewer_id: string | null; items_count: number }>(`select * from public.campaign_signoffs_for_evidence($1)`, [active])).rows))

  it('hand a deactivated reviewer’s pending items to the fallback reviewers until reactivation, never on their own right', async () => {
    const leaver = await createUser(db, { role: 'manager' })
    const member = await createUser(db, { role: 'user', managerId: leaver.id })
    const fallback = await createUser(db, { role: 'user', managerId: leaver.id })
    const memberRight = await createRight(db, { holder: member.id, applicationId: app })
    const fallbackOwnRight = await createRight(db, { holder: fallback.id, applicationId: app })
    const leavingBpo = await createUser(db, { role: 'bpo_metier' })
    const leaverApp = await createApplication(db, { bpoMetier: leavingBpo.id })
    const atBpo = await createRight(db, { holder: holder.id, applicationId: leaverApp })
    expect((await decide(db, manager, atBpo, 'validated_manager')).ok).toBe(true)
    await actAs(db, 'admin', (tx) => tx.query(`select public.set_campaign_fallback_reviewers($1, $2::uuid[])`, [active, [fallback.id]]))

    // While the reviewer is active, the fallback reviewer has nothing of theirs.
    expectRefused(await decide(db, fallback, memberRight, 'validated_manager'), '22023')
    expect((await queueOf(fallback)).map((row) => row.right_id)).not.toContain(memberRight)

    await setActive(leaver.id, false)
    await setActive(leavingBpo.id, false)
    const queue = (await queueOf(fallback)).map((row) => row.right_id)
    expect(queue).toEqual(expect.arrayContaining([memberRight, atBpo]))
    expect(queue).not.toContain(fallbackOwnRight)
    // Nobody decides on their own right, the leaver least of all (no role left).
    expectRefused(await decide(db, fallback, fallbackOwnRight, 'validated_manager'), '42501', /détenez/)
    expect(await rightStatus(db, fallbackOwnRight)).toBe('pending')
    expect((await decide(db, leaver, memberRight, 'validated_manager')).ok).toBe(false)
    expect(await rightStatus(db, memberRight)).toBe('pending')
    // The campaign page counts their items among those without reviewer.
    const rows = await withoutReviewer()
    expect(rows.some((row) => row.reviewer_id === leaver.id)).toBe(false)
    expect(rows.some((row) => row.stage === 'manager' && row.reviewer_id === null)).toBe(true)

    expect((await decide(db, fallback, memberRight, 'validated_manager')).ok).toBe(true)
    expect(await one(db, `select acting_as, on_behalf_of from public.right_decisions where right_id = $1`, [memberRight])).toEqual({
      acting_as: 'fallback',
      on_behalf_of: null,
    })

    // Reactivated, the reviewer has their items back: the fallback reviewer no longer decides them.
    await setActive(leavingBpo.id, true)
    expect((await queueOf(fallback)).map((row) => row.right_id)).not.toContain(atBpo)
    expectRefused(await decide(db, fallback, atBpo, 'validated_bpo_metier'), '22023')
    expect(await rightStatus(db, atBpo)).toBe('validated_manager')
    expect((await withoutReviewer()).some((row) => row.reviewer_id === leavingBpo.id)).toBe(true)
  })
})

describe("the campaign's reviewers", () => {
  type Reviewer = { stage: string; reviewer_id: string | null; items_count: number; open_count: number }
  const reviewers = async () =>
    actAs(db, 'admin', async (tx) => (await tx.query<Reviewer>(`select stage::text, reviewer_id, items_count, open_count from public.campaign_signoffs_for_evidence($1)`, [active])).rows)
  const at = (rows: Reviewer[], stage: string, reviewerId: string | null) =>
    rows.find((row) => row.stage === stage && row.reviewer_id === reviewerId) ?? { items_count: 0, open_count: 0 }

  it('counts each reviewer’s items and those still open, and a right its reviewer holds among those of no reviewer', async () => {
    const bpo = await createUser(db, { role: 'bpo_metier' })
    const bpoApp = await createApplication(db, { bpoMetier: bpo.id })
    const before = await reviewers()
    const first = await createRight(db, { holder: holder.id, applicationId: bpoApp })
    await createRight(db, { holder: colleague.id, applicationId: bpoApp })
    await createRight(db, { holder: bpo.id, applicationId: bpoApp })
    expect((await decide(db, manager, first, 'validated_manager')).ok).toBe(true)
    expect(at(await reviewers(), 'bpo_metier', bpo.id)).toMatchObject({ items_count: 2, open_count: 2 })

    expect((await decide(db, bpo, first, 'validated_bpo_metier')).ok).toBe(true)
    const after = await reviewers()
    expect(at(after, 'bpo_metier', bpo.id)).toMatchObject({ items_count: 2, open_count: 1 })
    // Their own right goes to the fallback reviewers, open like any right not yet past that stage.
    expect(at(after, 'bpo_metier', null).items_count - at(before, 'bpo_metier', null).items_count).toBe(1)
    expect(at(after, 'bpo_metier', null).open_count - at(before, 'bpo_metier', null).open_count).toBe(1)
  })
})

describe('sign-off', () => {
  const signOff = (actor: Actor, stage = 'manager', headers?: Record<string, string>) =>
    attempt(db, actor, (tx) => tx.query(`select public.sign_off_campaign_stage($1, $2::public.review_stage)`, [active, stage]), headers ? { headers } : undefined)

  it('is refused while an item is open, then recorded with time, IP and an audit row, once', async () => {
    const reviewer = await createUser(db, { role: 'manager' })
    const member = await createUser(db, { role: 'user', managerId: reviewer.id })
    const first = await createRight(db, { holder: member.id, applicationId: app })
    const second = await createRight(db, { holder: member.id, applicationId: app })

    expect((await decide(db, reviewer, first, 'validated_manager')).ok).toBe(true)
    expectRefused(await signOff(reviewer), 'P0001', /Il vous reste 1 droit/)
    expectRefused(await signOff(reviewer, 'bpo_metier'), '42501')
    expectRefused(await signOff(member, 'user'), '42501')
    expectRefused(await signOff('bpo_metier', 'manager'), '42501')
    const idle = await createUser(db, { role: 'manager' })
    expectRefused(await signOff(idle), 'P0001', /aucun droit/)
    expect(await count(db, `select count(*) from public.campaign_signoffs where reviewer_id = $1`, [reviewer.id])).toBe(0)

    const mine = async () => actAs(db, reviewer, async (tx) => (await tx.query(`select campaign_id::text, stage::text, items_count, open_count, signed_at from public.my_signoffs()`)).rows)
    expect(await mine()).toEqual([{ campaign_id: active, stage: 'manager', items_count: 2, open_count: 1, signed_at: null }])

    expect((await decide(db, reviewer, second, 'refused_manager')).ok).toBe(true)
    const mark = await auditMark(db)
    const signed = await signOff(reviewer, 'manager', { 'x-forwarded-for': '203.0.113.7' })
    expect(signed.ok, signed.message).toBe(true)
    expect(await one(db, `select host(ip_address) as ip, items_count from public.campaign_signoffs where reviewer_id = $1`, [reviewer.id])).toEqual({
      ip: '203.0.113.7',
      items_count: 2,
    })
    expect(await auditSince(db, mark)).toMatchObject([{ action: 'sign_off', user_id: reviewer.id, ip: '203.0.113.7', details: { stage: 'manager', items: 2 } }])
    expect((await mine())[0]?.signed_at).not.toBeNull()
    expectRefused(await signOff(reviewer), 'P0001', /déjà signé/)

    const evidence = async (actor: Actor) =>
      attempt(db, actor, async (tx) => (await tx.query<{ reviewer_id: string | null; signed_at: string | null; ip_address: string | null }>(`select * from public.campaign_signoffs_for_evidence($1)`, [active])).rows)
    const rows = (await evidence('rssi')).value ?? []
    expect(rows.find((row) => row.reviewer_id === reviewer.id)).toMatchObject({ ip_address: '203.0.113.7' })
    expect(rows.find((row) => row.reviewer_id === demo.manager.id)).toMatchObject({ signed_at: null })
    for (const actor of ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra'] as const) expectRefused(await evidence(actor), '42501')
  })
})
