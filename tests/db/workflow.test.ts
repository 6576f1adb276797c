// The review workflow of ARCHITECTURE §4, enforced by validate_user_right, and the campaign lifecycle of §3.
// Rights are brought to each state through the real workflow (never by writing a status), then decided on as the
// reviewer would through the API.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, asOwner, attempt, campaignIds, demo, isabelle, teamMembers, type DemoRole } from './support/actors'
import {
  allStatuses,
  applicationId,
  auditMark,
  auditSince,
  bringTo,
  count,
  createApplication,
  createDraftCampaign,
  createRight,
  createUser,
  decide,
  expectRefused,
  one,
  rightIn,
  rightStatus,
  unique,
  type DecisionResult,
} from './support/fixtures'

let db: Database
let sap: string
let gitlab: string

beforeAll(async () => {
  db = await freshDatabase()
  sap = await applicationId(db, 'SAP Finance')
  gitlab = await applicationId(db, 'GitLab')
})
afterAll(() => db.close())

const stages = ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra'] as const
type Stage = (typeof stages)[number]

/** ARCHITECTURE §4, row by row. */
const table: Record<Stage, { waiting: string[]; approve: string; refuse: string }> = {
  user: { waiting: ['pending'], approve: 'validated_user', refuse: 'refused_user' },
  manager: { waiting: ['pending', 'validated_user'], approve: 'validated_manager', refuse: 'refused_manager' },
  bpo_metier: { waiting: ['validated_manager'], approve: 'validated_bpo_metier', refuse: 'refused_bpo_metier' },
  bpo_groupe: { waiting: ['validated_bpo_metier'], approve: 'validated_bpo_groupe', refuse: 'refused_bpo_groupe' },
  ra: {
    waiting: ['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe', 'treatment_required'],
    approve: 'treated',
    refuse: 'treatment_required',
  },
}
const refusedStates = ['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe']

/** Everything a refusal must leave as it was: the right, its decisions, the audit trail. */
async function snapshot(rightId: string) {
  return {
    right: await one(db, `select to_jsonb(r) as row from public.user_rights r where id = $1`, [rightId]),
    decisions: await count(db, `select count(*) from public.right_decisions where right_id = $1`, [rightId]),
    audit: await auditMark(db),
  }
}
async function expectUnchanged(rightId: string, before: Awaited<ReturnType<typeof snapshot>>) {
  expect(await one(db, `select to_jsonb(r) as row from public.user_rights r where id = $1`, [rightId])).toEqual(before.right)
  expect(await count(db, `select count(*) from public.right_decisions where right_id = $1`, [rightId])).toBe(before.decisions)
  expect(await auditSince(db, before.audit)).toEqual([])
}

// ─── Every transition ────────────────────────────────────────────────────────────────────────────────────────────────

describe('every transition of ARCHITECTURE §4', () => {
  const transitions: [Stage, string, string][] = stages.flatMap((stage) =>
    table[stage].waiting.flatMap((from) =>
      [table[stage].approve, table[stage].refuse]
        // The RA refuses only what was refused; what already awaits treatment can only be closed.
        .filter((to) => !(stage === 'ra' && from === 'treatment_required' && to === 'treatment_required'))
        .map((to): [Stage, string, string] => [stage, from, to]),
    ),
  )

  it('covers the five stages, both outcomes, and the RA on each refused state', () => {
    expect(transitions).toHaveLength(2 + 4 + 2 + 2 + 9)
  })

  it.each(transitions)('%s: %s → %s writes the status, one decision and one audit entry, in one transaction', async (stage, from, to) => {
    const rightId = await rightIn(db, from, sap)
    const before = await snapshot(rightId)
    const comment = unique('Motif')
    const outcome = await attempt(
      db,
      stage,
      async (tx) => {
        const { r } = await one<{ r: DecisionResult }>(tx, `select public.validate_user_right($1, $2, $3) as r`, [rightId, to, `  ${comment}  `])
        const { now } = await one<{ now: string }>(tx, `select now()::text as now`)
        return { ...r, now }
      },
      { headers: { 'x-forwarded-for': '10.0.0.1, 198.51.100.4' } },
    )
    expect(outcome, outcome.message).toMatchObject({ ok: true, value: { success: true, status: to } })
    const { now, decision_id } = outcome.value!

    const right = await one(
      db,
      `select status::text, validated_by::text, validated_at = $2::timestamptz as at_now, review_comment, campaign_id::text
         from public.user_rights where id = $1`,
      [rightId, now],
    )
    expect(right).toEqual({ status: to, validated_by: demo[stage].id, at_now: true, review_comment: comment, campaign_id: campaignIds.active })

    const decisions = await db.query(
      `select id::text, campaign_id::text, stage::text, decision::text, from_status::text, to_status::text, comment,
              right_id::text, decided_by::text, decided_by_email, decided_by_name, decided_at = $2::timestamptz as at_now
         from public.right_decisions where id = $1`,
      [decision_id, now],
    )
    const holderName = await one<{ name: string }>(db, `select first_name || ' ' || last_name as name from public.users where id = $1`, [demo[stage].id])
    expect(decisions.rows).toEqual([
      {
        id: decision_id,
        right_id: rightId,
        campaign_id: campaignIds.active,
        stage,
        decision: to === table[stage].approve ? 'approved' : 'refused',
        from_status: from,
        to_status: to,
        comment,
        decided_by: demo[stage].id,
        decided_by_email: demo[stage].email,
        decided_by_name: holderName.name,
        at_now: true,
      },
    ])
    expect(await count(db, `select count(*) from public.right_decisions where right_id = $1`, [rightId])).toBe(before.decisions + 1)

    const audit = await auditSince(db, before.audit)
    expect(audit).toHaveLength(1)
    expect(audit[0]).toMatchObject({
      user_id: demo[stage].id,
      user_email: demo[stage].email,
      user_name: holderName.name,
      action: 'decide',
      resource_type: 'user_rights',
      resource_id: rightId,
      ip: '198.51.100.4',
      details: { stage, from_status: from, to_status: to, comment, decision_id, campaign_id: campaignIds.active, holder_id: demo.user.id },
    })
    expect(await one(db, `select $1::timestamptz = $2::timestamptz as same`, [audit[0]!.timestamp, now])).toEqual({ same: true })
  })

  it('a decision whose transaction fails leaves neither the status, nor the decision, nor its audit entry', async () => {
    const rightId = await rightIn(db, 'pending', sap)
    const before = await snapshot(rightId)
    const outcome = await attempt(db, 'user', async (tx) => {
      await tx.query(`select public.validate_user_right($1, 'validated_user')`, [rightId])
      await tx.query(`select 1 / 0`)
    })
    expectRefused(outcome, '22012')
    await expectUnchanged(rightId, before)
  })

  it('a blank comment is stored as no comment', async () => {
    const rightId = await rightIn(db, 'pending', sap)
    const outcome = await decide(db, 'user', rightId, 'validated_user', '   ')
    expect(outcome.ok).toBe(true)
    expect(await one(db, `select review_comment from public.user_rights where id = $1`, [rightId])).toEqual({ review_comment: null })
    expect(await one(db, `select comment from public.right_decisions where right_id = $1`, [rightId])).toEqual({ comment: null })
  })

  it('a right travels the whole way: user, manager, BPO Métier, BPO Groupe, and the RA treats a late refusal', async () => {
    const rightId = await rightIn(db, 'refused_bpo_groupe', sap)
    expect((await decide(db, 'ra', rightId, 'treated')).ok).toBe(true)
    const { rows } = await db.query<{ stage: string; to_status: string }>(
      `select stage::text, to_status::text from public.right_decisions where right_id = $1
        order by array_position(array['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra'], stage::text)`,
      [rightId],
    )
    expect(rows).toEqual([
      { stage: 'manager', to_status: 'validated_manager' },
      { stage: 'bpo_metier', to_status: 'validated_bpo_metier' },
      { stage: 'bpo_groupe', to_status: 'refused_bpo_groupe' },
      { stage: 'ra', to_status: 'treated' },
    ])
  })
})

// ─── Every refusal ───────────────────────────────────────────────────────────────────────────────────────────────────

describe('refusals change nothing and say why in French', () => {
  /** One right of the demo user on SAP Finance, in the active campaign, in each status. */
  const byStatus: Record<string, string> = {}
  beforeAll(async () => {
    for (const status of allStatuses) byStatus[status] = await rightIn(db, status, sap)
  })

  it.each(['admin', 'rssi'] as const)('%s has no review stage', async (role) => {
    for (const status of ['treated', 'validated_manager', 'refused_user']) {
      const rightId = byStatus[role === 'admin' ? 'pending' : 'refused_user']!
      const before = await snapshot(rightId)
      const outcome = await decide(db, role, rightId, status)
      expectRefused(outcome, '42501', /^Votre rôle ne permet pas de statuer sur des droits\.$/)
      await expectUnchanged(rightId, before)
    }
  })

  it('a signed-in account without a profile cannot decide', async () => {
    const rightId = byStatus.pending!
    const before = await snapshot(rightId)
    const outcome = await decide(db, { id: randomUUID(), email: 'inconnu@example.org' }, rightId, 'validated_user')
    expectRefused(outcome, '42501', /Votre profil utilisateur est introuvable/)
    await expectUnchanged(rightId, before)
  })

  const wrongStates = stages.flatMap((stage) =>
    allStatuses.flatMap((status) => {
      const cases: [Stage, string, string][] = []
      const { waiting, approve, refuse } = table[stage]
      if (!waiting.includes(status)) cases.push([stage, status, approve])
      if (!waiting.includes(status) || (stage === 'ra' && !refusedStates.includes(status))) cases.push([stage, status, refuse])
      return cases
    }),
  )
  it.each(wrongStates)('%s cannot decide on a right that is %s (asked: %s)', async (stage, status, asked) => {
    const rightId = byStatus[status]!
    const before = await snapshot(rightId)
    const outcome = await decide(db, stage, rightId, asked)
    expectRefused(outcome, 'P0001', /^Ce droit n'attend pas votre décision : son statut est « .+ »\.$/)
    await expectUnchanged(rightId, before)
  })

  it('says which status the right is in', async () => {
    const outcome = await decide(db, 'user', byStatus.treatment_required!, 'validated_user')
    expect(outcome.message).toContain('« Traitement requis »')
    expect((await decide(db, 'bpo_metier', byStatus.pending!, 'validated_bpo_metier')).message).toContain('« En attente »')
    expect((await decide(db, 'ra', byStatus.treated!, 'treated')).message).toContain('« Traité »')
  })

  const foreignStatuses = stages.flatMap((stage) =>
    allStatuses.filter((s) => s !== table[stage].approve && s !== table[stage].refuse).map((s): [Stage, string] => [stage, s]),
  )
  it.each(foreignStatuses)('%s cannot give a right the status %s, which belongs to another stage', async (stage, status) => {
    const rightId = byStatus[table[stage].waiting[0]!]!
    const before = await snapshot(rightId)
    const outcome = await decide(db, stage, rightId, status)
    expectRefused(outcome, '22023', /^Le statut « .+ » ne peut pas être donné à votre étape de revue\.$/)
    await expectUnchanged(rightId, before)
  })

  it.each(stages)('%s cannot decide without a status', async (stage) => {
    const rightId = byStatus[table[stage].waiting[0]!]!
    const before = await snapshot(rightId)
    expectRefused(await decide(db, stage, rightId, null), '22023', /« vide »/)
    await expectUnchanged(rightId, before)
  })

  it.each(stages)('%s is told an unknown right does not exist', async (stage) => {
    const mark = await auditMark(db)
    const outcome = await decide(db, stage, randomUUID(), table[stage].approve)
    expectRefused(outcome, 'P0001', /^Ce droit est introuvable\.$/)
    expect(await auditSince(db, mark)).toEqual([])
  })

  it('refuses a comment longer than 2000 characters', async () => {
    const rightId = byStatus.pending!
    const before = await snapshot(rightId)
    expectRefused(await decide(db, 'user', rightId, 'validated_user', 'x'.repeat(2001)), '22001', /2000 caractères/)
    await expectUnchanged(rightId, before)
  })

  describe('out of scope', () => {
    // A second application with owners of its own, and a person outside the demo manager's team.
    let otherApp: string
    let outsider: { id: string; email: string }
    let bpo2: { id: string; email: string }
    beforeAll(async () => {
      const ra2 = await createUser(db, { role: 'ra' })
      bpo2 = await createUser(db, { role: 'bpo_metier' })
      const groupe2 = await createUser(db, { role: 'bpo_groupe' })
      otherApp = await createApplication(db, { ra: ra2.id, bpoMetier: bpo2.id, bpoGroupe: groupe2.id })
      outsider = await createUser(db, { role: 'user', managerId: isabelle })
    })

    async function expectOutOfScope(stage: Stage, rightId: string, status: string) {
      const before = await snapshot(rightId)
      const outcome = await decide(db, stage, rightId, status)
      expectRefused(outcome, '42501', /^Ce droit ne fait pas partie de votre périmètre de revue\.$/)
      await expectUnchanged(rightId, before)
    }

    it('a user cannot decide on a colleague’s right', async () => {
      await expectOutOfScope('user', await createRight(db, { holder: teamMembers.thomas, applicationId: sap }), 'validated_user')
    })

    it('a manager cannot decide on the right of someone outside their team', async () => {
      const rightId = await createRight(db, { holder: outsider.id, applicationId: sap })
      await expectOutOfScope('manager', rightId, 'validated_manager')
      await expectOutOfScope('manager', rightId, 'refused_manager')
    })

    it('a manager cannot decide on the right of someone who reports to one of their reports', async () => {
      const grandReport = await createUser(db, { role: 'user', managerId: demo.user.id })
      await expectOutOfScope('manager', await createRight(db, { holder: grandReport.id, applicationId: sap }), 'validated_manager')
    })

    it('a BPO Métier cannot decide on an application they do not own', async () => {
      const rightId = await rightIn(db, 'validated_manager', otherApp)
      await expectOutOfScope('bpo_metier', rightId, 'validated_bpo_metier')
      // …while that application's own BPO Métier can.
      expect((await decide(db, bpo2, rightId, 'validated_bpo_metier')).ok).toBe(true)
    })

    it('a BPO Groupe cannot decide on an application they do not own, nor on one without a BPO Groupe', async () => {
      const onOtherApp = await rightIn(db, 'validated_manager', otherApp)
      expect((await decide(db, bpo2, onOtherApp, 'validated_bpo_metier')).ok).toBe(true)
      await expectOutOfScope('bpo_groupe', onOtherApp, 'validated_bpo_groupe')
      await expectOutOfScope('bpo_groupe', await rightIn(db, 'validated_bpo_metier', gitlab), 'refused_bpo_groupe')
    })

    it('an RA cannot treat a right of an application they do not own', async () => {
      const rightId = await rightIn(db, 'refused_user', otherApp)
      await expectOutOfScope('ra', rightId, 'treated')
      await expectOutOfScope('ra', rightId, 'treatment_required')
    })
  })

  describe('nobody reviews a right they hold themselves beyond the user stage', () => {
    beforeAll(async () => {
      // The reviewers report to the demo manager, so that their own rights can reach their stage.
      await db.query(`update public.users set manager_id = $1 where id = any($2::uuid[])`, [
        demo.manager.id,
        [demo.bpo_metier.id, demo.bpo_groupe.id, demo.ra.id],
      ])
    })

    const cases: [Stage, string, string][] = [
      ['manager', 'pending', 'validated_manager'],
      ['bpo_metier', 'validated_manager', 'validated_bpo_metier'],
      ['bpo_groupe', 'validated_bpo_metier', 'validated_bpo_groupe'],
      ['ra', 'refused_manager', 'treated'],
      ['ra', 'refused_manager', 'treatment_required'],
    ]
    it.each(cases)('%s on their own right in state %s (asked: %s)', async (stage, state, asked) => {
      const rightId = await createRight(db, { holder: demo[stage].id, applicationId: sap })
      await bringTo(db, rightId, state)
      const before = await snapshot(rightId)
      const outcome = await decide(db, stage, rightId, asked)
      expectRefused(outcome, '42501', /^Vous ne pouvez pas statuer sur un droit que vous détenez vous-même\.$/)
      await expectUnchanged(rightId, before)
    })
  })

  describe('reviews happen inside an active campaign; the RA treats after it closes', () => {
    it('no campaign: nobody but the RA may decide', async () => {
      const rightId = await createRight(db, { applicationId: sap, campaignId: null })
      const before = await snapshot(rightId)
      expectRefused(await decide(db, 'user', rightId, 'validated_user'), 'P0001', /^Ce droit ne fait partie d'aucune campagne de revue en cours\.$/)
      expectRefused(await decide(db, 'manager', rightId, 'validated_manager'), 'P0001', /aucune campagne de revue en cours/)
      await expectUnchanged(rightId, before)
    })

    it('a draft campaign: decisions are not open yet', async () => {
      const rightId = await createRight(db, { applicationId: sap, campaignId: campaignIds.draft })
      const before = await snapshot(rightId)
      for (const [stage, status] of [['user', 'validated_user'], ['manager', 'refused_manager']] as const) {
        expectRefused(
          await decide(db, stage, rightId, status),
          'P0001',
          /^La campagne « Revue des comptes à privilèges 2027 » n'est pas en cours : les décisions y sont closes\.$/,
        )
      }
      await expectUnchanged(rightId, before)
    })

    it('a completed campaign: what was undecided went to the RA, and nobody else decides on it any more', async () => {
      const app = await createApplication(db)
      const campaign = await createDraftCampaign(db, { applicationId: app })
      const rightId = await createRight(db, { applicationId: app, campaignId: campaign })
      await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [campaign]))
      await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [campaign]))
      const before = await snapshot(rightId)
      for (const [stage, status] of [['user', 'validated_user'], ['manager', 'refused_manager']] as const) {
        expectRefused(await decide(db, stage, rightId, status), 'P0001', /^Ce droit n'attend pas votre décision : son statut est « Traitement requis »\.$/)
      }
      await expectUnchanged(rightId, before)
    })

    it('after completion, the RA treats both what was refused and what completion sent them', async () => {
      const app = await createApplication(db)
      const refused = await createRight(db, { applicationId: app, campaignId: null })
      const undecided = await createRight(db, { applicationId: app, campaignId: null })
      const campaign = await createDraftCampaign(db, { applicationId: app })
      await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [campaign]))
      await bringTo(db, refused, 'refused_user')
      await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [campaign]))
      expect(await rightStatus(db, undecided)).toBe('treatment_required')
      expect(await rightStatus(db, refused)).toBe('refused_user')

      // Nobody else may decide any more…
      expectRefused(await decide(db, 'manager', refused, 'validated_manager'), 'P0001')
      // …but the RA does.
      expect(await decide(db, 'ra', refused, 'treatment_required')).toMatchObject({ ok: true, value: { status: 'treatment_required' } })
      expect(await decide(db, 'ra', refused, 'treated')).toMatchObject({ ok: true, value: { status: 'treated' } })
      expect(await decide(db, 'ra', undecided, 'treated')).toMatchObject({ ok: true, value: { status: 'treated' } })
      const { rows } = await db.query(`select campaign_id::text, stage::text from public.right_decisions where right_id = any($1::uuid[]) and stage = 'ra'`, [
        [refused, undecided],
      ])
      expect(rows).toEqual([
        { campaign_id: campaign, stage: 'ra' },
        { campaign_id: campaign, stage: 'ra' },
        { campaign_id: campaign, stage: 'ra' },
      ])
    })
  })
})

// ─── Two decisions at once ───────────────────────────────────────────────────────────────────────────────────────────

describe('two decisions arriving together on one right: exactly one wins', () => {
  const hold = 0.2

  /**
   * On a real server every contender first opens its transaction and waits for the others (a barrier), then decides
   * and keeps its transaction open a moment: the decisions truly overlap, and the losers must wait for the winner's
   * lock. PGlite runs transactions one after the other, so there the contenders simply follow each other, which
   * checks the same outcome from the loser's side.
   */
  function contest(rightId: string, contenders: [DemoRole, string][]) {
    const overlapping = db.kind === 'postgres'
    let arrived = 0
    let release!: () => void
    const everyoneIn = new Promise<void>((resolve) => (release = resolve))
    return Promise.all(
      contenders.map(async ([actor, status]) => {
        let decidedAt = 0
        const outcome = await attempt(db, actor, async (tx) => {
          if (overlapping) {
            if (++arrived === contenders.length) release()
            await everyoneIn
          }
          decidedAt = performance.now()
          const { r } = await one<{ r: DecisionResult }>(tx, `select public.validate_user_right($1, $2) as r`, [rightId, status])
          await tx.query(`select pg_sleep(${hold})`)
          return r
        })
        return { ...outcome, waited: (performance.now() - decidedAt) / 1000 }
      }),
    )
  }

  const races: [string, string, [DemoRole, string][]][] = [
    ['the holder, in two tabs: approve and refuse', 'pending', [['user', 'validated_user'], ['user', 'refused_user']]],
    ['the manager, twice the same approval', 'validated_user', [['manager', 'validated_manager'], ['manager', 'validated_manager']]],
    ['the BPO Métier: approve and refuse', 'validated_manager', [['bpo_metier', 'validated_bpo_metier'], ['bpo_metier', 'refused_bpo_metier']]],
    ['the BPO Groupe: approve and refuse', 'validated_bpo_metier', [['bpo_groupe', 'validated_bpo_groupe'], ['bpo_groupe', 'refused_bpo_groupe']]],
    ['the RA, twice closing the same refusal', 'refused_manager', [['ra', 'treated'], ['ra', 'treated']]],
    ['the holder, five times at once', 'pending', [['user', 'validated_user'], ['user', 'refused_user'], ['user', 'validated_user'], ['user', 'refused_user'], ['user', 'validated_user']]],
  ]

  it.each(races)('%s', async (_label, from, contenders) => {
    const rightId = await rightIn(db, from, sap)
    const before = await snapshot(rightId)
    const outcomes = await contest(rightId, contenders)

    const winners = outcomes.filter((o) => o.ok)
    const losers = outcomes.filter((o) => !o.ok)
    expect(winners).toHaveLength(1)
    for (const loser of losers) expectRefused(loser, 'P0001', /^Ce droit n'attend pas votre décision : son statut est « .+ »\.$/)
    // On a real server the losers decided while the winner held the right: they had to wait for its commit.
    if (db.kind === 'postgres') for (const loser of losers) expect(loser.waited).toBeGreaterThan(hold / 2)

    const winner = winners[0]!.value!
    expect(await rightStatus(db, rightId)).toBe(winner.status)
    const decisions = await db.query<{ id: string; to_status: string }>(
      `select id::text, to_status::text from public.right_decisions where right_id = $1 and from_status = $2`,
      [rightId, from],
    )
    expect(decisions.rows).toEqual([{ id: winner.decision_id, to_status: winner.status }])
    expect(await count(db, `select count(*) from public.right_decisions where right_id = $1`, [rightId])).toBe(before.decisions + 1)
    const audit = await auditSince(db, before.audit)
    expect(audit.map((a) => [a.action, a.resource_id])).toEqual([['decide', rightId]])
  })
})

describe.runIf(process.env.DATABASE_URL)('a decision and its campaign on a real server', () => {
  // Every reviewer of a campaign decides in it at once: a lock each on the campaign's row would make them all wait on,
  // and write to, that one row (right_decisions.campaign_id has no foreign key for this reason).
  it('an open decision leaves its campaign row unlocked', async () => {
    const rightId = await rightIn(db, 'validated_user', sap)
    const outcome = await attempt(db, 'manager', async (tx) => {
      const { r } = await one<{ r: DecisionResult }>(tx, `select public.validate_user_right($1, 'validated_manager') as r`, [rightId])
      // Another connection, while the decision's transaction is still open.
      const locked = await attempt(db, 'rssi', (other) =>
        other.query(`select id from public.campaigns where id = $1 for update nowait`, [campaignIds.active]),
      )
      return { r, locked }
    })
    expect(outcome.ok).toBe(true)
    expect(outcome.value?.r.status).toBe('validated_manager')
    expect(outcome.value?.locked).toMatchObject({ ok: true })
    expect(await count(db, `select count(*) from public.right_decisions where right_id = $1 and campaign_id = $2 and stage = 'manager'`, [rightId, campaignIds.active])).toBe(1)
  })
})

// ─── Campaign lifecycle ──────────────────────────────────────────────────────────────────────────────────────────────

describe('campaign lifecycle', () => {
  const setStatus = (actor: DemoRole, id: string, status: string) =>
    attempt(db, actor, (tx) => tx.query(`update public.campaigns set status = $2 where id = $1 returning id`, [id, status]))
  const statusOf = async (id: string) => (await one<{ status: string }>(db, `select status::text from public.campaigns where id = $1`, [id])).status

  /** A campaign in the given state, on an application of its own so that starting it attaches nothing else. */
  async function campaignIn(state: 'draft' | 'active' | 'completed' | 'archived', whileDraft?: (id: string) => Promise<void>): Promise<string> {
    const id = await createDraftCampaign(db, { applicationId: await createApplication(db) })
    await whileDraft?.(id)
    for (const next of ['active', 'completed', 'archived'] as const) {
      if ((await statusOf(id)) === state) break
      expect(await setStatus('admin', id, next)).toMatchObject({ ok: true })
    }
    expect(await statusOf(id)).toBe(state)
    return id
  }

  const labels = { draft: 'Brouillon', active: 'Active', completed: 'Terminée', archived: 'Archivée' } as const
  const states = Object.keys(labels) as (keyof typeof labels)[]
  const allowed = new Set(['draft→active', 'active→completed', 'completed→archived'])

  it.each(['admin', 'rssi'] as const)('%s takes a campaign along draft → active → completed → archived', async (role) => {
    const id = await createDraftCampaign(db, { applicationId: await createApplication(db) })
    for (const next of ['active', 'completed', 'archived']) {
      const outcome = await setStatus(role, id, next)
      expect(outcome.value?.rows).toHaveLength(1)
      expect(await statusOf(id)).toBe(next)
    }
  })

  const forbidden = states.flatMap((from) => states.filter((to) => to !== from && !allowed.has(`${from}→${to}`)).map((to) => [from, to] as const))
  it.each(forbidden)('refuses %s → %s', async (from, to) => {
    const id = await campaignIn(from)
    const outcome = await setStatus('admin', id, to)
    expectRefused(outcome, '23514', new RegExp(`^Passage impossible du statut « ${labels[from]} » au statut « ${labels[to]} »\\.$`))
    expect(await statusOf(id)).toBe(from)
  })

  describe('starting a campaign', () => {
    it('attaches the rights of its application, resets them to pending, and leaves another active campaign’s rights alone', async () => {
      const app = await createApplication(db)
      const otherApp = await createApplication(db)
      // A right already reviewed in an earlier campaign on this application…
      const reviewed = await createRight(db, { applicationId: app, campaignId: null, accountType: 'privileged' })
      const earlier = await createDraftCampaign(db, { applicationId: app })
      await setStatus('admin', earlier, 'active')
      await bringTo(db, reviewed, 'refused_manager')
      await setStatus('admin', earlier, 'completed')
      // …and treated by the RA since…
      expect(await decide(db, 'ra', reviewed, 'treated')).toMatchObject({ ok: true })
      // …a right never reviewed, one in another active campaign, and one on another application.
      const fresh = await createRight(db, { holder: teamMembers.thomas, applicationId: app, campaignId: null })
      const busy = await createRight(db, { holder: teamMembers.emma, applicationId: app, campaignId: campaignIds.active })
      await bringTo(db, busy, 'validated_manager')
      const elsewhere = await createRight(db, { applicationId: otherApp, campaignId: null })
      const decisionsBefore = await count(db, `select count(*) from public.right_decisions where right_id = $1`, [reviewed])

      const campaign = await createDraftCampaign(db, { applicationId: app })
      expect(await setStatus('rssi', campaign, 'active')).toMatchObject({ ok: true })

      const { rows } = await db.query(
        `select id::text, campaign_id::text, status::text, validated_by, validated_at, review_comment
           from public.user_rights where id = any($1::uuid[]) order by id`,
        [[reviewed, fresh, busy, elsewhere]],
      )
      const byId = Object.fromEntries(rows.map((r) => [r.id as string, r]))
      for (const id of [reviewed, fresh]) {
        expect(byId[id]).toEqual({ id, campaign_id: campaign, status: 'pending', validated_by: null, validated_at: null, review_comment: null })
      }
      expect(byId[busy]).toMatchObject({ campaign_id: campaignIds.active, status: 'validated_manager' })
      expect(byId[elsewhere]).toMatchObject({ campaign_id: null, status: 'pending' })
      // The earlier decisions stay in the right's history.
      expect(await count(db, `select count(*) from public.right_decisions where right_id = $1`, [reviewed])).toBe(decisionsBefore)
      // The rights just attached can now be reviewed in the new campaign.
      expect(await decide(db, 'user', reviewed, 'validated_user')).toMatchObject({ ok: true })
      expect(await one(db, `select campaign_id::text from public.right_decisions where right_id = $1 and stage = 'user'`, [reviewed])).toEqual({
        campaign_id: campaign,
      })
    })

    it('keeps to its account type', async () => {
      const app = await createApplication(db)
      const privileged = await createRight(db, { applicationId: app, campaignId: null, accountType: 'privileged' })
      const standard = await createRight(db, { applicationId: app, campaignId: null, accountType: 'standard' })
      const technical = await createRight(db, { holder: teamMembers.lucas, applicationId: app, campaignId: null, accountType: 'technical' })
      const campaign = await createDraftCampaign(db, { applicationId: app, accountType: 'privileged' })
      await setStatus('admin', campaign, 'active')
      const { rows } = await db.query<{ id: string }>(`select id::text from public.user_rights where campaign_id = $1`, [campaign])
      expect(rows.map((r) => r.id)).toEqual([privileged])
      for (const id of [standard, technical]) expect(await one(db, `select campaign_id from public.user_rights where id = $1`, [id])).toEqual({ campaign_id: null })
    })

    it('with no application, takes every application’s rights of its account type not held by another active campaign', async () => {
      const app = await createApplication(db)
      const mine = await createRight(db, { holder: teamMembers.paul, applicationId: app, campaignId: null, accountType: 'emergency' })
      const busy = await createRight(db, { holder: teamMembers.paul, applicationId: sap, campaignId: campaignIds.active, accountType: 'emergency' })
      // Last year's emergency account of the seed, left undecided and treated by the RA since, comes too.
      await db.query(`update public.user_rights set status = 'treated' where account_type = 'emergency' and status = 'treatment_required'`)
      const { rows: candidates } = await db.query<{ id: string; busy: boolean }>(
        `select r.id::text, coalesce(c.status = 'active', false) as busy
           from public.user_rights r left join public.campaigns c on c.id = r.campaign_id
          where r.account_type = 'emergency'`,
      )
      const expected = candidates.filter((c) => !c.busy).map((c) => c.id).sort()
      expect(expected).toContain(mine)
      expect(expected.length).toBeGreaterThan(1)
      expect(candidates.map((c) => c.id)).toContain(busy)

      const campaign = await createDraftCampaign(db, { accountType: 'emergency' })
      await setStatus('admin', campaign, 'active')
      const attached = await db.query<{ id: string }>(`select id::text from public.user_rights where campaign_id = $1 order by id`, [campaign])
      expect(attached.rows.map((r) => r.id).sort()).toEqual(expected)
      expect(await one(db, `select campaign_id::text from public.user_rights where id = $1`, [busy])).toEqual({ campaign_id: campaignIds.active })
    })
  })

  describe('refused access stays with the RA', () => {
    it('a start leaves every right refused or undecided at closure and not yet treated with the RA, and says how many', async () => {
      const app = await createApplication(db)
      const earlier = await createDraftCampaign(db, { applicationId: app })
      const refused = await createRight(db, { applicationId: app, campaignId: null })
      const undecided = await createRight(db, { holder: teamMembers.thomas, applicationId: app, campaignId: null })
      const treated = await createRight(db, { holder: teamMembers.emma, applicationId: app, campaignId: null })
      await setStatus('admin', earlier, 'active')
      await bringTo(db, refused, 'refused_manager')
      await bringTo(db, treated, 'refused_manager')
      await setStatus('admin', earlier, 'completed')
      expect(await decide(db, 'ra', treated, 'treated')).toMatchObject({ ok: true })

      const campaign = await createDraftCampaign(db, { applicationId: app })
      const preview = await attempt(db, 'admin', (tx) => tx.query(`select public.campaign_start_preview($1) as p`, [campaign]))
      expect(preview.value?.rows[0]?.p).toEqual({ rights_to_attach: 1, rights_left_with_ra: 2 })
      expect(await setStatus('admin', campaign, 'active')).toMatchObject({ ok: true })

      const { rows } = await db.query(`select id::text, campaign_id::text, status::text from public.user_rights where id = any($1::uuid[])`, [
        [refused, undecided, treated],
      ])
      const byId = Object.fromEntries(rows.map((r) => [r.id as string, r]))
      expect(byId[refused]).toMatchObject({ campaign_id: earlier, status: 'refused_manager' })
      expect(byId[undecided]).toMatchObject({ campaign_id: earlier, status: 'treatment_required' })
      expect(byId[treated]).toMatchObject({ campaign_id: campaign, status: 'pending' })
      expect(await one(db, `select details from public.audit_logs where action = 'start_campaign' and resource_id = $1`, [campaign])).toMatchObject({
        details: { rights_attached: 1, rights_left_with_ra: 2 },
      })
      // The RA still treats them, and the manager cannot approve what was refused.
      expect(await decide(db, 'manager', refused, 'validated_manager')).toMatchObject({ ok: false })
      expect(await decide(db, 'ra', refused, 'treated')).toMatchObject({ ok: true })
    })

    it('the preview is for admin and rssi only', async () => {
      const campaign = await createDraftCampaign(db, {})
      for (const actor of ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra'] as const) {
        const outcome = await attempt(db, actor, (tx) => tx.query(`select public.campaign_start_preview($1)`, [campaign]))
        expectRefused(outcome, '42501', /^Seuls les administrateurs et le RSSI peuvent démarrer une campagne\.$/)
      }
    })
  })

  describe('completing a campaign', () => {
    it('sends what is still undecided to the RA and keeps every final or refused outcome', async () => {
      const withGroupe = await createApplication(db)
      const withoutGroupe = await createApplication(db, { bpoGroupe: null })
      const campaignA = await createDraftCampaign(db, { applicationId: withGroupe })
      const campaignB = await createDraftCampaign(db, { applicationId: withoutGroupe })
      const rightsA: Record<string, string> = {}
      for (const status of allStatuses) rightsA[status] = await createRight(db, { applicationId: withGroupe, campaignId: null })
      const undecidedB = await createRight(db, { applicationId: withoutGroupe, campaignId: null })
      const finalB = await createRight(db, { applicationId: withoutGroupe, campaignId: null })
      await setStatus('admin', campaignA, 'active')
      await setStatus('admin', campaignB, 'active')
      for (const status of allStatuses) await bringTo(db, rightsA[status]!, status)
      await bringTo(db, finalB, 'validated_bpo_metier')

      expect(await setStatus('admin', campaignA, 'completed')).toMatchObject({ ok: true })
      expect(await setStatus('admin', campaignB, 'completed')).toMatchObject({ ok: true })

      const undecided = ['pending', 'validated_user', 'validated_manager', 'validated_bpo_metier']
      for (const status of allStatuses) {
        expect(await rightStatus(db, rightsA[status]!), status).toBe(undecided.includes(status) ? 'treatment_required' : status)
      }
      // Without a BPO Groupe, the BPO Métier's approval is final.
      expect(await rightStatus(db, finalB)).toBe('validated_bpo_metier')
      expect(await rightStatus(db, undecidedB)).toBe('treatment_required')
    })
  })

  describe('only drafts are edited or deleted', () => {
    const edits: [string, string][] = [
      ['name', `name = 'Renommée'`],
      ['description', `description = 'Autre'`],
      ['dates', `end_date = end_date + 10`],
      ['account type', `account_type = 'external'`],
      ['application', `application_id = null`],
    ]

    it.each(edits)('a draft’s %s can be edited', async (_label, set) => {
      const id = await campaignIn('draft')
      const before = await one(db, `select to_jsonb(c) - 'updated_at' as row from public.campaigns c where id = $1`, [id])
      const outcome = await attempt(db, 'admin', (tx) => tx.query(`update public.campaigns set ${set} where id = $1 returning id`, [id]))
      expect(outcome.value?.rows).toHaveLength(1)
      expect(await one(db, `select to_jsonb(c) - 'updated_at' as row from public.campaigns c where id = $1`, [id])).not.toEqual(before)
    })

    const lockedStates = ['active', 'completed', 'archived'] as const
    it.each(lockedStates.flatMap((state) => edits.map(([label, set]) => [state, label, set] as const)))(
      'a campaign that is %s: its %s cannot be edited',
      async (state, _label, set) => {
        const id = await campaignIn(state)
        const before = await one(db, `select to_jsonb(c) as row from public.campaigns c where id = $1`, [id])
        const outcome = await attempt(db, 'admin', (tx) => tx.query(`update public.campaigns set ${set} where id = $1`, [id]))
        const message = state === 'active' ? /^Seule une campagne en brouillon peut être modifiée\.$/ : /^La campagne « .+ » est clôturée : elle ne peut plus être modifiée\.$/
        expectRefused(outcome, '23514', message)
        expect(await one(db, `select to_jsonb(c) as row from public.campaigns c where id = $1`, [id])).toEqual(before)
      },
    )

    // Its settings too: the scheduled pass would make the next occurrence of a closed campaign from them.
    const settings: [string, string][] = [
      ['recurrence', `recurrence = 'quarterly'`],
      ['automatic start', `auto_start = true`],
      ['notifications', `notifications_enabled = not notifications_enabled`],
      ['reminders', `reminders_enabled = not reminders_enabled`],
      ['reminder days', `reminder_days = '{5}'`],
      ['escalation delay', `escalation_delay_days = 7`],
      ['previous occurrence', `previous_occurrence_id = '${campaignIds.active}'`],
    ]
    it.each((['completed', 'archived'] as const).flatMap((state) => settings.map(([label, set]) => [state, label, set] as const)))(
      'a campaign that is %s: its %s cannot change, for admin nor for the service role',
      async (state, _label, set) => {
        const id = await campaignIn(state)
        const before = await one(db, `select to_jsonb(c) as row from public.campaigns c where id = $1`, [id])
        const byAdmin = await attempt(db, 'admin', (tx) => tx.query(`update public.campaigns set ${set} where id = $1`, [id]))
        expect(byAdmin.ok).toBe(false)
        const byService = await attempt(db, 'service_role', (tx) => tx.query(`update public.campaigns set ${set} where id = $1`, [id]))
        expectRefused(byService, '23514', /^La campagne « .+ » est clôturée : elle ne peut plus être modifiée\.$/)
        expect(await one(db, `select to_jsonb(c) as row from public.campaigns c where id = $1`, [id])).toEqual(before)
      },
    )

    it('the seed’s completed campaign gets no next occurrence from a recurrence set after it closed', async () => {
      const outcome = await attempt(db, 'admin', (tx) =>
        tx.query(`update public.campaigns set recurrence = 'quarterly', auto_start = true where name = 'Revue annuelle 2025'`),
      )
      expectRefused(outcome, '23514', /^La campagne « Revue annuelle 2025 » est clôturée : elle ne peut plus être modifiée\.$/)
      const pass = await attempt(db, 'service_role', (tx) => tx.query(`select public.run_campaign_schedule('2026-11-28 12:00+01') as r`))
      expect(pass.value?.rows[0]?.r).toMatchObject({ created: 0 })
      expect(await count(db, `select count(*) from public.campaigns where name like 'Revue annuelle 2025 —%'`)).toBe(0)
    })

    it.each(lockedStates)('a campaign that is %s cannot be deleted, nor its rights with it', async (state) => {
      let rightId = ''
      const id = await campaignIn(state, async (draft) => {
        rightId = await createRight(db, { applicationId: sap, campaignId: draft })
      })
      const outcome = await attempt(db, 'rssi', (tx) => tx.query(`delete from public.campaigns where id = $1`, [id]))
      expectRefused(outcome, '23514', /^Seule une campagne en brouillon peut être supprimée\.$/)
      expect(await count(db, `select count(*) from public.campaigns where id = $1`, [id])).toBe(1)
      expect(await count(db, `select count(*) from public.user_rights where id = $1`, [rightId])).toBe(1)
    })

    it('a campaign that decisions name cannot be deleted, and a decision keeps its campaign', async () => {
      const draft = await campaignIn('draft')
      const decided = await decide(db, 'manager', await rightIn(db, 'validated_user', sap), 'validated_manager')
      const decision = decided.value!
      // A draft has no items, so no decision names one through the workflow: the row is moved to it as the owner, with
      // the workflow's own switch on, to reach the rule that stands in for a foreign key.
      expect(
        await asOwner(
          db,
          `with s as (select set_config('recertif.writer_applies_effects', 'on', true))
           update public.right_decisions set campaign_id = $1 from s where id = $2`,
          [draft, decision.decision_id],
        ),
      ).toMatchObject({ ok: true })
      const outcome = await attempt(db, 'admin', (tx) => tx.query(`delete from public.campaigns where id = $1`, [draft]))
      expectRefused(outcome, '23514', /^Des décisions ont été prises dans cette campagne : elle ne peut pas être supprimée\.$/)
      expect(await count(db, `select count(*) from public.campaigns where id = $1`, [draft])).toBe(1)

      // Without the switch, the guard keeps a decision in the campaign it names.
      const moved = await asOwner(db, `update public.right_decisions set campaign_id = $1 where id = $2`, [campaignIds.active, decision.decision_id])
      expectRefused(moved, '23514', /^Une décision reste attachée à la campagne où elle a été prise\.$/)
      expect(await one(db, `select campaign_id::text as c from public.right_decisions where id = $1`, [decision.decision_id])).toEqual({ c: draft })
    })

    it('deleting a draft deletes the rights linked to it, and only those', async () => {
      const id = await campaignIn('draft')
      const linked = [await createRight(db, { applicationId: sap, campaignId: id }), await createRight(db, { applicationId: gitlab, campaignId: id })]
      const other = await createRight(db, { applicationId: sap, campaignId: null })
      const outcome = await attempt(db, 'admin', (tx) => tx.query(`delete from public.campaigns where id = $1 returning id`, [id]))
      expect(outcome.value?.rows).toHaveLength(1)
      expect(await count(db, `select count(*) from public.user_rights where id = any($1::uuid[])`, [linked])).toBe(0)
      expect(await count(db, `select count(*) from public.user_rights where id = $1`, [other])).toBe(1)
    })
  })

  describe('dates', () => {
    it('a campaign cannot end before it starts', async () => {
      const name = unique('Campagne')
      const outcome = await attempt(db, 'admin', (tx) =>
        tx.query(`insert into public.campaigns (name, start_date, end_date) values ($1, '2027-06-10', '2027-06-09')`, [name]),
      )
      expectRefused(outcome, '23514', /campaigns_dates_ordered/)
      expect(await count(db, `select count(*) from public.campaigns where name = $1`, [name])).toBe(0)
    })

    it('a campaign may start and end the same day', async () => {
      const outcome = await attempt(db, 'admin', (tx) =>
        tx.query(`insert into public.campaigns (name, start_date, end_date) values ($1, '2027-06-10', '2027-06-10') returning id`, [unique('Campagne')]),
      )
      expect(outcome.value?.rows).toHaveLength(1)
    })

    it('a draft cannot be moved to end before it starts', async () => {
      const id = await campaignIn('draft')
      const before = await one(db, `select start_date::text, end_date::text from public.campaigns where id = $1`, [id])
      const outcome = await attempt(db, 'admin', (tx) => tx.query(`update public.campaigns set end_date = start_date - 1 where id = $1`, [id]))
      expectRefused(outcome, '23514', /campaigns_dates_ordered/)
      expect(await one(db, `select start_date::text, end_date::text from public.campaigns where id = $1`, [id])).toEqual(before)
    })
  })
})
