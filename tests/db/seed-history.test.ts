// The demo history in its own time: the seed runs the real workflow at the dates of its story (recertif.clock, read by
// private.clock()), so last year's review lies in October and November 2025 and this quarter's in the current month,
// up to now and never later, in the same order as the sealed trail that records it. Only the database owner acting
// directly can move that clock: a caller of the API who sets it still writes at the present time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database, Sql } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, campaignIds, demo } from './support/actors'
import { applicationId, count, createRight, one } from './support/fixtures'

/** The time of a campaign's transition, from its audit event. */
async function transitionAt(db: Sql, campaignId: string, action: 'start_campaign' | 'complete_campaign'): Promise<Date> {
  const row = await one<{ at: Date }>(
    db,
    `select "timestamp" as at from public.audit_logs where resource_type = 'campaigns' and resource_id = $1 and action = $2`,
    [campaignId, action],
  )
  return row.at
}

interface Decision {
  stage: string
  decided_at: Date
  audit_at: Date
}

/** A campaign's decisions in the order the trail recorded them, each with its decision row's time and its audit row's. */
async function decisionsOf(db: Sql, campaignId: string): Promise<Decision[]> {
  const { rows } = await db.query<Decision>(
    `select d.stage::text as stage, d.decided_at, l."timestamp" as audit_at
       from public.right_decisions d
       join public.audit_logs l on l.action = 'decide' and l.details ->> 'decision_id' = d.id::text
      where d.campaign_id = $1
      order by l.id`,
    [campaignId],
  )
  return rows
}

describe('the seeded history', () => {
  let db: Database
  let now: Date
  beforeAll(async () => {
    db = await freshDatabase()
    now = (await one<{ now: Date }>(db, 'select now() as now')).now
  })
  afterAll(() => db.close())

  it('runs last year’s review from October to November 2025: created, started, decided, completed, then treated by the RA', async () => {
    const created = (await one<{ at: Date }>(db, 'select created_at as at from public.campaigns where id = $1', [campaignIds.completed])).at
    const started = await transitionAt(db, campaignIds.completed, 'start_campaign')
    const completed = await transitionAt(db, campaignIds.completed, 'complete_campaign')
    expect(created < started).toBe(true)
    expect(started.toISOString()).toBe(new Date('2025-10-01T09:00:00+02:00').toISOString())
    expect(completed.toISOString()).toBe(new Date('2025-11-17T09:30:00+01:00').toISOString())

    // Ten taken while it ran, then the RA's: a refusal removed, a service account kept, and the eight standard accounts
    // left undecided kept after checking, so that this quarter's review takes them.
    const decisions = await decisionsOf(db, campaignIds.completed)
    expect(decisions).toHaveLength(20)
    expect(decisions.filter((d) => d.stage === 'ra')).toHaveLength(10)
    for (const d of decisions) {
      // The decision row and its audit row say the same time.
      expect(d.decided_at.toISOString()).toBe(d.audit_at.toISOString())
      expect(d.decided_at >= new Date('2025-10-01T00:00:00+02:00') && d.decided_at < new Date('2025-12-01T00:00:00+01:00'), d.decided_at.toISOString()).toBe(true)
      if (d.stage === 'ra') {
        expect(d.decided_at > completed).toBe(true)
      } else {
        expect(d.decided_at > started && d.decided_at < completed, d.decided_at.toISOString()).toBe(true)
        // The reviewers decide on working days, at office hours (Paris).
        const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', weekday: 'short', hour: 'numeric', hourCycle: 'h23' })
          .formatToParts(d.decided_at)
        const hour = Number(local.find((p) => p.type === 'hour')!.value)
        expect(['Sat', 'Sun']).not.toContain(local.find((p) => p.type === 'weekday')!.value)
        expect(hour >= 8 && hour < 19, d.decided_at.toISOString()).toBe(true)
      }
    }
    // Taken on different days, not all at once.
    expect(new Set(decisions.map((d) => d.decided_at.toISOString().slice(0, 10))).size).toBeGreaterThan(5)
    // The items record when they were made and when last decided, in the same story.
    const items = await one<{ first: Date; last: Date }>(
      db,
      'select min(created_at) as first, max(updated_at) as last from public.campaign_items where campaign_id = $1',
      [campaignIds.completed],
    )
    expect(items.first.toISOString()).toBe(started.toISOString())
    expect(items.last < new Date('2025-12-01T00:00:00+01:00')).toBe(true)
  })

  it('runs this quarter’s campaign from the first of the month up to now, never later', async () => {
    const campaign = await one<{ start_date: string; created_at: Date }>(
      db,
      'select start_date::text, created_at from public.campaigns where id = $1',
      [campaignIds.active],
    )
    const started = await transitionAt(db, campaignIds.active, 'start_campaign')
    const monthStart = (await one<{ at: Date }>(db, `select date_trunc('month', now()) as at`)).at
    expect(campaign.created_at < monthStart).toBe(true)
    expect(campaign.created_at > new Date('2025-12-01T00:00:00+01:00')).toBe(true)
    expect(started >= monthStart && started <= now).toBe(true)

    const decisions = await decisionsOf(db, campaignIds.active)
    expect(decisions).toHaveLength(7)
    for (const d of decisions) {
      expect(d.decided_at.toISOString()).toBe(d.audit_at.toISOString())
      expect(d.decided_at >= started && d.decided_at <= now, d.decided_at.toISOString()).toBe(true)
    }
    const validatedAt = await count(db, `select count(*) from public.user_rights where campaign_id = $1 and validated_at > now()`, [campaignIds.active])
    expect(validatedAt).toBe(0)
  })

  it('writes the whole trail in time order, nothing later than now, and the seal verifies intact', async () => {
    const rows = await db.query<{ id: number; at: Date }>(`select id::int as id, "timestamp" as at from public.audit_logs order by id`)
    expect(rows.rows.length).toBeGreaterThan(50)
    for (let i = 1; i < rows.rows.length; i++) {
      expect(rows.rows[i]!.at >= rows.rows[i - 1]!.at, `row ${rows.rows[i]!.id}`).toBe(true)
    }
    expect(rows.rows[0]!.at.toISOString()).toBe(new Date('2025-09-08T09:30:00+02:00').toISOString())
    expect(rows.rows.at(-1)!.at <= now).toBe(true)
    expect(await count(db, `select count(*) from public.right_decisions where decided_at > now()`)).toBe(0)

    const verdict = await actAs(db, 'service_role', (tx) => one<{ v: { intact: boolean; rows_checked: number } }>(tx, 'select public.verify_audit_chain() as v'))
    expect(verdict.v).toMatchObject({ intact: true, rows_checked: rows.rows.length })
  })
})

describe('the write-path clock', () => {
  let db: Database
  beforeAll(async () => {
    db = await freshDatabase()
  })
  afterAll(() => db.close())

  const past = '2020-01-06 09:00:00+00'

  it('is not the caller’s to set: a reviewer who sets recertif.clock still decides, and is audited, at the present time', async () => {
    const rightId = await createRight(db, { applicationId: await applicationId(db, 'ServiceNow') })
    const written = await actAs(db, 'user', async (tx) => {
      await tx.query(`select set_config('recertif.clock', $1, true)`, [past])
      const { r } = await one<{ r: { decision_id: string; item_id: string } }>(
        tx,
        `select public.validate_user_right($1, 'validated_user', null) as r`,
        [rightId],
      )
      // The holder reads their own right, its item and the decision; the audit row is the RSSI's (read below).
      return one<{ now: Date; decided_at: Date; validated_at: Date; item_at: Date }>(
        tx,
        `select now(),
                (select decided_at from public.right_decisions where id = $1),
                (select validated_at from public.user_rights where id = $2),
                (select updated_at from public.campaign_items where id = $3) as item_at`,
        [r.decision_id, rightId, r.item_id],
      )
    })
    for (const at of [written.decided_at, written.validated_at, written.item_at]) {
      expect(at.toISOString()).toBe(written.now.toISOString())
    }
    const audit = await one<{ at: Date }>(
      db,
      `select "timestamp" as at from public.audit_logs where action = 'decide' and resource_id = $1`,
      [rightId],
    )
    expect(audit.at.toISOString()).toBe(written.now.toISOString())
  })

  it('is not the service role’s to set either, nor an administrator’s creating a campaign', async () => {
    const email = `horloge-${Date.now()}@example.com`
    const byService = await actAs(db, 'service_role', async (tx) => {
      await tx.query(`select set_config('recertif.clock', $1, true)`, [past])
      return one<{ now: Date; created_at: Date; updated_at: Date }>(
        tx,
        `insert into public.users (email, first_name, last_name, role) values ($1, 'Horloge', 'Test', 'user')
         returning now(), created_at, updated_at`,
        [email],
      )
    })
    expect(byService.created_at.toISOString()).toBe(byService.now.toISOString())
    expect(byService.updated_at.toISOString()).toBe(byService.now.toISOString())

    const byAdmin = await actAs(db, 'admin', async (tx) => {
      await tx.query(`select set_config('recertif.clock', $1, true)`, [past])
      return one<{ now: Date; created_at: Date }>(
        tx,
        `insert into public.campaigns (name, start_date, end_date) values ('Campagne horloge', current_date, current_date + 7)
         returning now(), created_at`,
      )
    })
    expect(byAdmin.created_at.toISOString()).toBe(byAdmin.now.toISOString())

    const audited = await db.query<{ at: Date }>(
      `select "timestamp" as at from public.audit_logs
        where (resource_type = 'users' and details -> 'new' ->> 'email' = $1)
           or (resource_type = 'campaigns' and details -> 'new' ->> 'name' = 'Campagne horloge')`,
      [email],
    )
    expect(audited.rows).toHaveLength(2)
    for (const row of audited.rows) expect(row.at.getUTCFullYear()).toBeGreaterThan(2020)
  })

  it('moves only for the database owner acting directly, as the seed does, and the seal still holds', async () => {
    const at = await db.transaction(async (tx) => {
      await tx.query(`select set_config('recertif.clock', $1, true)`, [past])
      await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub: demo.rssi.id, role: 'authenticated', aal: 'aal2' })])
      return one<{ created_at: Date }>(
        tx,
        `insert into public.control_rules (name, description, global, parameters, enabled)
         values ('Règle horloge', '', true, '{"inactivity_threshold": 60}', false) returning created_at`,
      )
    })
    expect(at.created_at.toISOString()).toBe(new Date(past).toISOString())
    const audit = await one<{ at: Date }>(
      db,
      `select "timestamp" as at from public.audit_logs where resource_type = 'control_rules' and details -> 'new' ->> 'name' = 'Règle horloge'`,
    )
    expect(audit.at.toISOString()).toBe(new Date(past).toISOString())
    const verdict = await actAs(db, 'service_role', (tx) => one<{ v: { intact: boolean } }>(tx, 'select public.verify_audit_chain() as v'))
    expect(verdict.v.intact).toBe(true)
  })
})
