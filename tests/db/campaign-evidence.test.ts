// The evidence pack of a closed campaign: who may have it, which campaigns have one, and that its
// figures, decisions (with the IP each was taken from) and journal say what the campaign's items and audit trail say.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, type Actor } from './support/actors'
import { createApplication, createDraftCampaign, createRight, decide, expectRefused, one, roles } from './support/fixtures'
import { listedFigures } from './support/review-figures'

interface Evidence {
  campaign: { id: string; name: string; status: string; created_by_name: string | null; application_name: string | null }
  started: { at: string; by_name: string } | null
  completed: { at: string; by_name: string } | null
  items: number
  reviewed: number
  undecided: number
  progress: number | null
  by_status: Record<string, number>
  stages: { stage: string; approved: number; refused: number; awaiting: number }[]
  decisions_after_end: number
  seal: { intact: boolean; rows_checked: number; head_hash: string } | null
}

/** What the test reads of an item: its id, status, and each stage's [stage, decision, by, at, comment, ip]. */
type EvidenceItem = [string, string, string, string | null, string, string, string, number, number | null, string | null, string, [string, string, string, number, string | null, string | null][] | null]

let db: Database
beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

const evidence = (actor: Actor, campaignId: string) =>
  attempt(db, actor, async (tx) => (await one<{ e: Evidence }>(tx, 'select public.campaign_evidence($1) as e', [campaignId])).e)

async function packOf(actor: Actor, campaignId: string): Promise<Evidence> {
  const outcome = await evidence(actor, campaignId)
  if (!outcome.ok || !outcome.value) throw new Error(`pack refused: ${outcome.message}`)
  return outcome.value
}

async function itemsOf(actor: Actor, campaignId: string, pageSize: number): Promise<EvidenceItem[]> {
  const rows: EvidenceItem[] = []
  let after: string | null = null
  for (;;) {
    const page: EvidenceItem[] = await actAs(db, actor, async (tx) =>
      (await one<{ page: EvidenceItem[] }>(tx, 'select public.campaign_evidence_items($1, $2, $3) as page', [campaignId, after, pageSize])).page,
    )
    rows.push(...page)
    if (page.length < pageSize) return rows
    after = page[page.length - 1]![0]
  }
}

function setStatus(campaignId: string, status: string) {
  return actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = $2::public.campaign_status where id = $1`, [campaignId, status]))
}

describe('who has the pack, and of which campaigns', () => {
  it('refuses every role but admin and rssi, in French, and the anonymous caller', async () => {
    for (const role of roles.filter((r) => r !== 'admin' && r !== 'rssi')) {
      expectRefused(await evidence(role, campaignIds.completed), '42501', /administrateurs et le RSSI/)
      const items = await attempt(db, role, (tx) => tx.query('select * from public.campaign_evidence_items($1)', [campaignIds.completed]))
      expectRefused(items, '42501', /administrateurs et le RSSI/)
      const journal = await attempt(db, role, (tx) => tx.query('select * from public.campaign_evidence_journal($1)', [campaignIds.completed]))
      expectRefused(journal, '42501', /administrateurs et le RSSI/)
    }
    expectRefused(await evidence('anon', campaignIds.completed), '42501')
  })

  it('has no pack for a draft or a running campaign, and says why', async () => {
    expectRefused(await evidence('admin', campaignIds.active), '22023', /terminée ou archivée/)
    expectRefused(await evidence('rssi', campaignIds.draft), '22023', /terminée ou archivée/)
  })
})

describe("the seed's completed campaign", () => {
  it('counts what the campaign list and the items say', async () => {
    const pack = await packOf('rssi', campaignIds.completed)
    const listed = await listedFigures(db, 'rssi', campaignIds.completed)
    expect({ items: pack.items, reviewed: pack.reviewed, undecided: pack.undecided, progress: pack.progress }).toEqual(listed)
    // 3 of 17 reviewed before Terminer, which sent the other 14 to the RA: never 100 %.
    expect(listed).toEqual({ items: 17, reviewed: 3, undecided: 14, progress: 18 })
    const { rows } = await db.query<{ status: string; n: number }>(
      'select status::text, count(*)::integer as n from public.campaign_items where campaign_id = $1 group by status',
      [campaignIds.completed],
    )
    expect(pack.by_status).toEqual(Object.fromEntries(rows.map((row) => [row.status, row.n])))
    expect(pack.items).toBeGreaterThan(0)
    expect(pack.started?.by_name).toBeTruthy()
    expect(pack.completed?.by_name).toBeTruthy()
    expect((await itemsOf('admin', campaignIds.completed, 2)).length).toBe(pack.items)
  })

  it("carries the seal for the RSSI only, as verify_audit_chain answers it", async () => {
    const rssi = await packOf('rssi', campaignIds.completed)
    const admin = await packOf('admin', campaignIds.completed)
    const verified = await actAs(db, 'rssi', async (tx) => (await one<{ v: { head_hash: string } }>(tx, 'select public.verify_audit_chain() as v')).v)
    expect(rssi.seal?.intact).toBe(true)
    expect(rssi.seal?.head_hash).toBe(verified.head_hash)
    expect(admin.seal).toBeNull()
    expect(admin.items).toBe(rssi.items)
  })
})

describe('a campaign made here, decided and completed', () => {
  let campaignId: string
  let approvedRight: string
  let refusedRight: string
  let undecidedRight: string
  let correction: Awaited<ReturnType<typeof attempt>>

  beforeAll(async () => {
    const app = await createApplication(db)
    campaignId = await createDraftCampaign(db, { applicationId: app })
    approvedRight = await createRight(db, { applicationId: app, campaignId })
    refusedRight = await createRight(db, { applicationId: app, campaignId })
    undecidedRight = await createRight(db, { applicationId: app, campaignId })
    await setStatus(campaignId, 'active')
    // An event on an item's right during the campaign that is neither a decision nor on the campaign itself.
    correction = await attempt(db, 'admin', (tx) =>
      tx.query('update public.user_rights set justification = $2 where id = $1', [undecidedRight, 'Besoin confirmé par la DSI']),
    )
    const steps = [
      await decide(db, 'manager', approvedRight, 'validated_manager', 'Toujours utile', { 'cf-connecting-ip': '203.0.113.7' }),
      await decide(db, 'manager', refusedRight, 'refused_manager', '=HYPERLINK("http://evil.example","x")'),
    ]
    await setStatus(campaignId, 'completed')
    steps.push(await decide(db, 'ra', refusedRight, 'treated', 'Compte supprimé'))
    for (const step of steps) if (!step.ok) throw new Error(step.message)
  })

  it('counts the final outcome and each stage', async () => {
    const pack = await packOf('admin', campaignId)
    expect(pack.items).toBe(3)
    // The refusal reached an outcome; the manager's approval awaited the BPO Métier when Terminer came.
    expect({ reviewed: pack.reviewed, undecided: pack.undecided, progress: pack.progress }).toEqual({ reviewed: 1, undecided: 2, progress: 33 })
    // Terminer sent the two items still short of a final decision to the RA; the refused one was treated.
    expect(pack.by_status).toEqual({ treated: 1, treatment_required: 2 })
    const stage = (name: string) => pack.stages.find((s) => s.stage === name)
    expect(stage('manager')).toMatchObject({ approved: 1, refused: 1, awaiting: 0 })
    expect(stage('ra')).toMatchObject({ approved: 1, refused: 0, awaiting: 2 })
    expect(pack.started?.by_name).toBe(pack.completed?.by_name)
    expect(pack.decisions_after_end).toBe(0)
  })

  it('gives each item its decisions, with the time and the IP the audit trail recorded', async () => {
    const items = await itemsOf('admin', campaignId, 1000)
    const byRight = new Map(items.map((item) => [item[0], item]))
    const decisions = (rightId: string) =>
      Object.fromEntries((byRight.get(rightId)?.[11] ?? []).map(([stage, decision, by, at, comment, ip]) => [stage, { decision, by, at, comment, ip }]))
    expect(decisions(approvedRight).manager).toMatchObject({ decision: 'approved', comment: 'Toujours utile', ip: '203.0.113.7' })
    expect(decisions(refusedRight)).toMatchObject({ manager: { decision: 'refused' }, ra: { decision: 'approved', comment: 'Compte supprimé' } })
    expect(byRight.get(undecidedRight)?.[10]).toBe('treatment_required')
    expect(byRight.get(undecidedRight)?.[11]).toBeNull()
    // Times travel as milliseconds since 1970: the decision's and the right's own, to the millisecond.
    const recorded = await one<{ decided_at: number; granted_at: number }>(
      db,
      `select floor(extract(epoch from d.decided_at) * 1000)::float8 as decided_at, floor(extract(epoch from r.granted_at) * 1000)::float8 as granted_at
         from public.right_decisions d join public.user_rights r on r.id = d.right_id
        where d.right_id = $1 and d.stage = 'manager'`,
      [approvedRight],
    )
    expect(decisions(approvedRight).manager?.at).toBe(recorded.decided_at)
    expect(byRight.get(approvedRight)?.[7]).toBe(recorded.granted_at)
  })

  it("keeps each decision's IP on the decision, as its audit event recorded it, for the pack only", async () => {
    const kept = await one<{ decision_ip: string | null; audit_ip: string | null }>(
      db,
      `select host(d.ip_address) as decision_ip, host(l.ip_address) as audit_ip
         from public.right_decisions d
         join public.audit_logs l on l.action = 'decide' and l.details ->> 'decision_id' = d.id::text
        where d.right_id = $1 and d.stage = 'manager'`,
      [approvedRight],
    )
    expect(kept).toEqual({ decision_ip: '203.0.113.7', audit_ip: '203.0.113.7' })
    // Whoever reads the decision (here the manager who took it, and the admin) sees who and why, not from where.
    for (const reader of ['manager', 'admin'] as const) {
      const decision = await attempt(db, reader, (tx) =>
        one<{ comment: string }>(tx, `select comment from public.right_decisions where right_id = $1 and stage = 'manager'`, [approvedRight]),
      )
      expect(decision).toMatchObject({ ok: true, value: { comment: 'Toujours utile' } })
      const address = await attempt(db, reader, (tx) => tx.query(`select ip_address from public.right_decisions where right_id = $1`, [approvedRight]))
      expectRefused(address, '42501')
    }
  })

  it('reads pages of up to 10,000 items, and says so in French past that', async () => {
    expect(await itemsOf('rssi', campaignId, 10_000)).toHaveLength(3)
    const tooLarge = await attempt(db, 'admin', (tx) => tx.query('select public.campaign_evidence_items($1, null, 10001)', [campaignId]))
    expectRefused(tooLarge, '22023', /entre 1 et 10 000/)
  })

  it("journals the campaign's start, completion and decisions, and nothing of another campaign", async () => {
    const rows = await actAs(db, 'admin', async (tx) =>
      (await tx.query<{ action: string; resource_id: string; details: Record<string, unknown> }>('select * from public.campaign_evidence_journal($1)', [campaignId])).rows,
    )
    const actions = rows.map((row) => row.action)
    expect(actions).toContain('start_campaign')
    expect(actions).toContain('complete_campaign')
    expect(actions.filter((action) => action === 'decide')).toHaveLength(3)
    expect(correction.ok).toBe(true)
    expect(rows.some((row) => row.action === 'update' && row.resource_id === undecidedRight)).toBe(true)
    const rights = new Set([approvedRight, refusedRight, undecidedRight, campaignId])
    expect(rows.every((row) => rights.has(row.resource_id))).toBe(true)
  })
})
