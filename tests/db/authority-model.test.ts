// Who may decide what, played at random: decisions at every stage by every kind of person, delegations, revocations,
// reassignments, fallback reviewers, deactivations and reactivations, campaign starts and completions, offline files.
// After every step: nobody answers for two stages of one item; a decision was accepted only if the queues offered it
// to its author, and everything the queues offer is accepted; nobody deactivated has any power; the bell counts the
// queues; a completed campaign keeps its row and its decisions; no start takes a right that waits for the RA.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, type Actor } from './support/actors'
import { count, createApplication, createDraftCampaign, createRight, createUser, decide, ids } from './support/fixtures'
import { generator } from './support/random'

const STEPS = 200
const SEEDS = [11, 29]
const decisionStatuses = [
  'validated_user', 'refused_user', 'validated_manager', 'refused_manager', 'validated_bpo_metier', 'refused_bpo_metier',
  'validated_bpo_groupe', 'refused_bpo_groupe', 'treated', 'treatment_required',
] as const
const fileStages = ['manager', 'bpo_metier', 'bpo_groupe'] as const

type Person = { id: string; email: string }
interface Offer {
  rightId: string
  approve: string | null
  refuse: string | null
}

class Rollback extends Error {}

let db: Database
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

/** What a person is offered, own queue and acting queue, with the statuses each button gives; and the bell. */
async function offers(person: Person): Promise<{ own: Offer[]; acting: Offer[]; bell: number }> {
  return actAs(db, person, async (tx) => {
    const own = await tx.query<{ right_id: string; approve_status: string | null; refuse_status: string | null }>(
      `select right_id::text, approve_status::text, refuse_status::text from public.review_queue()`,
    )
    const acting = await tx.query<{ right_id: string; approve_status: string | null; refuse_status: string | null }>(
      `select right_id::text, approve_status::text, refuse_status::text from public.delegated_review_queue()`,
    )
    const bell = await tx.query<{ n: number }>(`select public.review_queue_count() as n`)
    const toOffer = (r: { right_id: string; approve_status: string | null; refuse_status: string | null }) => ({
      rightId: r.right_id,
      approve: r.approve_status,
      refuse: r.refuse_status,
    })
    return { own: own.rows.map(toOffer), acting: acting.rows.map(toOffer), bell: bell.rows[0]!.n }
  })
}

/** Whether a decision would be accepted now: taken, then rolled back. */
async function accepted(person: Person, rightId: string, status: string): Promise<boolean> {
  try {
    await actAs(db, person, async (tx) => {
      await tx.query(`select public.validate_user_right($1, $2::public.right_status)`, [rightId, status])
      throw new Rollback()
    })
  } catch (error) {
    if (error instanceof Rollback) return true
    return false
  }
  return false
}

/** Each right of the application and status the one rule allows this person to give now, as "right status". */
async function allowedPairs(person: Person, app: string): Promise<string[]> {
  // Listed as the owner: the rule also answers for rights the person cannot read (a delegate's, a fallback's).
  const rights = await db.query<{ id: string }>(`select id::text from public.user_rights where application_id = $1`, [app])
  const rows = await actAs(db, person, (tx) =>
    tx.query<{ pair: string }>(
      `select r.id::text || ' ' || s.status::text as pair
         from unnest($1::uuid[]) r (id) cross join unnest($2::public.right_status[]) s (status)
        where (select a.refusal from private.decision_authority(r.id, s.status) a) is null`,
      [rights.rows.map((r) => r.id), decisionStatuses],
    ),
  )
  return rows.rows.map((r) => r.pair).sort()
}

/** The same pairs as the queues offer them, on the application's rights. */
async function offeredPairs(offered: Offer[], app: string): Promise<string[]> {
  const rights = await db.query<{ id: string }>(`select id::text from public.user_rights where application_id = $1`, [app])
  const ofApp = new Set(rights.rows.map((r) => r.id))
  const pairs = offered
    .filter((o) => ofApp.has(o.rightId))
    .flatMap((o) => [o.approve, o.refuse].filter((s): s is string => s !== null).map((s) => `${o.rightId} ${s}`))
  return [...new Set(pairs)].sort()
}

async function run(seed: number) {
  const random = generator(seed)
  let checks = 0
  const person = async (role: string, managerId: string | null = null) => ({ ...(await createUser(db, { role, managerId })), role })
  const bpoMetier = await person('bpo_metier')
  const bpoGroupe = await person('bpo_groupe')
  const ra = await person('ra')
  const managers = [await person('manager'), await person('manager')]
  const holders = [
    await person('user', managers[0]!.id),
    await person('user', managers[0]!.id),
    await person('user', managers[1]!.id),
    await person('user', null),
  ]
  const others = [await person('user'), await person('user')]
  const reviewers = [bpoMetier, bpoGroupe, ra, ...managers]
  const everyone = [...reviewers, ...holders, ...others]
  const admin: Actor = 'admin'
  const app = await createApplication(db, { bpoMetier: bpoMetier.id, bpoGroupe: bpoGroupe.id, ra: ra.id })
  const active = new Map(everyone.map((p) => [p.id, true]))

  let campaign = await createDraftCampaign(db, { applicationId: app })
  for (let i = 0; i < 10; i++) await createRight(db, { holder: random.pick(holders).id, applicationId: app, campaignId: null })
  await actAs(db, admin, (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [campaign]))
  const closed: { id: string; row: unknown; decisions: number }[] = []
  const rights = () => ids(db, `select id from public.user_rights where application_id = $1 order by id`, [app])
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)

  const steps: Record<string, () => Promise<void>> = {
    decide: async () => {
      const actor = random.pick(everyone)
      const right = random.pick(await rights())
      const status = random.pick(decisionStatuses)
      const before = await offers(actor)
      const wasOffered = [...before.own, ...before.acting].some((o) => o.rightId === right && (o.approve === status || o.refuse === status))
      const outcome = await decide(db, actor, right, status)
      if (outcome.ok) {
        expect(active.get(actor.id), `a deactivated person decided (${actor.role})`).toBe(true)
        expect(wasOffered, `${actor.role} decided ${status} on a right the queues did not offer`).toBe(true)
      }
    },
    offerTaken: async () => {
      // Someone takes what their queues offer, as they would from Mes revues.
      const actor = random.pick(everyone)
      const { own, acting } = await offers(actor)
      const offer = [...own, ...acting]
      if (offer.length === 0) return
      const chosen = random.pick(offer)
      const status = random.next() < 0.7 ? (chosen.approve ?? chosen.refuse) : (chosen.refuse ?? chosen.approve)
      const outcome = await decide(db, actor, chosen.rightId, status)
      expect(outcome.ok, `${actor.role} was offered ${status} and refused: ${outcome.message}`).toBe(true)
    },
    delegate: async () => {
      const from = random.pick(reviewers)
      const to = random.pick(everyone.filter((p) => p.id !== from.id))
      const outcome = await attempt(db, from, (tx) =>
        tx.query(`select public.delegate_review_items($1, $2, 'Absence', $3::date)`, [campaign, to.id, tomorrow]),
      )
      if (outcome.ok) expect(active.get(from.id) && active.get(to.id)).toBe(true)
    },
    reassign: async () => {
      const from = random.pick(reviewers)
      const to = random.pick([...everyone.filter((p) => p.id !== from.id)])
      const outcome = await attempt(db, admin, (tx) =>
        tx.query(`select public.reassign_review_items($1, $2, $3, 'Absence', $4::date)`, [campaign, from.id, to.id, tomorrow]),
      )
      if (outcome.ok) expect(active.get(from.id) && active.get(to.id)).toBe(true)
    },
    revoke: async () => {
      const live = await ids(db, `select id from public.review_delegations where campaign_id = $1 and revoked_at is null`, [campaign])
      if (live.length > 0) await attempt(db, admin, (tx) => tx.query(`select public.revoke_delegation($1)`, [random.pick(live)]))
    },
    fallback: async () => {
      const chosen = everyone.filter(() => random.next() < 0.3).map((p) => p.id)
      await attempt(db, admin, (tx) => tx.query(`select public.set_campaign_fallback_reviewers($1, $2::uuid[])`, [campaign, chosen]))
    },
    deactivate: async () => {
      const target = random.pick(everyone)
      const value = !active.get(target.id) || random.next() < 0.3 ? true : false
      const outcome = await attempt(db, admin, (tx) => tx.query(`select public.set_user_active($1, $2)`, [target.id, value]))
      if (outcome.ok) active.set(target.id, value)
    },
    offline: async () => {
      const actor = random.pick(everyone)
      const right = random.pick(await rights())
      const before = await offers(actor)
      const outcome = await attempt(db, actor, (tx) =>
        tx.query<{ r: { applied: boolean; lines: { ok: boolean }[] } }>(`select public.apply_review_decisions($1, $2::jsonb) as r`, [
          random.pick(fileStages),
          JSON.stringify([{ line: 2, right_id: right, decision: random.next() < 0.5 ? 'approved' : 'refused' }]),
        ]),
      )
      if (outcome.ok && outcome.value!.rows[0]!.r.applied) {
        expect(active.get(actor.id)).toBe(true)
        expect([...before.own, ...before.acting].some((o) => o.rightId === right)).toBe(true)
      }
    },
    cycle: async () => {
      // Terminer, then a new campaign on the application: nothing that waits for the RA is taken back.
      await actAs(db, admin, (tx) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [campaign]))
      closed.push({
        id: campaign,
        row: (await db.query(`select to_jsonb(c) - 'updated_at' as row from public.campaigns c where id = $1`, [campaign])).rows[0]!.row,
        decisions: await count(db, `select count(*) from public.right_decisions where campaign_id = $1 and stage <> 'ra'`, [campaign]),
      })
      const waiting = await db.query(
        `select id::text, campaign_id::text, status::text from public.user_rights
          where application_id = $1 and status = any (private.statuses_awaiting_treatment()) order by id`,
        [app],
      )
      campaign = await createDraftCampaign(db, { applicationId: app })
      await actAs(db, admin, (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [campaign]))
      const after = await db.query(`select id::text, campaign_id::text, status::text from public.user_rights where id = any($1::uuid[]) order by id`, [
        waiting.rows.map((r) => r.id),
      ])
      expect(after.rows).toEqual(waiting.rows)
    },
    grow: async () => {
      await createRight(db, { holder: random.pick(holders).id, applicationId: app, campaignId: campaign })
    },
  }
  const weights: [string, number][] = [
    ['decide', 6], ['offerTaken', 8], ['delegate', 2], ['reassign', 2], ['revoke', 1], ['fallback', 1], ['deactivate', 2],
    ['offline', 2], ['cycle', 1], ['grow', 1],
  ]
  const bag = weights.flatMap(([kind, weight]) => Array<string>(weight).fill(kind))

  for (let step = 0; step < STEPS; step++) {
    const kind = random.pick(bag)
    await steps[kind]!()
    await checkInvariants(`seed ${seed}, step ${step} (${kind})`)
  }

  async function checkInvariants(where: string) {
    checks++
    // Four eyes: nobody answers for two stages of one item.
    const twice = await count(
      db,
      `select count(*) from (
         select d.item_id, p.person
           from public.right_decisions d cross join lateral unnest(array[d.decided_by, d.on_behalf_of]) p (person)
          where p.person is not null and d.application_id = $1
          group by 1, 2 having count(distinct d.stage) > 1) x`,
      [app],
    )
    expect(twice, `${where}: a person answered for two stages of one item`).toBe(0)
    for (const p of everyone) {
      const { own, acting, bell } = await offers(p)
      const offered = new Set([...own, ...acting].map((o) => o.rightId))
      expect(bell, `${where}: the bell of ${p.role} counts the queues`).toBe(offered.size)
      if (!active.get(p.id)) {
        expect(offered.size, `${where}: a deactivated ${p.role} is offered rights`).toBe(0)
        const live = await count(
          db,
          `select count(*) from public.review_delegations where $1 in (delegator_id, delegate_id) and revoked_at is null`,
          [p.id],
        )
        expect(live, `${where}: a deactivated person keeps a live delegation`).toBe(0)
        continue
      }
      // The queues are the rule read in bulk: what they offer on this application is exactly what the rule allows
      // (asked of one person a step, in turn: a hundred questions each).
      if (p === everyone[checks % everyone.length]) {
        expect(await allowedPairs(p, app), `${where}: the queues of ${p.role} and private.decision_authority disagree`)
          .toEqual(await offeredPairs([...own, ...acting], app))
      }
      // What is offered is accepted (one offer a person a step, rolled back).
      const offer = [...own, ...acting]
      if (offer.length > 0) {
        const o = offer[Math.floor(offer.length / 2)]!
        const status = o.approve ?? o.refuse!
        expect(await accepted(p, o.rightId, status), `${where}: ${p.role} is offered ${status} on a right a decision refuses`).toBe(true)
      }
    }
    for (const c of closed) {
      const now = await db.query(`select to_jsonb(c) - 'updated_at' as row from public.campaigns c where id = $1`, [c.id])
      expect(now.rows[0]!.row, `${where}: a completed campaign changed`).toEqual(c.row)
      expect(await count(db, `select count(*) from public.right_decisions where campaign_id = $1 and stage <> 'ra'`, [c.id])).toBe(c.decisions)
    }
  }
}

describe('who may decide what, under random steps', () => {
  it.each(SEEDS)(`keeps its invariants over ${STEPS} random steps, seed %i`, async (seed) => run(seed), 600_000)
})
