// The notification outbox: messages written by the database in the event's transaction,
// the time-driven pass with an explicit "now", the claim that two runs never share, and who may see or drive it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { freshDatabase } from '../support/database'
import { actAs, attempt, demo, type Actor } from './support/actors'
import { count, createApplication, createRight, createUser, decide, expectRefused, one, unique } from './support/fixtures'

type Person = Actor & { id: string; email: string }
interface Message {
  id: string
  recipient_id: string
  recipient_email: string
  kind: string
  status: string
  attempts: number
  payload: {
    count: number
    counts: Record<string, number>
    campaign_name: string
    late?: { name: string; count: number }[]
    reviewers?: number
    days_left?: number
    days_late?: number
  }
  last_error: string | null
}

let db: Database
let manager: Person
let otherManager: Person
let holderA: Person
let holderB: Person
let bpoMetier: Person
let app: string
let campaign: string
let endDate: string

async function messages(where: string, params: unknown[] = []): Promise<Message[]> {
  return (await db.query<Message>(`select * from public.notifications where ${where} order by recipient_email`, params)).rows
}

/** A draft created by the demo admin (its creator), over one application, started by the admin. */
async function startCampaign(applicationId: string, settings = ''): Promise<string> {
  return actAs(db, 'admin', async (tx) => {
    const { id } = await one<{ id: string }>(
      tx,
      `insert into public.campaigns (name, application_id, start_date, end_date)
       values ($1, $2, current_date, current_date + 30) returning id`,
      [unique('Campagne'), applicationId],
    )
    if (settings) await tx.query(`update public.campaigns set ${settings} where id = $1`, [id])
    await tx.query(`update public.campaigns set status = 'active' where id = $1`, [id])
    return id
  })
}

beforeAll(async () => {
  db = await freshDatabase()
  manager = await createUser(db, { role: 'manager' })
  otherManager = await createUser(db, { role: 'manager' })
  holderA = await createUser(db, { role: 'user', managerId: manager.id })
  holderB = await createUser(db, { role: 'user', managerId: otherManager.id })
  bpoMetier = await createUser(db, { role: 'bpo_metier' })
  app = await createApplication(db, { bpoMetier: bpoMetier.id })
  for (const holder of [holderA, holderA, holderA, holderB]) await createRight(db, { holder: holder.id, applicationId: app, campaignId: null })
  campaign = await startCampaign(app)
  endDate = (await one<{ d: string }>(db, `select end_date::text as d from public.campaigns where id = $1`, [campaign])).d
})
afterAll(() => db.close())

/** Noon in Paris, `days` days from the campaign's end date. */
const around = (days: number) => `${new Date(Date.parse(`${endDate}T10:00:00Z`) + days * 86_400_000).toISOString()}`

function schedule(now: string) {
  return actAs(db, 'service_role', async (tx) => (await one<{ r: Record<string, number> }>(tx, `select public.run_notification_schedule($1) as r`, [now])).r)
}

describe('campaign started', () => {
  const notices = (id: string) => count(db, `select count(*) from private.campaign_start_notices where campaign_id = $1`, [id])

  it('records the start in its own transaction, and the next pass writes one message per reviewer with items waiting, with their count', async () => {
    expect(await notices(campaign)).toBe(1)
    const now = new Date().toISOString()
    expect(await schedule(now)).toMatchObject({ started: 4 })
    const started = await messages(`campaign_id = $1 and kind = 'campaign_started'`, [campaign])
    const byRecipient = Object.fromEntries(started.map((m) => [m.recipient_id, m.payload.count]))
    expect(byRecipient).toEqual({ [holderA.id]: 3, [holderB.id]: 1, [manager.id]: 3, [otherManager.id]: 1 })
    expect(started.every((m) => m.status === 'queued')).toBe(true)
    expect(started.find((m) => m.recipient_id === manager.id)?.payload).toMatchObject({ counts: { manager: 3 }, end_date: endDate })
    // Due in that very pass, whose claim comes right after it.
    expect(await count(db, `select count(*) from public.notifications where campaign_id = $1 and next_attempt_at <= $2`, [campaign, now])).toBe(4)
    // Told once: the notice is gone, and a second pass writes nothing more.
    expect(await notices(campaign)).toBe(0)
    expect(await schedule(now)).toMatchObject({ started: 0 })
    expect(await messages(`campaign_id = $1 and kind = 'campaign_started'`, [campaign])).toHaveLength(4)
  })

  it('tells, at the pass, the holders and managers what still waits for them then, and nobody else', async () => {
    const application = await createApplication(db, { bpoMetier: bpoMetier.id })
    const decided = await createRight(db, { holder: holderB.id, applicationId: application, campaignId: null })
    await createRight(db, { holder: holderB.id, applicationId: application, campaignId: null })
    const id = await startCampaign(application)
    expect((await decide(db, otherManager, decided, 'validated_manager')).ok).toBe(true)
    await schedule(new Date().toISOString())
    const told = await messages(`campaign_id = $1 and kind = 'campaign_started'`, [id])
    expect(Object.fromEntries(told.map((m) => [m.recipient_id, m.payload]))).toEqual({
      [holderB.id]: expect.objectContaining({ count: 1, counts: { user: 1 } }),
      [otherManager.id]: expect.objectContaining({ count: 1, counts: { manager: 1 } }),
    })
  })

  it('writes nothing for a campaign whose notifications are off, at the start or by the pass', async () => {
    const quiet = await createApplication(db, { bpoMetier: bpoMetier.id })
    await createRight(db, { holder: holderA.id, applicationId: quiet, campaignId: null })
    const id = await startCampaign(quiet, 'notifications_enabled = false')
    expect(await notices(id)).toBe(0)
    // Turned off between the start and the pass: nobody is told either.
    const later = await createApplication(db, { bpoMetier: bpoMetier.id })
    await createRight(db, { holder: holderA.id, applicationId: later, campaignId: null })
    const muted = await startCampaign(later)
    await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set notifications_enabled = false where id = $1`, [muted]))
    await schedule(new Date().toISOString())
    expect(await count(db, `select count(*) from public.notifications where campaign_id = any ($1)`, [[id, muted]])).toBe(0)
    expect(await notices(muted)).toBe(0)
  })
})

describe('items reaching a stage', () => {
  it('gives the next reviewer one digest per campaign and day, its count growing until it is sent', async () => {
    const rights = (await db.query<{ right_id: string }>(`select right_id from public.campaign_items where campaign_id = $1 and holder_id = $2`, [campaign, holderA.id])).rows
    expect((await decide(db, manager, rights[0]!.right_id, 'validated_manager')).ok).toBe(true)
    expect((await decide(db, manager, rights[1]!.right_id, 'validated_manager')).ok).toBe(true)
    const digests = await messages(`campaign_id = $1 and kind = 'stage_digest'`, [campaign])
    expect(digests).toHaveLength(1)
    expect(digests[0]).toMatchObject({ recipient_id: bpoMetier.id, payload: { count: 2, counts: { bpo_metier: 2 } } })
  })

  it("tells the campaign's creator once when its last item is decided", async () => {
    const small = await createApplication(db, { bpoMetier: bpoMetier.id, bpoGroupe: null })
    const right = await createRight(db, { holder: holderA.id, applicationId: small, campaignId: null })
    const id = await startCampaign(small)
    const decided = () => messages(`campaign_id = $1 and kind = 'campaign_decided'`, [id])
    expect((await decide(db, manager, right, 'validated_manager')).ok).toBe(true)
    expect(await decided()).toHaveLength(0)
    // With no BPO Groupe, BPO Métier's approval is the last review decision.
    expect((await decide(db, bpoMetier, right, 'validated_bpo_metier')).ok).toBe(true)
    expect(await decided()).toMatchObject([{ recipient_email: 'admin@example.com', payload: { count: 1 } }])
  })
})

describe('the time-driven pass', () => {
  const mine = (kind: string) => count(db, `select count(*) from public.notifications where campaign_id = $1 and kind = $2`, [campaign, kind])

  it('sends a reminder once per threshold, to the reviewers with undecided items only', async () => {
    await schedule(around(-10))
    expect(await mine('reminder')).toBe(0)
    await schedule(around(-3))
    const reminders = await messages(`campaign_id = $1 and kind = 'reminder'`, [campaign])
    const byRecipient = Object.fromEntries(reminders.map((m) => [m.recipient_id, m.payload.count]))
    // Holder A's last pending item (two went on to BPO Métier), holder B's, their managers', and BPO Métier's two.
    expect(byRecipient).toEqual({ [holderA.id]: 1, [holderB.id]: 1, [manager.id]: 1, [otherManager.id]: 1, [bpoMetier.id]: 2 })
    // The same day again, or two days later (still the 3-day threshold): nothing more; the 1-day threshold: again.
    await schedule(around(-3))
    await schedule(around(-2))
    expect(await mine('reminder')).toBe(5)
    await schedule(around(-1))
    expect(await mine('reminder')).toBe(10)
  })

  it("escalates after the end date to the late reviewer's manager and the campaign's creator, once", async () => {
    await schedule(around(0))
    expect(await mine('escalation')).toBe(0)
    await schedule(around(2))
    const escalations = await messages(`campaign_id = $1 and kind = 'escalation'`, [campaign])
    const admin = escalations.find((m) => m.recipient_email === 'admin@example.com')
    // Four rights wait: holder A's and holder B's pending ones (each for its holder and manager), and BPO Métier's two.
    expect(admin?.payload.count).toBe(4)
    expect(admin?.payload.late).toHaveLength(5)
    // Holder A's manager hears about holder A (1 left); the holders' managers are late too, but have no manager.
    expect(escalations.find((m) => m.recipient_id === manager.id)?.payload).toMatchObject({ count: 1, late: [{ count: 1 }] })
    expect(escalations).toHaveLength(3)
    await schedule(around(3))
    expect(await mine('escalation')).toBe(3)
  })

  it('does not run for an API caller other than the service role', async () => {
    for (const actor of ['anon', 'admin', 'rssi', 'manager'] as const) {
      expectRefused(await attempt(db, actor, (tx) => tx.query(`select public.run_notification_schedule(now())`)), '42501')
    }
  })
})

describe('delivery', () => {
  const claim = (now: string, limit = 500) =>
    actAs(db, 'service_role', async (tx) => (await tx.query<Message>(`select * from public.claim_notifications($1, $2)`, [limit, now])).rows)
  const finish = (id: string, ok: boolean, now: string, error: string | null = null) =>
    actAs(db, 'service_role', async (tx) => (await one<{ s: string | null }>(tx, `select public.finish_notification($1, $2, $3, $4) as s`, [id, ok, error, now])).s)

  it('retries a failed send with a growing wait, gives up after the last try, and never resends a sent message', async () => {
    const t0 = Date.parse(around(5))
    const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString()
    const first = await claim(at(0))
    expect(first.length).toBeGreaterThan(10)
    expect(first.every((m) => m.status === 'sending' && m.attempts === 1)).toBe(true)
    // A second run at the same time finds nothing: all are being sent.
    expect(await claim(at(0))).toHaveLength(0)

    const [failing, ...rest] = first
    for (const m of rest) expect(await finish(m.id, true, at(1))).toBe('sent')
    expect(await finish(rest[0]!.id, true, at(1))).toBeNull()
    expect(await finish(failing!.id, false, at(1), '451 4.3.0 Temporary failure')).toBe('queued')
    expect(await claim(at(2))).toHaveLength(0)
    let minutes = 6
    for (let tries = 2; tries <= 8; tries += 1) {
      const again = await claim(at(minutes))
      expect(again.map((m) => [m.id, m.attempts])).toEqual([[failing!.id, tries]])
      expect(await finish(failing!.id, false, at(minutes), 'Connexion refusée')).toBe(tries < 8 ? 'queued' : 'failed')
      minutes += 6 * 60 + 1
    }
    expect(await claim(at(minutes + 24 * 60))).toHaveLength(0)
    const given = (await messages(`id = $1`, [failing!.id]))[0]
    expect(given).toMatchObject({ status: 'failed', attempts: 8, last_error: 'Connexion refusée' })
    expect(await count(db, `select count(*) from public.notifications where status = 'sent'`)).toBe(rest.length)
  })

  it.skipIf(!process.env.DATABASE_URL)('never gives one message to two runs claiming at once (PostgreSQL)', async () => {
    await db.query(`update public.notifications set status = 'queued', attempts = 0, next_attempt_at = now() - interval '1 minute'`)
    const total = await count(db, `select count(*) from public.notifications`)
    // The first run holds its claim (transaction open) while the second claims on another connection.
    const [firstRun, secondRun] = await actAs(db, 'service_role', async (tx) => {
      const mine = (await tx.query<{ id: string }>(`select id from public.claim_notifications(10, now())`)).rows
      const theirs = await actAs(db, 'service_role', async (other) => (await other.query<{ id: string }>(`select id from public.claim_notifications(500, now())`)).rows)
      return [mine, theirs]
    })
    expect(firstRun).toHaveLength(10)
    expect(secondRun).toHaveLength(total - 10)
    expect(new Set([...firstRun, ...secondRun].map((m) => m.id)).size).toBe(total)
  })

  it('refuses claim and finish to every API caller but the service role', async () => {
    for (const actor of ['anon', 'user', 'admin', 'rssi'] as const) {
      expectRefused(await attempt(db, actor, (tx) => tx.query(`select * from public.claim_notifications(10, now())`)), '42501')
      expectRefused(await attempt(db, actor, (tx) => tx.query(`select public.finish_notification(gen_random_uuid(), true, null, now())`)), '42501')
    }
  })
})

describe("a campaign's notification settings", () => {
  it('are on by default, changeable by admin and rssi while the campaign runs, and checked', async () => {
    expect(await one(db, `select notifications_enabled, reminders_enabled, reminder_days, escalation_delay_days from public.campaigns where id = $1`, [campaign])).toEqual({
      notifications_enabled: true,
      reminders_enabled: true,
      reminder_days: [7, 3, 1],
      escalation_delay_days: 0,
    })
    const set = (actor: Actor, assignments: string) => attempt(db, actor, (tx) => tx.query(`update public.campaigns set ${assignments} where id = $1 returning id`, [campaign]))
    expect((await set('rssi', `reminders_enabled = false, reminder_days = '{10,2}'`)).ok).toBe(true)
    expectRefused(await set('admin', `reminder_days = '{0}'`), '23514', /^Un rappel est envoyé de 1 à 365 jours avant la date de fin \(0 demandé\)\.$/)
    expectRefused(await set('admin', `reminder_days = '{400}'`), '23514', /de 1 à 365 jours/)
    expectRefused(await set('admin', `reminder_days = '{3,null}'`), '23514', /^Les jours de rappel doivent être des nombres entiers\.$/)
    expectRefused(await set('admin', `reminder_days = '{5,3,5}'`), '23514', /^Le rappel à 5 jours avant la fin est donné deux fois\.$/)
    expectRefused(await set('admin', `reminder_days = '{11,10,9,8,7,6,5,4,3,2,1}'`), '23514', /^Une campagne compte au plus 10 rappels \(11 demandés\)\.$/)
    expectRefused(await set('admin', `escalation_delay_days = 31`), '23514', /^Le délai d'escalade est de 0 à 30 jours après la date de fin\.$/)
    expectRefused(await set('admin', `escalation_delay_days = -1`), '23514', /délai d'escalade/)
    expectRefused(await set('admin', `escalation_delay_days = null`), '23514', /délai d'escalade/)
    // A new campaign is checked as well.
    expectRefused(
      await attempt(db, 'admin', (tx) =>
        tx.query(`insert into public.campaigns (name, start_date, end_date, reminder_days) values ('x', current_date, current_date + 9, '{2,2}')`),
      ),
      '23514',
      /donné deux fois/,
    )
    // The table's own constraints hold the same bounds for whoever gets past the triggers.
    for (const check of ['campaigns_reminder_days_valid', 'campaigns_escalation_delay_valid']) {
      expect(await count(db, `select count(*) from pg_constraint where conname = $1`, [check])).toBe(1)
    }
    expect((await set('admin', `escalation_delay_days = 30`)).ok).toBe(true)
    // RLS: a manager's update reaches no row.
    expect((await set(manager, `notifications_enabled = false`)).value?.rows).toEqual([])
    expect(await one(db, `select notifications_enabled, reminders_enabled, reminder_days, escalation_delay_days from public.campaigns where id = $1`, [campaign])).toEqual({
      notifications_enabled: true,
      reminders_enabled: false,
      reminder_days: [10, 2],
      escalation_delay_days: 30,
    })
  })
})

describe('who sees and changes the outbox', () => {
  it('lets admin and rssi read every message, and nobody else any', async () => {
    const total = await count(db, `select count(*) from public.notifications`)
    for (const actor of ['admin', 'rssi'] as const) {
      expect(await actAs(db, actor, (tx) => count(tx, `select count(*) from public.notifications`))).toBe(total)
    }
    for (const actor of ['user', 'manager', 'bpo_metier', holderA] as const) {
      expect(await actAs(db, actor, (tx) => count(tx, `select count(*) from public.notifications`))).toBe(0)
    }
    expectRefused(await attempt(db, 'anon', (tx) => tx.query(`select * from public.notifications`)), '42501')
  })

  it('lets no API role write a message directly', async () => {
    for (const actor of ['admin', 'rssi', 'service_role'] as const) {
      expectRefused(
        await attempt(db, actor, (tx) =>
          tx.query(`insert into public.notifications (recipient_email, kind, dedupe_key) values ('x@example.org', 'reminder', $1)`, [unique('k')]),
        ),
        '42501',
      )
      expectRefused(await attempt(db, actor, (tx) => tx.query(`update public.notifications set status = 'sent'`)), '42501')
      expectRefused(await attempt(db, actor, (tx) => tx.query(`delete from public.notifications`)), '42501')
    }
  })

  it('lets admin and rssi requeue what is not sent, audited, and refuses everyone else', async () => {
    await db.query(`update public.notifications set status = 'failed', attempts = 8 where id = (select id from public.notifications limit 1)`)
    const waiting = await count(db, `select count(*) from public.notifications where status in ('queued', 'failed')`)
    const requeued = await actAs(db, 'rssi', async (tx) => (await one<{ n: number }>(tx, `select public.requeue_notifications() as n`)).n)
    expect(requeued).toBe(waiting)
    expect(await count(db, `select count(*) from public.notifications where status = 'failed'`)).toBe(0)
    expect(await count(db, `select count(*) from public.audit_logs where action = 'requeue_notifications'`)).toBe(1)
    for (const actor of ['user', 'manager', 'ra'] as const) {
      expectRefused(await attempt(db, actor, (tx) => tx.query(`select public.requeue_notifications()`)), '42501', /administrateurs/)
    }
  })
})

describe("each campaign's reminder days and escalation delay", () => {
  /** A campaign over a fresh application with the given rights' holders, its settings set before the start. */
  async function campaignFor(holders: Person[], settings: string) {
    const application = await createApplication(db, { bpoMetier: bpoMetier.id })
    for (const holder of holders) await createRight(db, { holder: holder.id, applicationId: application, campaignId: null })
    const id = await startCampaign(application, settings)
    const { end } = await one<{ end: string }>(db, `select end_date::text as end from public.campaigns where id = $1`, [id])
    const at = (days: number) => new Date(Date.parse(`${end}T10:00:00Z`) + days * 86_400_000).toISOString()
    const sent = (kind: string) => messages(`campaign_id = $1 and kind = $2`, [id, kind])
    return { id, at, sent }
  }

  it('reminds on the days the campaign chose, once each, and never on a day before its start', async () => {
    // 30 days long: 45 days before the end falls before the start.
    const { at, sent } = await campaignFor([holderB], `reminder_days = '{45,10,5}'`)
    await schedule(at(-29))
    await schedule(at(-11))
    expect(await sent('reminder')).toHaveLength(0)
    await schedule(at(-10))
    expect((await sent('reminder')).map((m) => m.payload)).toEqual([
      expect.objectContaining({ days_left: 10, count: 1 }),
      expect.objectContaining({ days_left: 10, count: 1 }),
    ])
    // 7 is not one of its days: nothing more until 5 days before the end; 3 and 1 are not either.
    await schedule(at(-7))
    expect(await sent('reminder')).toHaveLength(2)
    await schedule(at(-5))
    expect(await sent('reminder')).toHaveLength(4)
    for (const days of [-3, -1, 0]) await schedule(at(days))
    expect(await sent('reminder')).toHaveLength(4)
  })

  it('escalates only once its delay after the end date has passed', async () => {
    const { at, sent } = await campaignFor([holderA], `escalation_delay_days = 3, reminders_enabled = false`)
    for (const days of [1, 2, 3]) await schedule(at(days))
    expect(await sent('escalation')).toHaveLength(0)
    await schedule(at(4))
    const told = (await sent('escalation')).map((m) => `${m.recipient_email} ${m.payload.days_late}`).sort()
    expect(told).toEqual(['admin@example.com 4', `${manager.email} 4`].sort())
  })

  it('counts one right once for the creator, who hears of its holder and its manager, both late', async () => {
    const { at, sent } = await campaignFor([holderA], `reminders_enabled = false`)
    await schedule(at(1))
    const admin = (await sent('escalation')).find((m) => m.recipient_email === 'admin@example.com')
    expect(admin?.payload).toMatchObject({ count: 1, reviewers: 2 })
    expect(admin?.payload.late?.map((late) => late.count)).toEqual([1, 1])
  })
})

describe('items delegated or reassigned', () => {
  let team: { manager: Person; holder: Person; colleague: Person; campaign: string; rights: string[] }
  const delegationMessages = (recipient: string) => messages(`kind = 'delegation' and recipient_id = $1`, [recipient])
  const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
  const nameOf = async (id: string) => (await one<{ n: string }>(db, `select first_name || ' ' || last_name as n from public.users where id = $1`, [id])).n

  function delegate(actor: Actor, delegateId: string, rightIds: string[] | null = null) {
    return attempt(db, actor, (tx) =>
      tx.query(`select public.delegate_review_items($1, $2, 'Congés', $3::date, $4::uuid[])`, [team.campaign, delegateId, tomorrow(), rightIds]),
    )
  }

  /** The rights of the campaign that Mes revues shows the delegate to decide for someone else. */
  const delegatedQueue = (actor: Person) =>
    actAs(db, actor, async (tx) => (await tx.query<{ right_id: string }>(`select right_id from public.delegated_review_queue() where campaign_id = $1`, [team.campaign])).rows)

  beforeAll(async () => {
    const teamManager = await createUser(db, { role: 'manager' })
    const holder = await createUser(db, { role: 'user', managerId: teamManager.id })
    // A report of the same manager: their own right is not theirs to decide for the manager.
    const colleague = await createUser(db, { role: 'user', managerId: teamManager.id })
    const application = await createApplication(db)
    const rights = []
    for (const who of [holder, holder, holder, colleague]) rights.push(await createRight(db, { holder: who.id, applicationId: application, campaignId: null }))
    const id = await startCampaign(application)
    team = { manager: teamManager, holder, colleague, campaign: id, rights }
    // Decided already: no longer waits for the manager.
    expect((await decide(db, teamManager, rights[0]!, 'validated_manager')).ok).toBe(true)
  })

  it('tells the delegate once, with who delegated, until when, and as many rights as their queue shows', async () => {
    expect((await delegate(team.manager, team.colleague.id)).ok).toBe(true)
    const told = await delegationMessages(team.colleague.id)
    expect(told).toHaveLength(1)
    expect(told[0]).toMatchObject({
      recipient_email: team.colleague.email,
      status: 'queued',
      payload: {
        count: 2,
        items: null,
        stage: 'manager',
        ends_on: tomorrow(),
        reason: 'Congés',
        delegator_name: await nameOf(team.manager.id),
        assigned_by_name: null,
        recipient_name: await nameOf(team.colleague.id),
      },
    })
    expect(await delegatedQueue(team.colleague)).toHaveLength(2)
    // Nobody else hears of it.
    expect(await count(db, `select count(*) from public.notifications where kind = 'delegation' and payload ->> 'delegator_name' = $1`, [await nameOf(team.manager.id)])).toBe(1)
  })

  it('counts only the chosen rights of a selection, and tells of an administrator’s reassignment by name', async () => {
    const other = await createUser(db, { role: 'user' })
    expect((await delegate(team.manager, other.id, [team.rights[1]!])).ok).toBe(true)
    expect((await delegationMessages(other.id)).map((m) => m.payload)).toEqual([expect.objectContaining({ count: 1, items: 1 })])

    const standIn = await createUser(db, { role: 'manager' })
    const reassigned = await attempt(db, 'admin', (tx) =>
      tx.query(`select public.reassign_review_items($1, $2, $3, 'Absence longue', $4::date)`, [team.campaign, team.manager.id, standIn.id, tomorrow()]),
    )
    expect(reassigned.ok, reassigned.message).toBe(true)
    const told = await delegationMessages(standIn.id)
    // The colleague's own right too, which is not the stand-in's.
    expect(told.map((m) => m.payload)).toEqual([
      expect.objectContaining({ count: 3, delegator_name: await nameOf(team.manager.id), assigned_by_name: await nameOf(demo.admin.id), reason: 'Absence longue' }),
    ])
    expect(await delegatedQueue(standIn)).toHaveLength(3)
  })

  it('sends nothing to a deactivated person, nor for a campaign whose notifications are off', async () => {
    const leaver = await createUser(db, { role: 'user' })
    await db.query(`update public.users set active = false where id = $1`, [leaver.id])
    expectRefused(await delegate(team.manager, leaver.id), '22023', /désactivée/)
    // Written by other means all the same, the delegation still tells no leaver.
    await db.query(
      `insert into public.review_delegations (campaign_id, delegator_id, delegate_id, reason, ends_on, created_by)
       values ($1, $2, $3, 'Congés', current_date + 1, $2)`,
      [team.campaign, team.manager.id, leaver.id],
    )
    expect(await delegationMessages(leaver.id)).toHaveLength(0)

    const listener = await createUser(db, { role: 'user' })
    await actAs(db, 'admin', (tx) => tx.query(`update public.campaigns set notifications_enabled = false where id = $1`, [team.campaign]))
    expect((await delegate(team.manager, listener.id)).ok).toBe(true)
    expect(await delegationMessages(listener.id)).toHaveLength(0)
  })
})
