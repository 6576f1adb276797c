// The campaigns' part of the scheduled pass: a recurring campaign makes its next occurrence when
// its date comes, a draft set to start automatically starts on its start date, both once however often the pass runs,
// and only the service role runs it. "Now" is passed in: nothing here waits for a date.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, demo } from './support/actors'
import { callers, createApplication, createRight, createUser, one, unique } from './support/fixtures'

let db: Database

beforeAll(async () => {
  db = await freshDatabase()
})

afterAll(async () => {
  await db.close()
})

type Schedule = { created: number; started: number }

async function runSchedule(now: string): Promise<Schedule> {
  return actAs(db, 'service_role', async (tx) => {
    const { rows } = await tx.query<{ result: Schedule }>(`select public.run_campaign_schedule($1::timestamptz) as result`, [now])
    return rows[0]!.result
  })
}

/** A campaign of its own application, so that starting it takes no right another test counts. */
async function recurringCampaign(options: { recurrence: string | null; autoStart?: boolean; start: string; end: string; name?: string }) {
  const applicationId = await createApplication(db)
  const name = options.name ?? unique('Revue récurrente')
  const { id } = await actAs(db, 'admin', (tx) =>
    one<{ id: string }>(
      tx,
      `insert into public.campaigns (name, application_id, start_date, end_date, recurrence, auto_start)
       values ($1, $2, $3, $4, $5::public.campaign_recurrence, $6) returning id`,
      [name, applicationId, options.start, options.end, options.recurrence, options.autoStart ?? false],
    ),
  )
  return { id, applicationId, name }
}

async function start(id: string): Promise<void> {
  await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'active' where id = $1`, [id]))
}

async function campaign(id: string) {
  return one<{ id: string; name: string; status: string; start_date: string; end_date: string; recurrence: string | null; auto_start: boolean; previous_occurrence_id: string | null; created_by: string | null; application_id: string }>(
    db,
    `select id, name, status, start_date::text, end_date::text, recurrence::text, auto_start, previous_occurrence_id, created_by, application_id
       from public.campaigns where id = $1`,
    [id],
  )
}

async function nextOf(id: string) {
  const { rows } = await db.query<{ id: string }>(`select id from public.campaigns where previous_occurrence_id = $1`, [id])
  return rows
}

describe('run_campaign_schedule', () => {
  it('makes the next quarterly occurrence on its start date, named after the series and its quarter, once', async () => {
    const first = await recurringCampaign({ recurrence: 'quarterly', start: '2026-01-05', end: '2026-02-04', name: unique('Revue trimestrielle SAP') })
    await start(first.id)

    // The day before, nothing; on the day (in Paris: 23:30 UTC on 4 April is already the 5th there), the next one.
    await runSchedule('2026-04-03T12:00:00Z')
    expect(await nextOf(first.id)).toEqual([])
    await runSchedule('2026-04-04T22:30:00Z')
    const [next] = await nextOf(first.id)
    expect(next).toBeDefined()
    const made = await campaign(next!.id)
    expect(made).toMatchObject({
      name: `${first.name} — T2 2026`,
      status: 'draft',
      start_date: '2026-04-05',
      end_date: '2026-05-05',
      recurrence: 'quarterly',
      application_id: first.applicationId,
      created_by: demo.admin.id,
    })

    // Running again, or later the same quarter, makes no second one.
    await runSchedule('2026-04-04T22:30:00Z')
    await runSchedule('2026-05-20T08:00:00Z')
    expect(await nextOf(first.id)).toHaveLength(1)
    // The draft is not a series' last occurrence until it runs: nothing follows it yet.
    await runSchedule('2026-07-10T08:00:00Z')
    expect(await nextOf(next!.id)).toEqual([])

    // Once it runs, the third one carries the series' first name, not the second's.
    await start(next!.id)
    await runSchedule('2026-07-10T08:00:00Z')
    const [third] = await nextOf(next!.id)
    expect((await campaign(third!.id)).name).toBe(`${first.name} — T3 2026`)
  })

  it('starts an automatic occurrence on its start date, through the same transition as Démarrer', async () => {
    const first = await recurringCampaign({ recurrence: 'annual', autoStart: true, start: '2025-03-02', end: '2025-04-01' })
    const holder = await createUser(db)
    const rightId = await createRight(db, { holder: holder.id, applicationId: first.applicationId, campaignId: null })
    await runSchedule('2025-03-01T08:00:00Z')
    expect((await campaign(first.id)).status).toBe('draft')
    const firstRun = await runSchedule('2025-03-02T08:00:00Z')
    expect(firstRun.started).toBeGreaterThanOrEqual(1)
    expect((await campaign(first.id)).status).toBe('active')
    // Its record: one item for the right in scope, and the start's audit row.
    const { n } = await one<{ n: number }>(db, `select count(*)::int as n from public.campaign_items where campaign_id = $1 and right_id = $2`, [first.id, rightId])
    expect(n).toBe(1)
    const audit = await one<{ n: number }>(db, `select count(*)::int as n from public.audit_logs where action = 'start_campaign' and resource_id = $1`, [first.id])
    expect(audit.n).toBe(1)

    // A year later the next one is made and started in the same pass, named after its year.
    await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set status = 'completed' where id = $1`, [first.id]))
    await runSchedule('2026-03-02T08:00:00Z')
    const [next] = await nextOf(first.id)
    const made = await campaign(next!.id)
    expect(made).toMatchObject({ name: `${first.name} — 2026`, status: 'active', auto_start: true, start_date: '2026-03-02' })
    expect((await runSchedule('2026-03-02T09:00:00Z')).started).toBe(0)
  })

  it('gives the next occurrence the same e-mail settings: notifications, reminders, their days and the escalation delay', async () => {
    const first = await recurringCampaign({ recurrence: 'quarterly', start: '2026-01-12', end: '2026-02-11' })
    const settings = `notifications_enabled = false, reminders_enabled = false, reminder_days = '{14,2}', escalation_delay_days = 5`
    await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set ${settings} where id = $1`, [first.id]))
    await start(first.id)
    await runSchedule('2026-04-12T12:00:00Z')
    const [next] = await nextOf(first.id)
    const read = `select notifications_enabled, reminders_enabled, reminder_days, escalation_delay_days from public.campaigns where id = $1`
    expect(await one(db, read, [next!.id])).toEqual({ notifications_enabled: false, reminders_enabled: false, reminder_days: [14, 2], escalation_delay_days: 5 })
  })

  it('after a pause of several periods, makes only the current period’s occurrence', async () => {
    const first = await recurringCampaign({ recurrence: 'semiannual', start: '2024-01-10', end: '2024-02-10' })
    await start(first.id)
    await runSchedule('2025-09-01T08:00:00Z')
    const [next] = await nextOf(first.id)
    const made = await campaign(next!.id)
    expect(made).toMatchObject({ start_date: '2025-07-10', name: `${first.name} — S2 2025` })
  })

  it('leaves campaigns without recurrence, and drafts not set to start automatically, as they are', async () => {
    const plain = await recurringCampaign({ recurrence: null, start: '2024-01-10', end: '2024-02-10' })
    await start(plain.id)
    const manual = await recurringCampaign({ recurrence: null, start: '2024-01-10', end: '2024-02-10' })
    await runSchedule('2026-09-01T08:00:00Z')
    expect(await nextOf(plain.id)).toEqual([])
    expect((await campaign(manual.id)).status).toBe('draft')
  })

  it('stops a series whose recurrence an administrator removed', async () => {
    const first = await recurringCampaign({ recurrence: 'quarterly', start: '2024-01-10', end: '2024-02-10' })
    await start(first.id)
    await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set recurrence = null where id = $1`, [first.id]))
    await runSchedule('2026-09-01T08:00:00Z')
    expect(await nextOf(first.id)).toEqual([])
  })

  it('is the service role’s alone: every signed-in role and anon are refused', async () => {
    for (const caller of callers) {
      const outcome = await attempt(db, caller, (tx) => tx.query(`select public.run_campaign_schedule(now())`))
      expect(outcome.ok, caller).toBe(false)
      expect(outcome.code, caller).toBe('42501')
    }
  })

  it('lets admin and rssi set a campaign’s recurrence and automatic start, and nobody else', async () => {
    const { id } = await recurringCampaign({ recurrence: null, start: '2027-01-10', end: '2027-02-10' })
    for (const caller of ['admin', 'rssi'] as const) {
      const outcome = await attempt(db, caller, (tx) =>
        tx.query(`update public.campaigns set recurrence = 'annual', auto_start = true where id = $1`, [id]),
      )
      expect(outcome.ok, caller).toBe(true)
    }
    for (const caller of ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra'] as const) {
      const changed = await actAs(db, caller, async (tx) => {
        const { rows } = await tx.query(`update public.campaigns set recurrence = 'quarterly' where id = $1 returning id`, [id])
        return rows.length
      })
      expect(changed, caller).toBe(0)
    }
    expect((await campaign(id)).recurrence).toBe('annual')
    // Nobody points a campaign at another series.
    const forged = await attempt(db, 'admin', (tx) => tx.query(`update public.campaigns set previous_occurrence_id = $1 where id = $1`, [id]))
    expect(forged.code).toBe('42501')
  })
})
