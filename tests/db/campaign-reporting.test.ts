// Campaigns seen from the administration: the campaign list's figures, the rows of the three Excel files with
// their per-stage decisions and defaults, the import of rights into a campaign, and the admin dashboard's counters.
// Expected figures are computed here from the data each test made, and the export is paged past the API's 1000 rows.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo, isabelle, type Actor } from './support/actors'
import { exportRowOf, type ExportData, type ExportRow } from './support/export-rows'
import { dashboardFigures, evidenceFigures, listedFigures, trendFigures, type ReviewFigures } from './support/review-figures'
import {
  applicationId,
  count,
  createApplication,
  createDraftCampaign,
  createRight,
  createUser,
  decide,
  expectRefused,
  nonAdmins,
  one,
  roles,
  unique,
} from './support/fixtures'

let db: Database
let sap: string

beforeAll(async () => {
  db = await freshDatabase()
  sap = await applicationId(db, 'SAP Finance')
})
afterAll(() => db.close())

async function carry(rightId: string, steps: [Actor, string, string?][]): Promise<void> {
  for (const [actor, status, comment] of steps) {
    const outcome = await decide(db, actor, rightId, status, comment ?? null)
    if (!outcome.ok) throw new Error(`${JSON.stringify(actor)} → ${status}: ${outcome.message}`)
  }
}

function setStatus(campaignId: string, status: string) {
  return actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = $2::public.campaign_status where id = $1`, [campaignId, status]))
}

/** A campaign on an application of its own, started with the given rights already in scope. */
async function startedCampaign(app: string): Promise<string> {
  const id = await createDraftCampaign(db, { applicationId: app })
  await setStatus(id, 'active')
  return id
}

// ─── Campaign figures ────────────────────────────────────────────────────────────────────────────────────────────────

interface Figures {
  campaign_id: string
  rights_count: number
  reviewed_count: number
  undecided_count: number
  progress: number | null
  pending_count: number
  validated_manager_count: number
  validated_bpo_metier_count: number
  validated_count: number
  refused_count: number
}

/** A refusal at any stage, or an approval at the last one (BPO Groupe): reviewed, as a running campaign counts it. */
const REVIEWED = ['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe', 'validated_bpo_groupe', 'treatment_required', 'treated']

/**
 * SPEC §2 and §4, from a list of statuses of a running campaign on applications with a BPO Groupe (a draft has
 * reviewed nothing yet).
 */
function figuresOf(campaignId: string, statuses: string[], { draft = false } = {}): Figures {
  const n = (test: (s: string) => boolean) => statuses.filter(test).length
  const reviewed = draft ? 0 : n((s) => REVIEWED.includes(s))
  return {
    campaign_id: campaignId,
    rights_count: statuses.length,
    reviewed_count: reviewed,
    undecided_count: 0,
    progress: statuses.length === 0 ? null : Math.round((100 * reviewed) / statuses.length),
    pending_count: n((s) => s === 'pending'),
    validated_manager_count: n((s) => s === 'validated_manager'),
    validated_bpo_metier_count: n((s) => s === 'validated_bpo_metier'),
    validated_count: n((s) => s.includes('validated')),
    refused_count: n((s) => s.includes('refused')),
  }
}

const FIGURES = 'campaign_id::text, rights_count, reviewed_count, undecided_count, progress, pending_count, validated_manager_count, validated_bpo_metier_count, validated_count, refused_count'

function figures(actor: Actor, campaignId: string): Promise<Figures> {
  return actAs(db, actor, (tx) => one<Figures>(tx, `select ${FIGURES} from public.campaign_progress where campaign_id = $1`, [campaignId]))
}

describe('campaign figures', () => {
  let app: string
  let campaign: string
  const team: Record<string, string> = {}
  let outsiderRight: string

  beforeAll(async () => {
    app = await createApplication(db)
    // Six rights of the demo manager's team, and one of someone else's, all started in one campaign.
    const holders: string[] = [demo.user.id]
    for (let i = 0; i < 5; i++) holders.push((await createUser(db, { managerId: demo.manager.id })).id)
    const outsider = await createUser(db, { managerId: isabelle })
    const ids = []
    for (const holder of holders) ids.push(await createRight(db, { holder, applicationId: app, campaignId: null }))
    outsiderRight = await createRight(db, { holder: outsider.id, applicationId: app, campaignId: null })
    campaign = await startedCampaign(app)
    Object.assign(team, { validatedUser: ids[0], validatedManager: ids[1], validatedBpo: ids[2], refused: ids[3], pendingA: ids[4], pendingB: ids[5] })
    await carry(team.validatedUser!, [['user', 'validated_user']])
    await carry(team.validatedManager!, [['manager', 'validated_manager']])
    await carry(team.validatedBpo!, [['manager', 'validated_manager'], ['bpo_metier', 'validated_bpo_metier']])
    await carry(team.refused!, [['manager', 'refused_manager']])
  })

  async function statusesOf(where: string, params: unknown[]): Promise<string[]> {
    return (await db.query<{ status: string }>(`select status::text from public.user_rights where ${where}`, params)).rows.map((r) => r.status)
  }

  it('counts every right of the campaign for admin and rssi: progress, the three Excel counts, validated and refused', async () => {
    const expected = figuresOf(campaign, await statusesOf('campaign_id = $1', [campaign]))
    // Only the refusal reached an outcome: the approvals wait for the next stage.
    expect(expected).toMatchObject({ rights_count: 7, reviewed_count: 1, undecided_count: 0, progress: 14, pending_count: 3, validated_count: 3, refused_count: 1 })
    expect(await figures('admin', campaign)).toEqual(expected)
    expect(await figures('rssi', campaign)).toEqual(expected)
    expect(await figures('bpo_metier', campaign), 'the application’s BPO Métier reads every right of it').toEqual(expected)
  })

  it('counts, for anyone else, the rights they may read', async () => {
    expect(await figures('manager', campaign)).toEqual(figuresOf(campaign, await statusesOf('campaign_id = $1 and id <> $2', [campaign, outsiderRight])))
    expect(await figures('user', campaign)).toEqual(figuresOf(campaign, ['validated_user']))
  })

  it('lists every campaign, a campaign without rights at null progress, and agrees with the seed’s items', async () => {
    const draft = await createDraftCampaign(db)
    const rows = await actAs(db, 'admin', async (tx) => (await tx.query<Figures>(`select ${FIGURES} from public.campaign_progress`)).rows)
    const campaigns = (await db.query<{ id: string }>(`select id::text from public.campaigns`)).rows.map((r) => r.id)
    expect(rows.map((r) => r.campaign_id).sort()).toEqual(campaigns.sort())
    expect(rows.find((r) => r.campaign_id === draft)).toEqual(figuresOf(draft, [], { draft: true }))
    // A started campaign counts its own items: last year's keeps the rights this quarter's campaign took over since.
    const items = (await db.query<{ status: string }>(`select status::text from public.campaign_items where campaign_id = $1`, [campaignIds.active])).rows
    expect(rows.find((r) => r.campaign_id === campaignIds.active)).toEqual(figuresOf(campaignIds.active, items.map((i) => i.status)))
    expect(rows.find((r) => r.campaign_id === campaignIds.completed)).toMatchObject({ rights_count: 17, reviewed_count: 3, undecided_count: 14, progress: 18 })
    expect(await statusesOf('campaign_id = $1', [campaignIds.completed])).toHaveLength(7)
  })

  it('counts past the API’s 1000 rows', async () => {
    const bulkApp = await createApplication(db)
    const bulk = await createDraftCampaign(db, { applicationId: bulkApp })
    const statuses = ['pending', 'validated_manager', 'validated_bpo_metier', 'refused_user', 'validated_bpo_groupe', 'treatment_required']
    await db.query(
      `insert into public.user_rights (user_id, application_id, role_name, status, campaign_id)
       select $1, $2, 'Rôle ' || g, ($3::text[])[1 + g % 6]::public.right_status, $4 from generate_series(1, 2400) g`,
      [demo.user.id, bulkApp, statuses, bulk],
    )
    const expected = figuresOf(bulk, Array.from({ length: 2400 }, (_, i) => statuses[(i + 1) % 6]!), { draft: true })
    expect(await figures('rssi', bulk)).toEqual(expected)
    // A draft has reviewed nothing yet, whatever the statuses its rights carry from before.
    expect(expected).toMatchObject({ rights_count: 2400, pending_count: 400, reviewed_count: 0, progress: 0 })
  })
})

// ─── Revus, and non décidés à la clôture ────────────────────────────────────────────────────────────────────────────

describe('what a review came to: revus, and non décidés à la clôture (transmis au RA)', () => {
  /** The campaign list, the RSSI trends and, once it is closed, the evidence pack, which must all say the same. */
  async function everywhere(campaignId: string, closed: boolean): Promise<ReviewFigures> {
    const listed = await listedFigures(db, 'admin', campaignId)
    expect(await listedFigures(db, 'rssi', campaignId)).toEqual(listed)
    expect(await trendFigures(db, campaignId), 'rssi_trends').toEqual(listed)
    if (closed) expect(await evidenceFigures(db, campaignId), 'campaign_evidence').toEqual(listed)
    else expect((await dashboardFigures(db, campaignId))?.whole, 'rssi_dashboard').toEqual({ items: listed.items, reviewed: listed.reviewed, progress: listed.progress })
    return listed
  }

  it('« Revue annuelle 2025 »: 17 items, 3 revus (18 %), 14 non décidés à la clôture, in the list, the RSSI dashboard and the pack', async () => {
    expect(await everywhere(campaignIds.completed, true)).toEqual({ items: 17, reviewed: 3, undecided: 14, progress: 18 })
    // Those 14 are the items Terminer sent to the RA, whatever the RA did with them since.
    expect(await count(db, `select count(*) from public.campaign_items where campaign_id = $1 and undecided_at_closure`, [campaignIds.completed])).toBe(14)
  })

  it('a campaign whose items were approved by the manager only, then closed, is not reviewed at all', async () => {
    const app = await createApplication(db)
    const rights = [await createRight(db, { applicationId: app, campaignId: null }), await createRight(db, { applicationId: app, campaignId: null })]
    const campaign = await startedCampaign(app)
    for (const right of rights) await carry(right, [['manager', 'validated_manager']])
    expect(await everywhere(campaign, false)).toEqual({ items: 2, reviewed: 0, undecided: 0, progress: 0 })
    await setStatus(campaign, 'completed')
    expect(await everywhere(campaign, true)).toEqual({ items: 2, reviewed: 0, undecided: 2, progress: 0 })
  })

  it('counts a refusal at any stage and an approval at the last stage, while the campaign runs and once it is closed', async () => {
    const withGroupe = await createApplication(db)
    // No BPO Groupe: the BPO Métier's approval is the last one, and Terminer leaves it validated.
    const withoutGroupe = await createApplication(db, { bpoGroupe: null })
    const right = async (app: string) => createRight(db, { applicationId: app, campaignId: null })
    const r = {
      final: await right(withGroupe),
      refusedByHolder: await right(withGroupe),
      refusedByGroupe: await right(withGroupe),
      treatedDuring: await right(withGroupe),
      shortOfGroupe: await right(withGroupe),
      pending: await right(withGroupe),
      finalAtMetier: await right(withoutGroupe),
      shortOfMetier: await right(withoutGroupe),
    }
    const campaign = await startedCampaign(withGroupe)
    const other = await startedCampaign(withoutGroupe)
    await carry(r.final, [['manager', 'validated_manager'], ['bpo_metier', 'validated_bpo_metier'], ['bpo_groupe', 'validated_bpo_groupe']])
    await carry(r.refusedByHolder, [['user', 'refused_user']])
    await carry(r.refusedByGroupe, [['manager', 'validated_manager'], ['bpo_metier', 'validated_bpo_metier'], ['bpo_groupe', 'refused_bpo_groupe']])
    await carry(r.treatedDuring, [['manager', 'refused_manager'], ['ra', 'treated']])
    await carry(r.shortOfGroupe, [['manager', 'validated_manager'], ['bpo_metier', 'validated_bpo_metier']])
    await carry(r.finalAtMetier, [['manager', 'validated_manager'], ['bpo_metier', 'validated_bpo_metier']])
    await carry(r.shortOfMetier, [['manager', 'validated_manager']])

    // Running: 4 of 6 and 1 of 2, nothing undecided at a closure yet; the RSSI dashboard's scope says the same.
    expect(await everywhere(campaign, false)).toEqual({ items: 6, reviewed: 4, undecided: 0, progress: 67 })
    expect(await everywhere(other, false)).toEqual({ items: 2, reviewed: 1, undecided: 0, progress: 50 })
    expect((await dashboardFigures(db, other, { applicationId: withoutGroupe }))?.scope).toEqual({ items: 2, reviewed: 1, progress: 50 })
    expect(await trendFigures(db, other, { applicationId: withoutGroupe })).toEqual({ items: 2, reviewed: 1, undecided: 0, progress: 50 })

    await setStatus(campaign, 'completed')
    await setStatus(other, 'completed')
    // The RA treats what Terminer sent them: still not reviewed.
    await carry(r.shortOfGroupe, [['ra', 'treated']])
    expect(await everywhere(campaign, true)).toEqual({ items: 6, reviewed: 4, undecided: 2, progress: 67 })
    expect(await everywhere(other, true)).toEqual({ items: 2, reviewed: 1, undecided: 1, progress: 50 })
    const flagged = await db.query<{ right_id: string }>(
      `select right_id::text from public.campaign_items where campaign_id = any($1::uuid[]) and undecided_at_closure order by right_id`,
      [[campaign, other]],
    )
    expect(flagged.rows.map((row) => row.right_id)).toEqual([r.shortOfGroupe, r.pending, r.shortOfMetier].sort())

    // A BPO Groupe named afterwards changes nothing of a closed campaign: Terminer judged by the application then.
    await db.query(`update public.applications set bpo_groupe_id = $2 where id = $1`, [withoutGroupe, demo.bpo_groupe.id])
    expect(await everywhere(other, true)).toEqual({ items: 2, reviewed: 1, undecided: 1, progress: 50 })
  })

  it('counts, for anyone else, what they may read of the same items', async () => {
    // The demo user holds two of the seed campaign's items: the one the BPO Groupe approved and one Terminer sent on.
    expect(await listedFigures(db, 'user', campaignIds.completed)).toEqual({ items: 5, reviewed: 1, undecided: 4, progress: 20 })
  })
})

// ─── Excel export rows ──────────────────────────────────────────────────────────────────────────────────────────────

function exportPage(actor: Actor, campaignId: string, file: string, afterId: string | null = null, limit = 1000) {
  return actAs(db, actor, async (tx) =>
    (await one<{ r: ExportData[] }>(tx, `select public.campaign_export_rows($1, $2::public.review_stage, $3, $4) as r`, [campaignId, file, afterId, limit])).r.map(exportRowOf),
  )
}

async function exportAll(actor: Actor, campaignId: string, file: string, limit = 1000): Promise<{ rows: ExportRow[]; pages: number[] }> {
  const rows: ExportRow[] = []
  const pages: number[] = []
  let after: string | null = null
  for (;;) {
    const page = await exportPage(actor, campaignId, file, after, limit)
    pages.push(page.length)
    rows.push(...page)
    if (page.length < limit) return { rows, pages }
    after = page[page.length - 1]!.right_id
  }
}

/** The latest decision at a stage on a right within a campaign, as right_decisions holds it (its time to the millisecond, as the file's rows carry it). */
async function latestDecision(rightId: string, campaignId: string, stage: string) {
  const { rows } = await db.query<{ decision: string; comment: string | null; decided_at: string; decided_by_name: string }>(
    `select decision::text, comment, to_char(decided_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as decided_at, decided_by_name from public.right_decisions
      where right_id = $1 and campaign_id = $2 and stage = $3::public.review_stage order by decided_at desc, id desc limit 1`,
    [rightId, campaignId, stage],
  )
  return rows[0] ?? { decision: null, comment: null, decided_at: null, decided_by_name: null }
}

describe('Excel export rows', () => {
  let app: string
  let campaign: string
  let holder: { id: string; email: string }
  const r: Record<string, string> = {}

  beforeAll(async () => {
    app = await createApplication(db)
    holder = await createUser(db, { managerId: demo.manager.id })
    const justifications: Record<string, string | null> = { pending: null, blank: '   ', given: 'Clôture mensuelle', toManager: '', toBpo: null, refused: null }
    for (const [key, justification] of Object.entries(justifications)) {
      r[key] = await createRight(db, { holder: holder.id, applicationId: app, campaignId: null, roleName: `Rôle ${key}` })
      await db.query(`update public.user_rights set justification = $2, granted_at = '2023-05-04T08:00:00Z', last_used_at = $3 where id = $1`, [
        r[key],
        justification,
        key === 'given' ? '2026-01-02T03:04:05Z' : null,
      ])
    }
    campaign = await startedCampaign(app)
    await carry(r.toManager!, [['manager', 'validated_manager', 'Toujours utile']])
    await carry(r.toBpo!, [['manager', 'validated_manager'], ['bpo_metier', 'validated_bpo_metier', 'Conforme']])
    await carry(r.refused!, [['manager', 'refused_manager', 'Plus utilisé']])
  })

  it('manager file: the pending rights, with SPEC §3’s columns and §9’s justification when none is given', async () => {
    const { rows } = await exportAll('admin', campaign, 'manager')
    expect(rows.map((row) => row.right_id).sort()).toEqual([r.pending, r.blank, r.given].sort())
    const name = await one<{ n: string }>(db, `select first_name || ' ' || last_name as n from public.users where id = $1`, [holder.id])
    const appName = (await one<{ name: string }>(db, `select name from public.applications where id = $1`, [app])).name
    for (const row of rows) {
      expect(row).toMatchObject({
        user_name: name.n,
        user_email: holder.email,
        application_name: appName,
        account_type: 'standard',
        status: 'pending',
        manager_decision: null,
        manager_comment: null,
        manager_decided_at: null,
        bpo_metier_decision: null,
        bpo_groupe_decision: null,
      })
      expect(new Date(row.granted_at).toISOString()).toBe('2023-05-04T08:00:00.000Z')
    }
    const byId = new Map(rows.map((row) => [row.right_id, row]))
    expect(byId.get(r.pending!)).toMatchObject({ role_name: 'Rôle pending', justification: 'Accès nécessaire pour les fonctions', last_used_at: null })
    expect(byId.get(r.blank!)).toMatchObject({ justification: 'Accès nécessaire pour les fonctions' })
    expect(byId.get(r.given!)).toMatchObject({ justification: 'Clôture mensuelle' })
    expect(new Date(byId.get(r.given!)!.last_used_at!).toISOString()).toBe('2026-01-02T03:04:05.000Z')
  })

  it('BPO Métier file: the rights the manager validated, with the manager’s decision, comment and date', async () => {
    const rows = await exportPage('admin', campaign, 'bpo_metier')
    expect(rows.map((row) => row.right_id)).toEqual([r.toManager])
    const manager = await latestDecision(r.toManager!, campaign, 'manager')
    expect(rows[0]).toMatchObject({
      status: 'validated_manager',
      justification: 'Accès nécessaire pour les fonctions',
      manager_decision: 'approved',
      manager_comment: 'Toujours utile',
      manager_decided_at: manager.decided_at,
      manager_decided_by_name: 'Marc Dubois',
      bpo_metier_decision: null,
      bpo_groupe_decision: null,
    })
  })

  it('BPO Groupe file: the rights the BPO Métier validated, with both decisions and the final status', async () => {
    const rows = await exportPage('admin', campaign, 'bpo_groupe')
    expect(rows.map((row) => row.right_id)).toEqual([r.toBpo])
    const manager = await latestDecision(r.toBpo!, campaign, 'manager')
    const bpo = await latestDecision(r.toBpo!, campaign, 'bpo_metier')
    expect(rows[0]).toMatchObject({
      status: 'validated_bpo_metier',
      manager_decision: 'approved',
      manager_comment: null,
      manager_decided_at: manager.decided_at,
      bpo_metier_decision: 'approved',
      bpo_metier_comment: 'Conforme',
      bpo_metier_decided_at: bpo.decided_at,
      bpo_metier_decided_by_name: 'Sophie Bernard',
      bpo_groupe_decision: null,
      bpo_groupe_comment: null,
      bpo_groupe_decided_at: null,
    })
  })

  it('takes each stage’s decisions from this campaign only, the latest one when there are several', async () => {
    // Last year's campaign decided on the right; this year's starts it over.
    const yearApp = await createApplication(db)
    const right = await createRight(db, { holder: holder.id, applicationId: yearApp, campaignId: null })
    const lastYear = await startedCampaign(yearApp)
    await carry(right, [['manager', 'validated_manager', 'Ancienne campagne']])
    await setStatus(lastYear, 'completed')
    // Undecided at the close, it went to the RA, who kept it: this year's campaign may take it.
    await carry(right, [['ra', 'treated', 'Droit maintenu']])
    const thisYear = await startedCampaign(yearApp)

    expect(await exportPage('admin', thisYear, 'manager')).toMatchObject([{ right_id: right, status: 'pending', manager_decision: null, manager_comment: null }])
    expect(await exportPage('admin', lastYear, 'manager')).toEqual([])

    await carry(right, [['manager', 'validated_manager', 'Nouvelle campagne']])
    // An earlier decision at the same stage in the same campaign (as a correction would leave) is not the one shown.
    await db.query(
      `insert into public.right_decisions (right_id, holder_id, holder_email, holder_name, application_id, application_name, role_name,
         account_type, campaign_id, item_id, stage, decision, from_status, to_status, comment, decided_by, decided_by_email, decided_by_name, decided_at)
       select d.right_id, d.holder_id, d.holder_email, d.holder_name, d.application_id, d.application_name, d.role_name, d.account_type,
              d.campaign_id, d.item_id, 'manager', 'refused', 'pending', 'refused_manager', 'Plus ancienne', d.decided_by, d.decided_by_email,
              d.decided_by_name, d.decided_at - interval '1 day'
         from public.right_decisions d where d.right_id = $1 and d.campaign_id = $2`,
      [right, thisYear],
    )
    const latest = await latestDecision(right, thisYear, 'manager')
    expect(await exportPage('admin', thisYear, 'bpo_metier')).toMatchObject([
      { right_id: right, manager_decision: 'approved', manager_comment: 'Nouvelle campagne', manager_decided_at: latest.decided_at },
    ])
  })

  it('gives anyone else the rows they may read: the manager their team’s, the holder their own', async () => {
    const outsider = await createUser(db, { managerId: isabelle })
    const app2 = await createApplication(db)
    const mine = await createRight(db, { holder: holder.id, applicationId: app2, campaignId: null })
    const theirs = await createRight(db, { holder: outsider.id, applicationId: app2, campaignId: null })
    const started = await startedCampaign(app2)
    expect((await exportPage('admin', started, 'manager')).map((row) => row.right_id).sort()).toEqual([mine, theirs].sort())
    expect((await exportPage('manager', started, 'manager')).map((row) => row.right_id)).toEqual([mine])
    expect((await exportPage(holder, started, 'manager')).map((row) => row.right_id)).toEqual([mine])
    expect(await exportPage('user', started, 'manager')).toEqual([])
  })

  it('pages 2,500 rights 1000 at a time in right id order, without gaps or repeats', async () => {
    const bulkApp = await createApplication(db)
    const bulk = await createDraftCampaign(db, { applicationId: bulkApp })
    const inserted = await db.query<{ id: string }>(
      `insert into public.user_rights (user_id, application_id, role_name, campaign_id, justification)
       select $1, $2, 'Rôle ' || g, $3, case when g % 2 = 0 then 'Justifié ' || g end from generate_series(1, 2500) g returning id::text`,
      [holder.id, bulkApp, bulk],
    )
    // Other files' rights in the same campaign stay out of the manager file.
    await db.query(
      `insert into public.user_rights (user_id, application_id, role_name, campaign_id, status)
       select $1, $2, 'Autre ' || g, $3, 'validated_manager' from generate_series(1, 30) g`,
      [holder.id, bulkApp, bulk],
    )
    const { rows, pages } = await exportAll('rssi', bulk, 'manager')
    expect(pages).toEqual([1000, 1000, 500])
    // Pages of thousands: one JSON value each, which the API's 1000-row cap on a set of rows does not cut.
    expect((await exportAll('rssi', bulk, 'manager', 10_000)).pages).toEqual([2500])
    const ids = rows.map((row) => row.right_id)
    expect(ids).toEqual([...ids].sort())
    expect(new Set(ids).size).toBe(2500)
    expect([...ids].sort()).toEqual(inserted.rows.map((row) => row.id).sort())
    expect(rows.filter((row) => row.justification === 'Accès nécessaire pour les fonctions')).toHaveLength(1250)
    expect((await exportAll('rssi', bulk, 'bpo_metier')).rows).toHaveLength(30)
    expect((await exportAll('rssi', bulk, 'bpo_groupe')).rows).toEqual([])
    const counts = await figures('rssi', bulk)
    expect(counts).toMatchObject({ pending_count: 2500, validated_manager_count: 30, validated_bpo_metier_count: 0 })
  })

  it('refuses an unknown file, an unknown campaign and a bad page size, in French', async () => {
    expectRefused(await attempt(db, 'admin', (tx) => tx.query(`select * from public.campaign_export_rows($1, 'user')`, [campaign])), '22023', /^Fichier d'export inconnu : « user »/)
    expectRefused(await attempt(db, 'admin', (tx) => tx.query(`select * from public.campaign_export_rows($1, 'manager')`, [randomUUID()])), 'P0001', /^Campagne introuvable\.$/)
    expectRefused(await attempt(db, 'admin', (tx) => tx.query(`select * from public.campaign_export_rows($1, 'manager', null, 10001)`, [campaign])), '22023', /^La taille de page/)
  })
})

// ─── Import into a campaign ─────────────────────────────────────────────────────────────────────────────────────────

interface ImportReport {
  success: boolean
  imported: number
  errors: { line: number; errors: string[] }[]
}

function importAs(actor: Actor, rows: unknown, campaignId?: string | null) {
  const call = campaignId === undefined ? `select public.import_user_rights($1::jsonb) as r` : `select public.import_user_rights($1::jsonb, $2) as r`
  const params = campaignId === undefined ? [JSON.stringify(rows)] : [JSON.stringify(rows), campaignId]
  return attempt(db, actor, async (tx) => (await one<{ r: ImportReport }>(tx, call, params)).r)
}

async function imported(roleNames: string[]) {
  return (
    await db.query<{ role_name: string; campaign_id: string | null; status: string }>(
      `select role_name, campaign_id::text, status::text from public.user_rights where role_name = any($1) order by role_name`,
      [roleNames],
    )
  ).rows
}

describe('import into a campaign', () => {
  it('loads rights into a draft, whose start keeps them for review', async () => {
    const app = await createApplication(db)
    const appName = (await one<{ name: string }>(db, `select name from public.applications where id = $1`, [app])).name
    const draft = await createDraftCampaign(db, { applicationId: app })
    const names = [unique('Rôle'), unique('Rôle')]
    const outcome = await importAs('admin', names.map((role_name) => ({ email: demo.user.email, application: appName, role_name })), draft)
    expect(outcome.value).toEqual({ success: true, imported: 2, errors: [] })
    expect(await imported(names)).toEqual(names.sort().map((role_name) => ({ role_name, campaign_id: draft, status: 'pending' })))

    await setStatus(draft, 'active')
    const queue = await actAs(db, 'user', (tx) => count(tx, `select count(*) from public.review_queue($1)`, [draft]))
    expect(queue).toBe(2)
  })

  it('loads rights into a running campaign, where they await review at once', async () => {
    const names = [unique('Rôle')]
    const outcome = await importAs('rssi', [{ email: 'thomas.roux@example.com', application: 'ServiceNow', role_name: names[0] }], campaignIds.active)
    expect(outcome.value).toEqual({ success: true, imported: 1, errors: [] })
    const [row] = await imported(names)
    expect(row).toEqual({ role_name: names[0], campaign_id: campaignIds.active, status: 'pending' })
    const inQueue = await actAs(db, 'manager', (tx) =>
      count(tx, `select count(*) from public.review_queue($1) where role_name = $2`, [campaignIds.active, names[0]]),
    )
    expect(inQueue).toBe(1)
  })

  it('loads rights into no campaign, with campaign_id null or with the old call shape', async () => {
    const names = [unique('Rôle'), unique('Rôle')]
    expect((await importAs('admin', [{ email: demo.user.email, application: 'GitLab', role_name: names[0] }], null)).value).toMatchObject({ success: true, imported: 1 })
    expect((await importAs('admin', [{ email: demo.user.email, application: 'GitLab', role_name: names[1] }])).value).toMatchObject({ success: true, imported: 1 })
    expect((await imported(names)).map((row) => row.campaign_id)).toEqual([null, null])
  })

  it('reports the lines outside the campaign’s application or account type, with the other problems, and imports nothing', async () => {
    const app = await createApplication(db)
    const appName = (await one<{ name: string }>(db, `select name from public.applications where id = $1`, [app])).name
    const draft = await createDraftCampaign(db, { applicationId: app, accountType: 'privileged' })
    const names = [unique('Rôle'), unique('Rôle'), unique('Rôle'), unique('Rôle')]
    const outcome = await importAs(
      'admin',
      [
        { email: demo.user.email, application: appName, role_name: names[0], account_type: 'À privilèges' },
        { email: demo.user.email, application: 'GitLab', role_name: names[1], account_type: 'privileged' },
        { email: demo.user.email, application: appName, role_name: names[2], account_type: 'Technique' },
        { email: 'inconnu@example.org', application: 'GitLab', role_name: names[3] },
      ],
      draft,
    )
    expect(outcome.value).toEqual({
      success: false,
      imported: 0,
      errors: [
        { line: 2, errors: ['application hors du périmètre de la campagne : GitLab'] },
        { line: 3, errors: ['type de compte hors du périmètre de la campagne : Technique'] },
        {
          line: 4,
          errors: ['utilisateur inconnu : inconnu@example.org', 'application hors du périmètre de la campagne : GitLab', 'type de compte hors du périmètre de la campagne : standard'],
        },
      ],
    })
    expect(await imported(names)).toEqual([])
  })

  it.each([
    ['completed', 'terminée'],
    ['archived', 'archivée'],
  ])('refuses a %s campaign in French and imports nothing', async (status, label) => {
    const app = await createApplication(db)
    const id = await startedCampaign(app)
    await setStatus(id, 'completed')
    if (status === 'archived') await setStatus(id, 'archived')
    const name = (await one<{ name: string }>(db, `select name from public.campaigns where id = $1`, [id])).name
    const role = unique('Rôle')
    const outcome = await importAs('admin', [{ email: demo.user.email, application: 'SAP Finance', role_name: role }], id)
    expectRefused(outcome, 'P0001', new RegExp(`^La campagne « ${name} » est ${label} : on ne peut plus y importer de droits\\.$`))
    expect(await imported([role])).toEqual([])
  })

  it('refuses an unknown campaign', async () => {
    const role = unique('Rôle')
    expectRefused(await importAs('admin', [{ email: demo.user.email, application: 'SAP Finance', role_name: role }], randomUUID()), 'P0001', /^Campagne introuvable\.$/)
    expect(await imported([role])).toEqual([])
  })

  it.each(nonAdmins)('%s is refused, into a campaign too, and imports nothing', async (role) => {
    const roleName = unique('Rôle')
    const outcome = await importAs(role, [{ email: demo[role].email, application: 'SAP Finance', role_name: roleName }], campaignIds.active)
    expectRefused(outcome, '42501', /^Seuls les administrateurs et le RSSI peuvent importer des droits\.$/)
    expect(await imported([roleName])).toEqual([])
  })
})

// ─── Admin dashboard ─────────────────────────────────────────────────────────────────────────────────────────────────

describe('admin dashboard', () => {
  async function expected() {
    return one(
      db,
      `select (select count(*) from public.campaigns where status = 'active')::int as active_campaigns,
              (select count(*) from public.campaigns where status = 'draft')::int as draft_campaigns,
              (select count(*) from public.campaigns where status = 'completed')::int as completed_campaigns,
              (select count(*) from public.campaigns where status = 'archived')::int as archived_campaigns,
              (select count(*) from public.users)::int as users,
              (select count(*) from public.applications)::int as applications`,
    )
  }

  it('counts active campaigns, users, applications and drafts, and follows changes', async () => {
    const before = await actAs(db, 'admin', (tx) => one<Record<string, number>>(tx, `select * from public.admin_dashboard()`))
    expect(before).toEqual(await expected())
    await createDraftCampaign(db)
    await createUser(db)
    await createApplication(db)
    const after = await actAs(db, 'rssi', (tx) => one<Record<string, number>>(tx, `select * from public.admin_dashboard()`))
    expect(after).toEqual(await expected())
    expect(after.draft_campaigns).toBe(before.draft_campaigns! + 1)
    expect(after.users).toBe(before.users! + 1)
    expect(after.applications).toBe(before.applications! + 1)
  })

  it.each(nonAdmins)('%s is refused in French', async (role) => {
    expectRefused(
      await attempt(db, role, (tx) => tx.query(`select * from public.admin_dashboard()`)),
      '42501',
      /^Seuls les administrateurs et le RSSI peuvent consulter le tableau de bord d'administration\.$/,
    )
  })
})

// ─── Access ──────────────────────────────────────────────────────────────────────────────────────────────────────────

describe('access', () => {
  it.each([
    ['campaign_export_rows', `select * from public.campaign_export_rows($1, 'manager')`, [campaignIds.active]],
    ['import_user_rights', `select public.import_user_rights('[]'::jsonb, $1)`, [campaignIds.active]],
    ['admin_dashboard', `select * from public.admin_dashboard()`, []],
    ['campaign_progress', `select * from public.campaign_progress`, []],
  ])('anon cannot call %s', async (_name, sql, params) => {
    expectRefused(await attempt(db, 'anon', (tx) => tx.query(sql, params)), '42501', /permission denied/)
  })

  it('every signed-in role reads the figures and the export rows', async () => {
    for (const role of roles) {
      for (const sql of [`select * from public.campaign_progress`, `select * from public.campaign_export_rows('${campaignIds.active}', 'manager')`]) {
        const outcome = await attempt(db, role, (tx) => tx.query(sql))
        expect(outcome, `${role}: ${outcome.message}`).toMatchObject({ ok: true })
      }
    }
  })

  it('leaves a single import function, callable with or without a campaign', async () => {
    const { rows } = await db.query<{ signature: string }>(
      `select p.oid::regprocedure::text as signature from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private') and p.proname in ('import_user_rights', 'resolve_import_rows') order by 1`,
    )
    expect(rows.map((r) => r.signature)).toEqual(['import_user_rights(jsonb,uuid)', 'private.resolve_import_rows(jsonb,uuid)'])
    expect(sap).toBeTruthy()
  })
})
