// Who may decide what: four eyes on every item, whatever path led a person to it (own role, delegation, fallback,
// reassignment), and no power for a deactivated person, whatever token they still hold. Each refusal changes nothing,
// and the queues never offer what a decision would refuse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo, type Actor } from './support/actors'
import { count, createApplication, createRight, createUser, decide, expectRefused, one, rightStatus } from './support/fixtures'

type Person = { id: string; email: string }

let db: Database
const active = campaignIds.active
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
const fourEyes = /^Principe des quatre yeux : .* déjà statué sur ce droit à l'étape « .+ » de cette campagne ; une autre personne doit le revoir à l'étape « .+ »\.$/

beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

function delegate(actor: Actor, delegateId: string, rightIds: string[] | null = null) {
  return attempt(db, actor, (tx) =>
    tx.query(`select public.delegate_review_items($1, $2, 'Congés', $3::date, $4::uuid[]) as id`, [active, delegateId, tomorrow(), rightIds]),
  )
}

function reassign(fromId: string, toId: string, rightIds: string[] | null = null) {
  return attempt(db, 'admin', (tx) =>
    tx.query(`select public.reassign_review_items($1, $2, $3, 'Absence', $4::date, $5::uuid[]) as id`, [active, fromId, toId, tomorrow(), rightIds]),
  )
}

/** The rights a person is offered: their own queue and the one they act on for others, and the bell's count. */
async function offered(actor: Actor): Promise<{ own: string[]; acting: string[]; bell: number }> {
  return actAs(db, actor, async (tx) => {
    const own = (await tx.query<{ right_id: string }>(`select right_id::text from public.review_queue()`)).rows.map((r) => r.right_id)
    const acting = (await tx.query<{ right_id: string }>(`select right_id::text from public.delegated_review_queue()`)).rows.map((r) => r.right_id)
    const bell = (await one<{ n: number }>(tx, `select public.review_queue_count() as n`)).n
    return { own, acting, bell }
  })
}

async function setActive(person: Person, value: boolean) {
  await actAs(db, 'admin', (tx) => tx.query(`select public.set_user_active($1, $2)`, [person.id, value]))
}

async function decisionsOn(rightId: string): Promise<number> {
  return count(db, `select count(*) from public.right_decisions where right_id = $1`, [rightId])
}

/** The BPO Groupe stage's items of the active campaign: the demo BPO Groupe's, those without a reviewer, her sign-off's. */
async function bpoGroupeItems(): Promise<{ hers: number; nobodys: number; signoff: number }> {
  const rows = await actAs(db, 'admin', async (tx) =>
    (await tx.query<{ stage: string; reviewer_id: string | null; items_count: number }>(`select * from public.campaign_signoffs_for_evidence($1)`, [active])).rows,
  )
  const at = (reviewer: string | null) => rows.find((r) => r.stage === 'bpo_groupe' && r.reviewer_id === reviewer)?.items_count ?? 0
  const signoff = await actAs(db, 'bpo_groupe', async (tx) =>
    (await tx.query<{ items_count: number }>(`select items_count from public.my_signoffs() where campaign_id = $1`, [active])).rows[0]?.items_count ?? 0,
  )
  return { hers: at(demo.bpo_groupe.id), nobodys: at(null), signoff }
}

/** How many items the stage digests queued for a person announce at a stage. */
function digested(personId: string, stage: string): Promise<number> {
  return count(
    db,
    `select coalesce(sum((payload -> 'counts' ->> $2)::int), 0) from public.notifications
      where recipient_id = $1 and kind = 'stage_digest'`,
    [personId, stage],
  )
}

describe('four eyes', () => {
  it('a BPO Groupe who decided for the BPO Métier by delegation cannot decide the BPO Groupe stage of the same right', async () => {
    const app = await createApplication(db)
    const right = await createRight(db, { holder: (await createUser(db, { managerId: demo.manager.id })).id, applicationId: app })
    const bpoMetierDigest = await digested(demo.bpo_metier.id, 'bpo_metier')
    expect(await decide(db, 'manager', right, 'validated_manager')).toMatchObject({ ok: true })
    expect(await digested(demo.bpo_metier.id, 'bpo_metier')).toBe(bpoMetierDigest + 1)
    expect((await delegate('bpo_metier', demo.bpo_groupe.id)).ok).toBe(true)
    expect((await offered('bpo_groupe')).acting).toContain(right)
    const reviewersBefore = await bpoGroupeItems()
    const bpoGroupeDigest = await digested(demo.bpo_groupe.id, 'bpo_groupe')
    expect(await decide(db, 'bpo_groupe', right, 'validated_bpo_metier')).toMatchObject({ ok: true })
    // Her digest does not announce an item she may not decide.
    expect(await digested(demo.bpo_groupe.id, 'bpo_groupe')).toBe(bpoGroupeDigest)
    // The campaign's « Relecteurs » and the BPO Groupe's sign-off no longer count it as hers: it is the fallback reviewers'.
    const reviewersAfter = await bpoGroupeItems()
    expect(reviewersAfter.hers).toBe(reviewersBefore.hers - 1)
    expect(reviewersAfter.nobodys).toBe(reviewersBefore.nobodys + 1)
    expect(reviewersAfter.signoff).toBe(reviewersBefore.signoff - 1)

    // The BPO Groupe's own queue does not offer the next stage of that right, and a direct call is refused.
    const after = await offered('bpo_groupe')
    expect(after.own).not.toContain(right)
    expect(after.acting).not.toContain(right)
    const before = await decisionsOn(right)
    expectRefused(await decide(db, 'bpo_groupe', right, 'validated_bpo_groupe'), '42501', fourEyes)
    expect(await rightStatus(db, right)).toBe('validated_bpo_metier')
    expect(await decisionsOn(right)).toBe(before)
  })

  it('an admin who reassigned three stages of one right to himself decides one of them, and no more', async () => {
    const holder = await createUser(db, { managerId: demo.manager.id })
    const app = await createApplication(db)
    const right = await createRight(db, { holder: holder.id, applicationId: app })
    for (const reviewer of [demo.manager, demo.bpo_metier, demo.bpo_groupe]) {
      expect((await reassign(reviewer.id, demo.admin.id, [right])).ok).toBe(true)
    }
    expect(await decide(db, 'admin', right, 'validated_manager')).toMatchObject({ ok: true })
    expect((await offered('admin')).acting).not.toContain(right)
    expectRefused(await decide(db, 'admin', right, 'validated_bpo_metier'), '42501', fourEyes)
    expect(await rightStatus(db, right)).toBe('validated_manager')
    // The BPO Métier, whom the admin stood in for at another stage, still decides hers.
    expect((await offered('bpo_metier')).own).toContain(right)
    expect(await decide(db, 'bpo_metier', right, 'validated_bpo_metier')).toMatchObject({ ok: true })
    expectRefused(await decide(db, 'admin', right, 'validated_bpo_groupe'), '42501', fourEyes)
    expect(await decide(db, 'bpo_groupe', right, 'validated_bpo_groupe')).toMatchObject({ ok: true })
  })

  it('a fallback reviewer who decided one stage of a right is not offered the next one, which another fallback reviewer decides', async () => {
    const orphan = await createUser(db, { managerId: null })
    const leaverBpo = await createUser(db, { role: 'bpo_metier' })
    const app = await createApplication(db, { bpoMetier: leaverBpo.id })
    const right = await createRight(db, { holder: orphan.id, applicationId: app })
    const [first, second] = [await createUser(db, { role: 'user' }), await createUser(db, { role: 'user' })]
    await actAs(db, 'admin', (tx) => tx.query(`select public.set_campaign_fallback_reviewers($1, $2::uuid[])`, [active, [first.id, second.id]]))
    try {
      expect(await decide(db, first, right, 'validated_manager')).toMatchObject({ ok: true })
      await setActive(leaverBpo, false)
      expect((await offered(second)).acting).toContain(right)
      expect((await offered(first)).acting).not.toContain(right)
      expectRefused(await decide(db, first, right, 'validated_bpo_metier'), '42501', fourEyes)
      expect(await decide(db, second, right, 'validated_bpo_metier')).toMatchObject({ ok: true })
    } finally {
      await actAs(db, 'admin', (tx) => tx.query(`select public.set_campaign_fallback_reviewers($1, '{}'::uuid[])`, [active]))
    }
  })

  it('the offline file obeys the same rule', async () => {
    const app = await createApplication(db)
    const right = await createRight(db, { holder: (await createUser(db, { managerId: demo.manager.id })).id, applicationId: app })
    expect(await decide(db, 'manager', right, 'validated_manager')).toMatchObject({ ok: true })
    expect((await delegate('bpo_metier', demo.manager.id)).ok).toBe(true)
    const outcome = await attempt(db, 'manager', (tx) =>
      one<{ r: { applied: boolean; lines: { ok: boolean; reason: string }[] } }>(
        tx,
        `select public.apply_review_decisions('bpo_metier', $1::jsonb) as r`,
        [JSON.stringify([{ line: 2, right_id: right, decision: 'approved' }])],
      ),
    )
    expect(outcome.value?.r.applied).toBe(false)
    expect(outcome.value?.r.lines[0]).toMatchObject({ ok: false, reason: expect.stringMatching(fourEyes) })
    expect(await rightStatus(db, right)).toBe('validated_manager')
  })
})

describe('leavers have no power', () => {
  it('a deactivated delegate decides nothing with the token she still holds, and her delegation ends for good', async () => {
    const delegateOf = await createUser(db, { role: 'user' })
    const app = await createApplication(db)
    const right = await createRight(db, { holder: (await createUser(db, { managerId: demo.manager.id })).id, applicationId: app })
    expect((await delegate('manager', delegateOf.id)).ok).toBe(true)
    expect((await offered(delegateOf)).acting).toContain(right)

    await setActive(delegateOf, false)
    expect(await offered(delegateOf)).toEqual({ own: [], acting: [], bell: 0 })
    const outcome = await decide(db, delegateOf, right, 'refused_manager')
    expectRefused(outcome, '42501', /^Votre compte est désactivé : vous ne pouvez plus statuer sur des droits\.$/)
    expect(await rightStatus(db, right)).toBe('pending')
    expect(
      await one(db, `select count(*)::int as n from public.audit_logs where action = 'revoke_delegation' and details ->> 'delegate_id' = $1`, [delegateOf.id]),
    ).toEqual({ n: 1 })

    await setActive(delegateOf, true)
    expect((await offered(delegateOf)).acting).not.toContain(right)
    expect(await decide(db, delegateOf, right, 'refused_manager')).toMatchObject({ ok: false })
  })

  it('a deactivated manager delegates nothing, and a delegation he gave before ends', async () => {
    const leaver = await createUser(db, { role: 'manager' })
    const holder = await createUser(db, { managerId: leaver.id })
    const right = await createRight(db, { holder: holder.id, applicationId: await createApplication(db) })
    const stand_in = await createUser(db, { role: 'ra' })
    expect((await delegate(leaver, stand_in.id)).ok).toBe(true)

    await setActive(leaver, false)
    const again = await delegate(leaver, stand_in.id)
    expect(again.ok).toBe(false)
    expect(await count(db, `select count(*) from public.review_delegations where delegator_id = $1 and revoked_at is null`, [leaver.id])).toBe(0)
    expect((await offered(stand_in)).acting).not.toContain(right)
    expect(await decide(db, stand_in, right, 'validated_manager')).toMatchObject({ ok: false })
    // An admin cannot hand a leaver's items to someone either: they go to the fallback reviewers.
    expectRefused(await reassign(leaver.id, stand_in.id), '42501', /est désactivé\(e\) : ses revues ne se délèguent pas/)
    expect(await rightStatus(db, right)).toBe('pending')
  })

  it('a deactivated reviewer decides nothing of their own stage, signs nothing off and is no fallback reviewer', async () => {
    const leaver = await createUser(db, { role: 'manager' })
    const holder = await createUser(db, { managerId: leaver.id })
    const right = await createRight(db, { holder: holder.id, applicationId: await createApplication(db) })
    await actAs(db, 'admin', (tx) => tx.query(`select public.set_campaign_fallback_reviewers($1, $2::uuid[])`, [active, [leaver.id]]))
    try {
      await setActive(leaver, false)
      expectRefused(await decide(db, leaver, right, 'validated_manager'), '42501', /compte est désactivé/)
      const signoff = await attempt(db, leaver, (tx) => tx.query(`select public.sign_off_campaign_stage($1, 'manager')`, [active]))
      expectRefused(signoff, '42501', /compte est désactivé/)
      expect((await offered(leaver)).acting).toEqual([])
      expect(await rightStatus(db, right)).toBe('pending')
    } finally {
      await actAs(db, 'admin', (tx) => tx.query(`select public.set_campaign_fallback_reviewers($1, '{}'::uuid[])`, [active]))
      await setActive(leaver, true)
    }
  })
})

describe.runIf(process.env.DATABASE_URL)('concurrently, on a real server', () => {
  // Audited writes queue on the audit chain's lock, and the decision also holds its reviewers' rows: a deactivation
  // is either seen by a decision or waits for it.
  it('a deactivation waits for a decision its leaver is part of, then ends the delegation', async () => {
    const stand_in = await createUser(db, { role: 'user' })
    const right = await createRight(db, { holder: (await createUser(db, { managerId: demo.manager.id })).id, applicationId: await createApplication(db) })
    expect((await delegate('manager', stand_in.id, [right])).ok).toBe(true)
    const outcome = await attempt(db, stand_in, async (tx) => {
      await tx.query(`select public.validate_user_right($1, 'validated_manager')`, [right])
      // Another connection deactivates the manager while the decision's transaction is still open: it waits.
      return attempt(db, 'admin', async (other) => {
        await other.query(`set local lock_timeout = '300ms'`)
        return other.query(`select public.set_user_active($1, false)`, [demo.manager.id])
      })
    })
    expect(outcome.ok).toBe(true)
    expect(outcome.value).toMatchObject({ ok: false, code: '55P03' })
    expect(await rightStatus(db, right)).toBe('validated_manager')
    // Once the decision is in, the deactivation goes through and the delegation ends.
    await setActive(demo.manager, false)
    try {
      expect(await count(db, `select count(*) from public.review_delegations where delegator_id = $1 and revoked_at is null`, [demo.manager.id])).toBe(0)
    } finally {
      await setActive(demo.manager, true)
    }
  })

  it('a reassignment during a decision gives nobody a second say: the new reviewer waits, then finds it decided', async () => {
    const right = await createRight(db, { holder: (await createUser(db, { managerId: demo.manager.id })).id, applicationId: await createApplication(db) })
    const stand_in = await createUser(db, { role: 'user' })
    // Audited writes queue on the audit chain: the reassignment is in before the manager's decision opens.
    expect((await reassign(demo.manager.id, stand_in.id, [right])).ok).toBe(true)
    const outcome = await attempt(db, 'manager', async (tx) => {
      await tx.query(`select public.validate_user_right($1, 'validated_manager')`, [right])
      return attempt(db, stand_in, async (other) => {
        await other.query(`set local lock_timeout = '300ms'`)
        return other.query(`select public.validate_user_right($1, 'refused_manager')`, [right])
      })
    })
    expect(outcome.value).toMatchObject({ ok: false, code: '55P03' })
    expect(await decide(db, stand_in, right, 'refused_manager')).toMatchObject({ ok: false })
    expect(await count(db, `select count(*) from public.right_decisions where right_id = $1`, [right])).toBe(1)
    expect(await rightStatus(db, right)).toBe('validated_manager')
  })
})
