// Notification delivery end to end: campaigns started through the REST API as the admin, the
// scheduled pass run against the real local server with the service role, delivering over real SMTP, to the mail
// catcher or to a server that refuses (451) and then accepts. The clock moves through the pass's "now", never by sleeping.
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import handleSendNow from '../../netlify/functions/notifications-send'
import { passSettingsFromEnv, runNotificationPass, type PassSettings } from '../../netlify/functions/notifications/run'
import { startMailCatcher, type MailCatcher } from '../../supabase/local/mail/catcher'
import { campaignIds } from '../db/support/actors'
import { createApplication, createRight, createUser, one } from '../db/support/fixtures'
import { DEMO_PASSWORD, startTestBackend, type TestBackend } from './support/server'

type Settings = Extract<PassSettings, { ok: true }>

let backend: TestBackend
let catcher: MailCatcher
let adminToken: string
const APP_URL = 'https://recertif.example'
// Campaigns start today and end in 30 days, so that the pass at the real time finds them running.
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
const END_DATE = day(30)
const END_DATE_FR = END_DATE.split('-').reverse().join('/')

beforeAll(async () => {
  backend = await startTestBackend()
  catcher = await startMailCatcher({ smtpPort: 0, webPort: 0 })
  const { data, error } = await backend.client().auth.signInWithPassword({ email: 'admin@example.com', password: DEMO_PASSWORD })
  if (error) throw error
  adminToken = data.session.access_token
})
afterAll(async () => {
  await catcher?.close()
  await backend?.close()
})

function settings(smtpUrl: string): Settings {
  const result = passSettingsFromEnv({
    SUPABASE_URL: backend.url,
    SUPABASE_SERVICE_ROLE_KEY: backend.server.config.serviceRoleKey,
    SMTP_URL: smtpUrl,
    NOTIFICATIONS_FROM: 'Recertif <no-reply@recertif.example>',
    APP_URL,
  })
  if (!result.ok) throw new Error(result.problems.join('; '))
  return result
}

/** A team and an application of their own, and a campaign over it started by the admin through the REST API. */
async function startCampaignFor(rightsPerHolder: number[]): Promise<{ id: string; endDate: string; manager: string; holders: string[] }> {
  const manager = await createUser(backend.db, { role: 'manager' })
  const holders = []
  const app = await createApplication(backend.db)
  for (const n of rightsPerHolder) {
    const holder = await createUser(backend.db, { role: 'user', managerId: manager.id })
    holders.push(holder.email)
    for (let i = 0; i < n; i += 1) await createRight(backend.db, { holder: holder.id, applicationId: app, campaignId: null })
  }
  const admin = backend.client()
  await admin.auth.signInWithPassword({ email: 'admin@example.com', password: DEMO_PASSWORD })
  const created = await admin
    .from('campaigns')
    .insert({ name: `Revue ${manager.email}`, application_id: app, start_date: day(0), end_date: END_DATE })
    .select('id, end_date')
    .single()
  if (created.error) throw created.error
  const started = await admin.from('campaigns').update({ status: 'active' }).eq('id', created.data.id)
  if (started.error) throw started.error
  return { id: created.data.id, endDate: created.data.end_date, manager: manager.email, holders }
}

const caughtFor = (addresses: string[]) => catcher.messages().filter((m) => m.envelope.to.some((to) => addresses.includes(to)))
const at = (isoDate: string, days = 0) => new Date(Date.parse(`${isoDate}T10:00:00Z`) + days * 86_400_000)

describe('a campaign starts, reminders fall due', () => {
  let campaign: Awaited<ReturnType<typeof startCampaignFor>>

  beforeAll(async () => {
    campaign = await startCampaignFor([2, 1])
  })

  it('delivers one message per reviewer with their count and a link to Mes revues', async () => {
    await runNotificationPass(settings(catcher.smtpUrl))
    const people = [campaign.manager, ...campaign.holders]
    const mails = caughtFor(people)
    expect(mails.map((m) => m.envelope.to[0]).sort()).toEqual([...people].sort())
    const subjectOf = (email: string) => mails.find((m) => m.envelope.to.includes(email))?.subject
    expect(subjectOf(campaign.manager)).toBe(`Campagne « Revue ${campaign.manager} » : 3 droits à revoir avant le ${END_DATE_FR}`)
    expect(subjectOf(campaign.holders[0]!)).toMatch(/: 2 droits à revoir/)
    expect(subjectOf(campaign.holders[1]!)).toMatch(/: 1 droit à revoir/)
    expect(mails[0]?.text).toContain(`${APP_URL}/app/reviews`)
    expect(mails[0]?.html).toContain(`href="${APP_URL}/app/reviews"`)
  })

  it('sends a reminder when the pass runs 3 days before the end, and only once', async () => {
    const people = [campaign.manager, ...campaign.holders]
    const before = caughtFor(people).length
    await runNotificationPass(settings(catcher.smtpUrl), at(campaign.endDate, -3))
    await runNotificationPass(settings(catcher.smtpUrl), at(campaign.endDate, -3))
    await runNotificationPass(settings(catcher.smtpUrl), at(campaign.endDate, -2))
    const reminders = caughtFor(people).slice(before)
    expect(reminders).toHaveLength(3)
    expect(reminders.every((m) => m.subject.startsWith('Rappel : '))).toBe(true)
    expect(reminders.find((m) => m.envelope.to.includes(campaign.manager))?.text).toContain(`se termine dans 3 jours, le ${END_DATE_FR}`)
  })
})

describe('items delegated', () => {
  it("mails the delegate who delegated, until when and how many rights wait, when a manager delegates through the API", async () => {
    const delegate = await createUser(backend.db, { role: 'user' })
    const manager = backend.client()
    await manager.auth.signInWithPassword({ email: 'manager@example.com', password: DEMO_PASSWORD })
    const endsOn = day(7)
    const delegated = await manager.rpc('delegate_review_items', { p_campaign_id: campaignIds.active, p_delegate_id: delegate.id, p_reason: 'Congés', p_ends_on: endsOn })
    if (delegated.error) throw delegated.error
    const { count, name } = await one<{ count: number; name: string }>(
      backend.db,
      `select (payload ->> 'count')::int as count, payload ->> 'delegator_name' as name from public.notifications where kind = 'delegation' and recipient_id = $1`,
      [delegate.id],
    )
    expect(count).toBeGreaterThan(0)

    await runNotificationPass(settings(catcher.smtpUrl))
    const mails = caughtFor([delegate.email])
    expect(mails).toHaveLength(1)
    expect(mails[0]?.subject).toMatch(new RegExp(`^Campagne « .+ » : ${name} vous délègue ses revues$`))
    expect(mails[0]?.text).toContain(`${name} (manager) vous délègue ses revues dans la campagne`)
    expect(mails[0]?.text).toContain(`jusqu'au ${endsOn.split('-').reverse().join('/')} inclus.`)
    expect(mails[0]?.text).toContain(`${count} droit${count > 1 ? 's' : ''} attend`)
    expect(mails[0]?.text).toContain(`Ouvrir Mes revues : ${APP_URL}/app/reviews`)
  })
})

/** An SMTP server that answers 451 to every recipient while `refusing`, and counts what it accepts per recipient. */
async function startFlakyServer(): Promise<{ url: string; received: Map<string, number>; refusals: () => number; accept(): void; close(): Promise<void> }> {
  let refusing = true
  let refusals = 0
  const received = new Map<string, number>()
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onRcptTo: (_address, _session, callback) => {
      if (!refusing) return callback()
      refusals += 1
      callback(Object.assign(new Error('Service temporairement indisponible'), { responseCode: 451 }))
    },
    onData: (stream, session, callback) => {
      stream.resume()
      stream.on('end', () => {
        for (const to of session.envelope.rcptTo) received.set(to.address, (received.get(to.address) ?? 0) + 1)
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refusals: () => refusals,
    accept: () => (refusing = false),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

describe('recurring campaigns and automatic start', () => {
  it('starts a draft on its date and tells its reviewers, then makes and starts the next occurrence when its quarter comes', async () => {
    const manager = await createUser(backend.db, { role: 'manager' })
    const holder = await createUser(backend.db, { role: 'user', managerId: manager.id })
    const app = await createApplication(backend.db)
    await createRight(backend.db, { holder: holder.id, applicationId: app, campaignId: null })
    const admin = backend.client()
    await admin.auth.signInWithPassword({ email: 'admin@example.com', password: DEMO_PASSWORD })
    const name = `Revue trimestrielle ${manager.email}`
    const created = await admin
      .from('campaigns')
      .insert({ name, application_id: app, start_date: day(0), end_date: day(20), recurrence: 'quarterly', auto_start: true })
      .select('id, start_date')
      .single()
    if (created.error) throw created.error

    // Nobody clicked Démarrer: the pass starts it, and the same pass sends its start's messages.
    await runNotificationPass(settings(catcher.smtpUrl))
    const first = await admin.from('campaigns').select('status').eq('id', created.data.id).single()
    expect(first.data?.status).toBe('active')
    expect(caughtFor([holder.email, manager.email]).map((m) => m.subject)).toEqual(
      expect.arrayContaining([expect.stringContaining(`Campagne « ${name} » : 1 droit à revoir`)]),
    )

    // Three months later the next occurrence is made, named after its quarter, and started; a second pass adds none.
    // Three months on, as PostgreSQL adds them: on the last day of the month when that month is shorter (29 November
    // gives 28 February).
    const [year, month, dayOfMonth] = created.data.start_date.split('-').map(Number) as [number, number, number]
    const daysThen = new Date(Date.UTC(year, month + 3, 0)).getUTCDate()
    const nextStart = new Date(Date.UTC(year, month - 1 + 3, Math.min(dayOfMonth, daysThen)))
    await runNotificationPass(settings(catcher.smtpUrl), new Date(nextStart.getTime() + 10 * 3_600_000))
    await runNotificationPass(settings(catcher.smtpUrl), new Date(nextStart.getTime() + 11 * 3_600_000))
    const next = await admin.from('campaigns').select('name, status, start_date, recurrence').eq('previous_occurrence_id', created.data.id)
    if (next.error) throw next.error
    const quarter = Math.floor(nextStart.getUTCMonth() / 3) + 1
    expect(next.data).toEqual([
      { name: `${name} — T${quarter} ${nextStart.getUTCFullYear()}`, status: 'active', start_date: nextStart.toISOString().slice(0, 10), recurrence: 'quarterly' },
    ])
  })
})

describe('failures and concurrent runs', () => {
  it('loses nothing and sends nothing twice when the SMTP server refuses for most of an hour, then accepts', async () => {
    const campaign = await startCampaignFor([1, 1, 1])
    const people = [campaign.manager, ...campaign.holders]
    const flaky = await startFlakyServer()
    try {
      const now = Date.now()
      const down = await runNotificationPass(settings(flaky.url), new Date(now))
      expect(down.sent).toBe(0)
      expect(down.failed).toBeGreaterThanOrEqual(4)
      expect(flaky.refusals()).toBe(down.failed)
      const rows = await backend.db.query<{ status: string; attempts: number; last_error: string }>(
        `select status, attempts, last_error from public.notifications where campaign_id = $1`,
        [campaign.id],
      )
      expect(rows.rows).toHaveLength(4)
      for (const row of rows.rows) expect(row).toMatchObject({ status: 'queued', attempts: 1, last_error: expect.stringContaining('451') })

      // Within the backoff, a pass leaves them alone. The server stays down for the passes of the next quarter of an
      // hour, each try after a wait twice as long (5, then 10 minutes): still queued, none given up.
      expect((await runNotificationPass(settings(flaky.url), new Date(now + 60_000))).claimed).toBe(0)
      expect((await runNotificationPass(settings(flaky.url), new Date(now + 6 * 60_000))).failed).toBe(4)
      expect((await runNotificationPass(settings(flaky.url), new Date(now + 10 * 60_000))).claimed).toBe(0)
      expect((await runNotificationPass(settings(flaky.url), new Date(now + 17 * 60_000))).failed).toBe(4)
      expect(flaky.refusals()).toBe(12)
      const waiting = await backend.db.query<{ status: string; attempts: number }>(`select status, attempts from public.notifications where campaign_id = $1`, [campaign.id])
      expect(waiting.rows).toEqual(Array.from({ length: 4 }, () => ({ status: 'queued', attempts: 3 })))

      // Back within the hour: each is sent once, and later passes send nothing again.
      flaky.accept()
      expect((await runNotificationPass(settings(flaky.url), new Date(now + 60 * 60_000))).sent).toBe(4)
      await runNotificationPass(settings(flaky.url), new Date(now + 2 * 60 * 60_000))
      expect(Object.fromEntries(people.map((p) => [p, flaky.received.get(p)]))).toEqual(Object.fromEntries(people.map((p) => [p, 1])))
      const sent = await one<{ n: number }>(backend.db, `select count(*)::int as n from public.notifications where campaign_id = $1 and status = 'sent' and attempts = 4`, [campaign.id])
      expect(sent.n).toBe(4)
    } finally {
      await flaky.close()
    }
  })

  it('sends each message once when two passes run at once', async () => {
    const campaign = await startCampaignFor([1, 2, 1, 3, 1, 1])
    const people = [campaign.manager, ...campaign.holders]
    const [first, second] = await Promise.all([runNotificationPass(settings(catcher.smtpUrl)), runNotificationPass(settings(catcher.smtpUrl))])
    expect(first!.sent + second!.sent).toBeGreaterThanOrEqual(people.length)
    expect(caughtFor(people).map((m) => m.envelope.to[0]).sort()).toEqual([...people].sort())
    // No message was claimed by both: each was tried once, and sent.
    const rows = await backend.db.query<{ status: string; attempts: number }>(`select status, attempts from public.notifications where campaign_id = $1`, [campaign.id])
    expect(rows.rows).toEqual(Array.from({ length: people.length }, () => ({ status: 'sent', attempts: 1 })))
  })
})

describe('Envoyer maintenant', () => {
  const callSendNow = (token?: string) =>
    handleSendNow(new Request('http://localhost/.netlify/functions/notifications-send', { method: 'POST', headers: token ? { Authorization: `Bearer ${token}` } : {} }))

  let saved: Record<string, string | undefined>
  beforeAll(() => {
    const env = {
      SUPABASE_URL: backend.url,
      SUPABASE_ANON_KEY: backend.server.config.anonKey,
      SUPABASE_SERVICE_ROLE_KEY: backend.server.config.serviceRoleKey,
      SMTP_URL: catcher.smtpUrl,
      NOTIFICATIONS_FROM: 'Recertif <no-reply@recertif.example>',
      APP_URL,
    }
    saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]))
    Object.assign(process.env, env)
  })
  afterAll(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  })

  it('sends a given-up message again for an admin', async () => {
    const campaign = await startCampaignFor([1])
    // The pass that wrote the start's messages, whose every try then failed.
    await backend.db.query(`select public.run_notification_schedule()`)
    await backend.db.query(`update public.notifications set status = 'failed', attempts = 8 where campaign_id = $1`, [campaign.id])
    const response = await callSendNow(adminToken)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ requeued: 2, sent: 2, failed: 0 })
    expect(caughtFor([campaign.manager, ...campaign.holders])).toHaveLength(2)
  })

  it('refuses anyone but admin and rssi, and a caller without a session', async () => {
    const user = backend.client()
    const { data } = await user.auth.signInWithPassword({ email: 'manager@example.com', password: DEMO_PASSWORD })
    const refused = await callSendNow(data.session!.access_token)
    expect(refused.status).toBe(403)
    expect(((await refused.json()) as { error: string }).error).toMatch(/administrateurs/)
    expect((await callSendNow()).status).toBe(401)
  })
})
