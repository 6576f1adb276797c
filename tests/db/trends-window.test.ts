// The RSSI dashboard's trends follow its window and its filters, as its figures do. rssi_trends is
// asked with the same arguments as rssi_dashboard and its answer is checked against the dashboard's own figures and
// against counts made here from the rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, campaignIds } from './support/actors'
import { applicationId, count, expectRefused, one } from './support/fixtures'

let db: Database

beforeAll(async () => {
  db = await freshDatabase()
})
afterAll(() => db.close())

interface Trends {
  campaigns: { id: string; total_items: number; validated_items: number }[]
  days: { day: string; approved: number; refused: number }[]
  stages: { stage: string; decided: number; waiting: number }[]
}

interface Args {
  p_search?: string
  p_application_id?: string
  p_from?: string
  p_to?: string
}

const NAMED = `p_search => $1, p_application_id => $2::uuid, p_from => $3::date, p_to => $4::date`
const values = (args: Args) => [args.p_search ?? null, args.p_application_id ?? null, args.p_from ?? null, args.p_to ?? null]

const trends = (args: Args) => async (tx: Sql) => (await one<{ t: Trends }>(tx, `select public.rssi_trends(${NAMED}) as t`, values(args))).t
const decisions = (args: Args) => async (tx: Sql) =>
  (await one<{ n: number }>(tx, `select (public.rssi_dashboard(${NAMED}) -> 'activity' ->> 'decisions')::int as n`, values(args))).n

const parisDay = (offsetDays = 0) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date(Date.now() + offsetDays * 86_400_000))

describe('rssi_trends under the dashboard’s window', () => {
  it('draws only the campaigns the window counts: the running one always, a closed one when it overlaps', async () => {
    const lastMonth = await actAs(db, 'rssi', trends({ p_from: parisDay(-30), p_to: parisDay() }))
    expect(lastMonth.campaigns.map((c) => c.id)).toEqual([campaignIds.active])
    // The annual review ran from 1 October to 15 November 2025.
    const lastYear = await actAs(db, 'rssi', trends({ p_from: '2025-11-01', p_to: '2025-11-30' }))
    expect(lastYear.campaigns.map((c) => c.id)).toEqual([campaignIds.completed, campaignIds.active])
  })

  it('gives each day of the window its decisions, which add up to the dashboard’s Décisions', async () => {
    for (const window of [
      { p_from: parisDay(-7), p_to: parisDay() },
      { p_from: parisDay(-90), p_to: parisDay() },
      { p_from: '2025-10-01', p_to: '2025-11-15' },
    ]) {
      const t = await actAs(db, 'rssi', trends(window))
      expect(t.days[0]?.day).toBe(window.p_from)
      expect(t.days.at(-1)?.day).toBe(window.p_to)
      const sum = t.days.reduce((total, d) => total + d.approved + d.refused, 0)
      expect(sum).toBe(await actAs(db, 'rssi', decisions(window)))
    }
    // The seeded week has decisions: the sum above is not the trivial 0 = 0.
    const week = await actAs(db, 'rssi', trends({ p_from: parisDay(-14), p_to: parisDay() }))
    expect(week.days.some((d) => d.approved > 0)).toBe(true)
  })

  it('refuses an inverted window in French', async () => {
    expectRefused(await attempt(db, 'rssi', trends({ p_from: parisDay(), p_to: parisDay(-1) })), '22023', /La date de début doit précéder/)
  })
})

describe('rssi_trends under the dashboard’s filters', () => {
  it('counts each campaign and stage over the items of the application asked for', async () => {
    const sap = await applicationId(db, 'SAP Finance')
    const all = await actAs(db, 'rssi', trends({}))
    const filtered = await actAs(db, 'rssi', trends({ p_application_id: sap }))
    expect(filtered.campaigns.length).toBeGreaterThan(0)
    for (const point of filtered.campaigns) {
      const items = await count(db, `select count(*) from public.campaign_items where campaign_id = $1 and application_id = $2`, [point.id, sap])
      expect(point.total_items).toBe(items)
      expect(point.total_items).toBeLessThan(all.campaigns.find((c) => c.id === point.id)?.total_items ?? 0)
    }
    const waiting = await count(
      db,
      `select count(*) from public.campaign_items where campaign_id = $1 and application_id = $2 and status in ('pending', 'validated_user')`,
      [campaignIds.active, sap],
    )
    expect(filtered.stages[0]?.waiting).toBe(waiting)
    const window = { p_application_id: sap, p_from: parisDay(-30), p_to: parisDay() }
    const inWindow = await actAs(db, 'rssi', trends(window))
    expect(inWindow.days.reduce((total, d) => total + d.approved + d.refused, 0)).toBe(await actAs(db, 'rssi', decisions(window)))
  })

  it('leaves out a campaign with nothing matching the search', async () => {
    const none = await actAs(db, 'rssi', trends({ p_search: 'aucun-droit-ne-porte-ce-nom' }))
    expect(none.campaigns).toEqual([])
    expect(none.stages.every((s) => s.decided === 0 && s.waiting === 0)).toBe(true)
  })
})
