// Offline files sent back: apply_review_decisions applies the decisions of a filled-in stage file
// as the caller, through validate_user_right, all or nothing. A file never does what its reviewer could not: a line on
// someone else's right, at another stage, on one's own right or in a campaign that is not running refuses the whole
// file, and every refusal is checked to change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { attempt, campaignIds, demo, type Actor } from './support/actors'
import {
  auditMark,
  auditSince,
  bringTo,
  count,
  createApplication,
  createDraftCampaign,
  createRight,
  createUser,
  expectRefused,
  rightStatus,
  roles,
} from './support/fixtures'

let db: Database
let app: string
let holder: { id: string; email: string }
let strangerHolder: { id: string; email: string }

beforeAll(async () => {
  db = await freshDatabase()
  app = await createApplication(db)
  holder = await createUser(db, { role: 'user', managerId: demo.manager.id })
  const otherManager = await createUser(db, { role: 'manager' })
  strangerHolder = await createUser(db, { role: 'user', managerId: otherManager.id })
})
afterAll(() => db.close())

interface Line {
  line: number
  right_id: string
  ok: boolean
  reason: string | null
  holder_name: string | null
  application_name: string | null
  role_name: string | null
}
interface Result {
  applied: boolean
  count: number
  lines: Line[]
}
interface Decision {
  line: number
  right_id: string
  decision: string
  comment?: string | null
}

function apply(actor: Actor, stage: string, decisions: unknown, dryRun = false) {
  return attempt(db, actor, async (tx) => {
    const { rows } = await tx.query<{ r: Result }>(`select public.apply_review_decisions($1::public.review_stage, $2::jsonb, $3) as r`, [
      stage,
      JSON.stringify(decisions),
      dryRun,
    ])
    return rows[0]!.r
  })
}

const pendingRight = (holderId = holder.id) => createRight(db, { holder: holderId, applicationId: app })

/** What a refused file must leave as it was: the rights' statuses, their decisions and the audit trail. */
async function snapshot(rightIds: string[]) {
  return {
    statuses: await Promise.all(rightIds.map((id) => rightStatus(db, id))),
    decisions: await count(db, `select count(*) from public.right_decisions where right_id = any($1::uuid[])`, [rightIds]),
    audit: await auditMark(db),
  }
}

describe('a manager sends back their filled file', () => {
  it('applies every decision as the manager, with its decision row and its audit entry', async () => {
    const [approved, refused] = [await pendingRight(), await pendingRight()]
    const mark = await auditMark(db)
    const outcome = await apply('manager', 'manager', [
      { line: 2, right_id: approved, decision: 'approved', comment: null },
      { line: 3, right_id: refused, decision: 'refused', comment: 'Plus dans l’équipe' },
    ])
    expect(outcome.ok, outcome.message).toBe(true)
    expect(outcome.value).toMatchObject({ applied: true, count: 2 })
    expect(outcome.value!.lines.map((l) => [l.line, l.ok, l.reason])).toEqual([
      [2, true, null],
      [3, true, null],
    ])
    expect(outcome.value!.lines[0]!.holder_name).toMatch(/^Test Personne/)
    expect(await rightStatus(db, approved)).toBe('validated_manager')
    expect(await rightStatus(db, refused)).toBe('refused_manager')
    const decisions = await db.query<{ right_id: string; decided_by: string; stage: string; comment: string | null }>(
      `select right_id::text, decided_by::text, stage::text, comment from public.right_decisions where right_id = any($1::uuid[]) order by decided_at`,
      [[approved, refused]],
    )
    expect(decisions.rows).toEqual([
      { right_id: approved, decided_by: demo.manager.id, stage: 'manager', comment: null },
      { right_id: refused, decided_by: demo.manager.id, stage: 'manager', comment: 'Plus dans l’équipe' },
    ])
    const audit = await auditSince(db, mark)
    expect(audit.filter((row) => row.action === 'decide').map((row) => [row.resource_id, row.user_id, row.details.to_status])).toEqual([
      [approved, demo.manager.id, 'validated_manager'],
      [refused, demo.manager.id, 'refused_manager'],
    ])
  })

  it('previews a file without changing anything (dry run)', async () => {
    const right = await pendingRight()
    const before = await snapshot([right])
    const outcome = await apply('manager', 'manager', [{ line: 2, right_id: right, decision: 'approved' }], true)
    expect(outcome.value).toMatchObject({ applied: false, count: 1, lines: [{ line: 2, ok: true, reason: null }] })
    expect(await snapshot([right])).toEqual(before)
  })

  it('lets a BPO Métier send back the BPO Métier file of rights the manager validated', async () => {
    const right = await pendingRight()
    await bringTo(db, right, 'validated_manager')
    const outcome = await apply('bpo_metier', 'bpo_metier', [{ line: 2, right_id: right, decision: 'approved', comment: 'OK' }])
    expect(outcome.value).toMatchObject({ applied: true, count: 1 })
    expect(await rightStatus(db, right)).toBe('validated_bpo_metier')
  })
})

describe('a file never does what its reviewer could not: one bad line and nothing is applied', () => {
  async function refusedWith(actor: Actor, stage: string, bad: Omit<Decision, 'line'>, reason: RegExp) {
    const good = await pendingRight()
    const rights = [good, bad.right_id].filter((id) => /^[0-9a-f-]{36}$/.test(id))
    const before = await snapshot(rights)
    for (const dryRun of [true, false]) {
      const outcome = await apply(actor, stage, [{ line: 2, right_id: good, decision: 'approved' }, { line: 3, ...bad }], dryRun)
      expect(outcome.ok, outcome.message).toBe(true)
      expect(outcome.value!.applied).toBe(false)
      const line = outcome.value!.lines.find((l) => l.line === 3)!
      expect(line.ok).toBe(false)
      expect(line.reason).toMatch(reason)
    }
    expect(await snapshot(rights)).toEqual(before)
  }

  it("someone else's team", async () => {
    await refusedWith('manager', 'manager', { right_id: await pendingRight(strangerHolder.id), decision: 'approved' }, /ne fait pas partie de votre périmètre/)
  })

  it('their own right', async () => {
    await refusedWith('manager', 'manager', { right_id: await pendingRight(demo.manager.id), decision: 'approved' }, /droit que vous détenez vous-même/)
  })

  it('a right not at the stage of the file', async () => {
    const right = await pendingRight()
    await bringTo(db, right, 'validated_manager')
    await refusedWith('manager', 'manager', { right_id: right, decision: 'refused' }, /n'attend pas votre décision/)
  })

  it("another stage's file: a manager cannot give BPO Métier decisions", async () => {
    const right = await pendingRight()
    const before = await snapshot([right])
    const outcome = await apply('manager', 'bpo_metier', [{ line: 2, right_id: right, decision: 'approved' }])
    expect(outcome.value).toMatchObject({ applied: false, count: 0, lines: [{ ok: false, reason: expect.stringMatching(/ne peut pas être donné à votre étape/) }] })
    expect(await snapshot([right])).toEqual(before)
  })

  it('a campaign that is not running', async () => {
    const draft = await createDraftCampaign(db)
    const right = await createRight(db, { holder: holder.id, applicationId: app, campaignId: draft })
    await refusedWith('manager', 'manager', { right_id: right, decision: 'approved' }, /n'est pas en cours/)
  })

  it('a campaign that is over', async () => {
    const campaign = await createDraftCampaign(db, { applicationId: app })
    const right = await createRight(db, { holder: holder.id, applicationId: app, campaignId: campaign })
    await db.query(`update public.campaigns set status = 'active' where id = $1`, [campaign])
    await db.query(`update public.campaigns set status = 'completed' where id = $1`, [campaign])
    await refusedWith('manager', 'manager', { right_id: right, decision: 'approved' }, /n'est pas en cours|n'attend pas votre décision/)
  })

  it('the same right twice', async () => {
    const right = await pendingRight()
    const before = await snapshot([right])
    const outcome = await apply('manager', 'manager', [
      { line: 2, right_id: right, decision: 'approved' },
      { line: 7, right_id: right, decision: 'refused' },
    ])
    expect(outcome.value!.applied).toBe(false)
    expect(outcome.value!.lines[1]).toMatchObject({ ok: false, reason: 'Ce droit figure déjà à la ligne 2 du fichier.' })
    expect(await snapshot([right])).toEqual(before)
  })

  it('an unreadable identifier or decision, and a right that does not exist', async () => {
    await refusedWith('manager', 'manager', { right_id: '__proto__', decision: 'approved' }, /Identifiant de droit illisible/)
    await refusedWith('manager', 'manager', { right_id: await pendingRight(), decision: 'peut-être' }, /Décision illisible/)
    await refusedWith('manager', 'manager', { right_id: '00000000-0000-4000-a000-00000000dead', decision: 'approved' }, /introuvable/)
  })

  it('a comment longer than validate_user_right accepts', async () => {
    await refusedWith('manager', 'manager', { right_id: await pendingRight(), decision: 'refused', comment: 'x'.repeat(2001) }, /2000 caractères/)
  })
})

describe('a delegate sends back the file of the reviewer who delegated', () => {
  it('applies the delegated items for the reviewer, and refuses the whole file for one item not delegated', async () => {
    const reviewer = await createUser(db, { role: 'manager' })
    const colleague = await createUser(db, { role: 'user' })
    const member = await createUser(db, { role: 'user', managerId: reviewer.id })
    const [delegated, kept] = [await pendingRight(member.id), await pendingRight(member.id)]
    const delegation = await attempt(db, reviewer, (tx) =>
      tx.query(`select public.delegate_review_items($1, $2, 'Congés', current_date + 1, $3::uuid[])`, [campaignIds.active, colleague.id, [delegated]]),
    )
    expect(delegation.ok, delegation.message).toBe(true)

    const before = await snapshot([delegated, kept])
    const both = await apply(colleague, 'manager', [
      { line: 2, right_id: delegated, decision: 'approved' },
      { line: 3, right_id: kept, decision: 'approved' },
    ])
    expect(both.value).toMatchObject({ applied: false, lines: [{ ok: true }, { ok: false, reason: expect.stringMatching(/étape de revue|périmètre/) }] })
    expect(await snapshot([delegated, kept])).toEqual(before)

    const outcome = await apply(colleague, 'manager', [{ line: 2, right_id: delegated, decision: 'approved', comment: 'Vu pendant les congés' }])
    expect(outcome.value, outcome.message).toMatchObject({ applied: true, count: 1 })
    expect(await rightStatus(db, delegated)).toBe('validated_manager')
    const { rows } = await db.query(`select decided_by::text, on_behalf_of::text, acting_as from public.right_decisions where right_id = $1`, [delegated])
    expect(rows).toEqual([{ decided_by: colleague.id, on_behalf_of: reviewer.id, acting_as: 'delegate' }])
  })
})

describe('every role', () => {
  it("applies nothing for any role but the right's manager, and nothing for anon", async () => {
    const right = await pendingRight()
    const before = await snapshot([right])
    for (const role of roles.filter((r) => r !== 'manager')) {
      const outcome = await apply(role, 'manager', [{ line: 2, right_id: right, decision: 'approved' }])
      expect(outcome.value, role).toMatchObject({ applied: false, lines: [{ ok: false }] })
    }
    expectRefused(await apply('anon', 'manager', [{ line: 2, right_id: right, decision: 'approved' }]), '42501')
    expect(await snapshot([right])).toEqual(before)
  })
})

describe('what the function itself refuses', () => {
  it('a stage without a file, a payload that is not a list, an empty file, too many decisions', async () => {
    const right = await pendingRight()
    expectRefused(await apply('manager', 'ra', [{ line: 2, right_id: right, decision: 'approved' }]), '22023', /manager, BPO Métier et BPO Groupe/)
    expectRefused(await apply('manager', 'user', [{ line: 2, right_id: right, decision: 'approved' }]), '22023')
    expectRefused(await apply('manager', 'manager', { right_id: right }), '22023', /liste/)
    expectRefused(await apply('manager', 'manager', []), '22023', /aucune décision/)
    const many = Array.from({ length: 2001 }, (_, index) => ({ line: index + 2, right_id: right, decision: 'approved' }))
    expectRefused(await apply('manager', 'manager', many), '22023', /au plus 2000/)
    expect(await rightStatus(db, right)).toBe('pending')
  })
})
