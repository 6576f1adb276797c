// The figures behind the charts (campaign_burndown, rssi_trends) and the separation-of-duties
// conflicts shown where decisions are taken (review_conflicts). Expected figures are recounted here from the rows; each
// function is tried by the roles allowed and refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds, demo, teamMembers } from './support/actors'
import { applicationId, count, createApplication, createRight, createUser, decide, expectRefused, one, roles, unique } from './support/fixtures'

let db: Database

beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

interface BurndownRow {
  day: string
  decisions: number | null
  remaining: number | null
  ideal: string | number
}

const dayText = (value: unknown) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value))

async function burndown(tx: Sql, campaignId: string): Promise<BurndownRow[]> {
  const { rows } = await tx.query<BurndownRow>(`select * from public.campaign_burndown($1)`, [campaignId])
  return rows.map((r) => ({ ...r, day: dayText(r.day) }))
}

const parisToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date())

describe('campaign_burndown', () => {
  it('gives one row per day from the start, the decisions of each day and the items still undecided', async () => {
    const rows = await actAs(db, 'admin', (tx) => burndown(tx, campaignIds.active))
    const campaign = await one<{ start_date: unknown; end_date: unknown }>(db, `select start_date, end_date from public.campaigns where id = $1`, [campaignIds.active])
    expect(rows[0]?.day).toBe(dayText(campaign.start_date))
    expect(rows.at(-1)?.day).toBe(dayText(campaign.end_date))
    // Every decision of the campaign lands on one day.
    const decisions = await count(db, `select count(*) from public.right_decisions where campaign_id = $1`, [campaignIds.active])
    expect(rows.reduce((sum, r) => sum + (r.decisions ?? 0), 0)).toBe(decisions)
    // Today, the items with no decision yet; the ideal line reaches none on the end date.
    const undecided = await count(
      db,
      `select count(*) from public.campaign_items i where i.campaign_id = $1 and not exists (select 1 from public.right_decisions d where d.item_id = i.id)`,
      [campaignIds.active],
    )
    const today = rows.find((r) => r.day === parisToday())
    expect(today?.remaining).toBe(undecided)
    expect(Number(rows.at(-1)?.ideal)).toBe(0)
    const items = await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [campaignIds.active])
    expect(Number(rows[0]?.ideal)).toBe(items)
    // The days to come have no figures yet.
    for (const row of rows.filter((r) => r.day > parisToday())) {
      expect(row.remaining).toBeNull()
      expect(row.decisions).toBeNull()
    }
  })

  it('counts a decision taken today on today and takes its item off what remains', async () => {
    const before = await actAs(db, 'admin', (tx) => burndown(tx, campaignIds.active))
    const right = await createRight(db, { applicationId: await applicationId(db, 'SAP Finance') })
    const added = await actAs(db, 'admin', (tx) => burndown(tx, campaignIds.active))
    const todayOf = (rows: BurndownRow[]) => rows.find((r) => r.day === parisToday())
    expect(todayOf(added)?.remaining).toBe((todayOf(before)?.remaining ?? 0) + 1)
    expect((await decide(db, 'manager', right, 'validated_manager')).ok).toBe(true)
    const after = await actAs(db, 'admin', (tx) => burndown(tx, campaignIds.active))
    expect(todayOf(after)?.decisions).toBe((todayOf(added)?.decisions ?? 0) + 1)
    expect(todayOf(after)?.remaining).toBe(todayOf(before)?.remaining)
  })

  it('counts only what the caller may read, gives nothing for a draft, and refuses the anonymous key', async () => {
    const all = await actAs(db, 'admin', (tx) => burndown(tx, campaignIds.active))
    const own = await actAs(db, 'user', (tx) => burndown(tx, campaignIds.active))
    const ownItems = await count(db, `select count(*) from public.campaign_items where campaign_id = $1 and holder_id = $2`, [
      campaignIds.active,
      demo.user.id,
    ])
    expect(Number(own[0]?.ideal)).toBe(ownItems)
    expect(ownItems).toBeLessThan(Number(all[0]?.ideal))
    expect(await actAs(db, 'admin', (tx) => burndown(tx, campaignIds.draft))).toEqual([])
    expectRefused(await attempt(db, 'anon', (tx) => burndown(tx, campaignIds.active)), '42501')
  })
})

interface Trends {
  campaigns: { id: string; status: string; total_items: number; validated_items: number; validation_rate: number | null; at_risk_items: number }[]
  stages: { stage: string; decided: number; waiting: number }[]
}

const trends = async (tx: Sql) => (await one<{ t: Trends }>(tx, `select public.rssi_trends() as t`)).t

describe('rssi_trends', () => {
  it('gives one point per started campaign, from its items, and the running campaigns per stage', async () => {
    const t = await actAs(db, 'rssi', trends)
    expect(t.campaigns.map((c) => c.id)).toEqual([campaignIds.completed, campaignIds.active])
    for (const point of t.campaigns) {
      const total = await count(db, `select count(*) from public.campaign_items where campaign_id = $1`, [point.id])
      const validated = await count(
        db,
        `select count(*) from public.campaign_items where campaign_id = $1 and status::text like 'validated%'`,
        [point.id],
      )
      expect(point.total_items).toBe(total)
      expect(point.validated_items).toBe(validated)
      expect(point.validation_rate).toBe(Math.round((100 * validated) / total))
      expect(point.at_risk_items).toBeGreaterThanOrEqual(0)
      expect(point.at_risk_items).toBeLessThanOrEqual(total)
    }
    expect(t.stages.map((s) => s.stage)).toEqual(['manager', 'bpo_metier', 'bpo_groupe', 'ra'])
    const pending = await count(db, `select count(*) from public.campaign_items where campaign_id = $1 and status in ('pending', 'validated_user')`, [
      campaignIds.active,
    ])
    expect(t.stages[0]?.waiting).toBe(pending)
    const managerDecided = await count(
      db,
      `select count(distinct d.item_id) from public.right_decisions d join public.campaign_items i on i.id = d.item_id
        where i.campaign_id = $1 and d.stage = 'manager'`,
      [campaignIds.active],
    )
    expect(t.stages[0]?.decided).toBe(managerDecided)
  })

  it('is the security officer’s only', async () => {
    for (const role of roles.filter((r) => r !== 'rssi')) {
      expectRefused(await attempt(db, role, trends), '42501', /Réservé au RSSI/)
    }
    expectRefused(await attempt(db, 'anon', trends), '42501')
  })
})

interface Conflict {
  right_id: string
  rule_name: string
  other_role_name: string
  other_application_name: string
}

async function conflicts(tx: Sql, rightIds: string[]): Promise<Conflict[]> {
  const { rows } = await tx.query<Conflict>(`select * from public.review_conflicts($1::uuid[])`, [rightIds])
  return rows
}

describe('review_conflicts', () => {
  let entry: string
  let approval: string
  let approvalApplication: string
  let rule: string
  const entryRole = unique('Saisie factures')
  const approvalRole = unique('Approbateur factures')

  beforeAll(async () => {
    const entryApplication = await createApplication(db)
    // The other right is on an application whose owners are not the demo reviewers: they could not read it otherwise.
    const ra = await createUser(db, { role: 'ra' })
    const bpo = await createUser(db, { role: 'bpo_metier' })
    approvalApplication = await createApplication(db, { ra: ra.id, bpoMetier: bpo.id, bpoGroupe: null })
    entry = await createRight(db, { holder: teamMembers.thomas, applicationId: entryApplication, roleName: entryRole })
    approval = await createRight(db, { holder: teamMembers.thomas, applicationId: approvalApplication, roleName: approvalRole, campaignId: null })
    rule = unique('Séparation saisie / validation')
    await db.query(`insert into public.control_rules (name, global, parameters) values ($1, true, $2)`, [
      rule,
      JSON.stringify({ incompatible_roles: [entryRole, ` ${approvalRole} `] }),
    ])
  })

  it('tells the reviewer the holder also holds an incompatible role, and where', async () => {
    const found = await actAs(db, 'manager', (tx) => conflicts(tx, [entry]))
    const name = await one<{ name: string }>(db, `select name from public.applications where id = $1`, [approvalApplication])
    expect(found).toEqual([
      expect.objectContaining({ right_id: entry, rule_name: rule, other_role_name: approvalRole, other_application_name: name.name }),
    ])
  })

  it('answers only for rights in the caller’s queue', async () => {
    // Not yet at their stage, not theirs at all, or not a reviewer.
    for (const role of ['bpo_metier', 'bpo_groupe', 'ra', 'user', 'admin', 'rssi'] as const) {
      expect(await actAs(db, role, (tx) => conflicts(tx, [entry, approval]))).toEqual([])
    }
    expectRefused(await attempt(db, 'anon', (tx) => conflicts(tx, [entry])), '42501')
    expect((await decide(db, 'manager', entry, 'validated_manager')).ok).toBe(true)
    expect(await actAs(db, 'manager', (tx) => conflicts(tx, [entry]))).toEqual([])
    expect(await actAs(db, 'bpo_metier', (tx) => conflicts(tx, [entry]))).toHaveLength(1)
  })

  it('ignores a disabled rule and a rule of another application', async () => {
    await db.query(`update public.control_rules set enabled = false where name = $1`, [rule])
    expect(await actAs(db, 'bpo_metier', (tx) => conflicts(tx, [entry]))).toEqual([])
    const elsewhere = await createApplication(db)
    await db.query(`update public.control_rules set enabled = true, global = false, application_id = $2 where name = $1`, [rule, elsewhere])
    expect(await actAs(db, 'bpo_metier', (tx) => conflicts(tx, [entry]))).toEqual([])
    await db.query(`update public.control_rules set global = true, application_id = null where name = $1`, [rule])
    expect(await actAs(db, 'bpo_metier', (tx) => conflicts(tx, [entry]))).toHaveLength(1)
  })

  it('refuses more than a page of rights', async () => {
    const many = Array.from({ length: 1001 }, () => entry)
    expectRefused(await attempt(db, 'bpo_metier', (tx) => conflicts(tx, many)), '22023', /Au plus 1000 droits/)
  })
})

describe('admin_alerts', () => {
  const alerts = async (tx: Sql) => (await one<{ alerts: { overdue_campaigns: number } }>(tx, `select public.admin_alerts() as alerts`)).alerts.overdue_campaigns

  it('counts the campaigns still active past their end date, for admin and rssi only', async () => {
    const before = await actAs(db, 'admin', alerts)
    const { id } = await one<{ id: string }>(
      db,
      `insert into public.campaigns (name, start_date, end_date) values ($1, current_date - 20, current_date - 1) returning id`,
      [unique('Campagne échue')],
    )
    await db.query(`update public.campaigns set status = 'active' where id = $1`, [id])
    expect(await actAs(db, 'admin', alerts)).toBe(before + 1)
    expect(await actAs(db, 'rssi', alerts)).toBe(before + 1)
    await db.query(`update public.campaigns set status = 'completed' where id = $1`, [id])
    expect(await actAs(db, 'admin', alerts)).toBe(before)
    for (const role of roles.filter((r) => r !== 'admin' && r !== 'rssi')) {
      expectRefused(await attempt(db, role, alerts), '42501')
    }
    expectRefused(await attempt(db, 'anon', alerts), '42501')
  })
})
