// Leavers and invitations through the real local server and supabase-js: a deactivated person is refused at sign-in
// as GoTrue refuses a banned account; the directory-sync function bans leavers through the auth admin API with the
// service role, after the database has checked the caller, and queues invitations in the notification outbox, whose
// pass mails a link made by the admin API (generateLink) that signs the person in once, within 24 hours.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import directorySync, { type SyncOutcome } from '../../netlify/functions/directory-sync'
import { passSettingsFromEnv, runNotificationPass } from '../../netlify/functions/notifications/run'
import { startMailCatcher, type MailCatcher } from '../../supabase/local/mail/catcher'
import { DEMO_PASSWORD, startTestBackend, type TestBackend } from './support/server'

let backend: TestBackend
let catcher: MailCatcher
const saved = { ...process.env }

beforeAll(async () => {
  backend = await startTestBackend()
  catcher = await startMailCatcher({ smtpPort: 0, webPort: 0 })
  process.env.SUPABASE_URL = backend.url
  process.env.SUPABASE_ANON_KEY = backend.server.config.anonKey
  process.env.SUPABASE_SERVICE_ROLE_KEY = backend.server.config.serviceRoleKey
  process.env.URL = 'http://127.0.0.1:5173'
})
afterAll(async () => {
  process.env = saved
  await catcher?.close()
  await backend.close()
})

async function signIn(email: string, password = DEMO_PASSWORD) {
  const client = backend.client()
  const result = await client.auth.signInWithPassword({ email, password })
  return { client, ...result }
}

async function tokenOf(email: string): Promise<string> {
  const { data, error } = await signIn(email)
  if (error || !data.session) throw error ?? new Error('no session')
  return data.session.access_token
}

function callFunction(token: string, body: unknown): Promise<Response> {
  return directorySync(
    new Request('http://127.0.0.1:5173/.netlify/functions/directory-sync', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )
}

const profileId = async (email: string) =>
  (await backend.db.query<{ id: string }>(`select id::text as id from public.users where email = $1`, [email])).rows[0]!.id

describe('leavers', () => {
  it('a deactivated person cannot sign in, nor refresh an open session, until reactivated', async () => {
    const before = await signIn('emma.girard@example.com')
    // Emma has no auth account in the seed: give her one, as an invitation would.
    if (before.error) {
      await backend.serviceClient().auth.admin.createUser({ email: 'emma.girard@example.com', password: DEMO_PASSWORD, email_confirm: true })
    }
    const open = await signIn('emma.girard@example.com')
    expect(open.error).toBeNull()

    const admin = backend.client()
    await admin.auth.signInWithPassword({ email: 'admin@example.com', password: DEMO_PASSWORD })
    const deactivated = await admin.rpc('set_user_active', { p_user_id: await profileId('emma.girard@example.com'), p_active: false })
    expect(deactivated.error).toBeNull()

    const refused = await signIn('emma.girard@example.com')
    expect(refused.data.session).toBeNull()
    expect(refused.error).toMatchObject({ status: 400, code: 'user_banned', message: 'User is banned' })
    const refresh = await open.client.auth.refreshSession()
    expect(refresh.error).toMatchObject({ status: 400, code: 'user_banned' })

    await admin.rpc('set_user_active', { p_user_id: await profileId('emma.girard@example.com'), p_active: true })
    expect((await signIn('emma.girard@example.com')).error).toBeNull()
  })
})

describe('the directory-sync function', () => {
  it("imports as the caller, queues the new people's invitations and bans the leavers through the admin API", async () => {
    const newcomer = `arrivee.${randomUUID().slice(0, 8)}@example.org`
    const response = await callFunction(await tokenOf('admin@example.com'), {
      action: 'import_directory',
      rows: [{ line: 2, email: newcomer, first_name: 'Nina', last_name: 'Arrivée', manager_email: 'manager@example.com' }],
      complete: false,
    })
    expect(response.status).toBe(200)
    const outcome = (await response.json()) as SyncOutcome
    expect(outcome).toMatchObject({ invited: [], failures: [], report: { success: true, created: 1, invite: [newcomer] } })
    // The screen then asks for the newcomers' invitations: they wait in the outbox, no auth e-mail is sent.
    const invitation = await callFunction(await tokenOf('admin@example.com'), { action: 'invite', emails: [newcomer] })
    expect(await invitation.json()).toMatchObject({ invited: [newcomer], already: [], failures: [] })
    const queued = await backend.db.query(`select kind::text, status::text from public.notifications where recipient_email = $1`, [newcomer])
    expect(queued.rows).toEqual([{ kind: 'invitation', status: 'queued' }])

    // Thomas signs in, then leaves: his account is banned, not only refused by the local directory check.
    await backend.serviceClient().auth.admin.createUser({ email: 'thomas.roux@example.com', password: DEMO_PASSWORD, email_confirm: true })
    const leaving = await callFunction(await tokenOf('rssi@example.com'), { action: 'set_active', user_id: await profileId('thomas.roux@example.com'), active: false })
    expect(await leaving.json()).toMatchObject({ banned: ['thomas.roux@example.com'], failures: [] })
    const banned = await backend.db.query<{ banned: boolean }>(`select banned_until > now() as banned from auth.users where email = 'thomas.roux@example.com'`)
    expect(banned.rows).toEqual([{ banned: true }])
  })

  it('answers 400 in French to a body that is JSON but not an object, null included', async () => {
    for (const body of [null, 5, 'import_directory', ['import_directory']]) {
      const response = await callFunction('any-token', body)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ error: 'Le contenu de la requête doit être un objet JSON.' })
    }
  })

  it('refuses anyone but admin and rssi, with the database French message, and changes nothing', async () => {
    const stranger = `intrus.${randomUUID().slice(0, 8)}@example.org`
    const response = await callFunction(await tokenOf('manager@example.com'), {
      action: 'import_directory',
      rows: [{ line: 2, email: stranger, first_name: 'I', last_name: 'N' }],
    })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ error: "Seuls les administrateurs et le RSSI peuvent importer l'annuaire." })
    const invite = await callFunction(await tokenOf('user@example.com'), { action: 'invite', emails: ['lucas.bonnet@example.com'] })
    expect(invite.status).toBe(403)
    const found = await backend.db.query(`select 1 from auth.users where email = $1 union all select 1 from public.users where email = $1`, [stranger])
    expect(found.rows).toEqual([])
  })
})

describe('invitations through the outbox', () => {
  const SITE = 'http://127.0.0.1:5173'
  const pass = () => {
    const settings = passSettingsFromEnv({
      SUPABASE_URL: backend.url,
      SUPABASE_SERVICE_ROLE_KEY: backend.server.config.serviceRoleKey,
      SMTP_URL: catcher.smtpUrl,
      NOTIFICATIONS_FROM: 'Recertif <no-reply@recertif.example>',
      APP_URL: SITE,
    })
    if (!settings.ok) throw new Error(settings.problems.join('; '))
    return runNotificationPass(settings)
  }
  /** The link of the invitation mailed to this address, from the mail catcher. */
  const linkFor = (address: string) => {
    const mails = catcher.messages().filter((m) => m.envelope.to.includes(address))
    expect(mails.map((m) => m.subject)).toEqual(['Votre accès à Recertif : choisissez votre mot de passe'])
    const link = /Choisir mon mot de passe : (\S+)/.exec(mails[0]?.text ?? '')?.[1]
    if (!link) throw new Error(`no link in the mail to ${address}`)
    return link
  }
  /** Where following the link leads (GoTrue's /verify answers with a redirect). */
  const follow = async (link: string) => new URL((await fetch(link, { redirect: 'manual' })).headers.get('location') ?? '')
  const invite = async (address: string) => {
    const admin = await tokenOf('admin@example.com')
    await callFunction(admin, {
      action: 'import_directory',
      rows: [{ line: 2, email: address, first_name: 'Léa', last_name: 'Invitée' }],
      complete: false,
    })
    return (await (await callFunction(admin, { action: 'invite', emails: [address] })).json()) as SyncOutcome
  }

  it("mails a French invitation whose link, made with the admin API, signs the person in once and leads to /mot-de-passe", async () => {
    const address = `invitee.${randomUUID().slice(0, 8)}@example.org`
    expect(await invite(address)).toMatchObject({ invited: [address] })
    const report = await pass()
    expect(report.failed).toBe(0)
    const link = linkFor(address)

    const landing = await follow(link)
    expect(`${landing.origin}${landing.pathname}`).toBe(`${SITE}/mot-de-passe`)
    const session = new URLSearchParams(landing.hash.slice(1))
    expect(session.get('type')).toBe('invite')
    const client = backend.client()
    const set = await client.auth.setSession({ access_token: session.get('access_token') ?? '', refresh_token: session.get('refresh_token') ?? '' })
    expect(set.error).toBeNull()
    expect((await client.auth.updateUser({ password: 'Bienvenue2026!' })).error).toBeNull()
    expect((await backend.client().auth.signInWithPassword({ email: address, password: 'Bienvenue2026!' })).error).toBeNull()

    // Used once: the same link now leads to the page's French refusal (error_code otp_expired).
    expect(new URLSearchParams((await follow(link)).hash.slice(1)).get('error_code')).toBe('otp_expired')
    // With a password, the person needs no invitation any more.
    expect(await invite(address)).toMatchObject({ invited: [], already: [address] })
  })

  it('lets the link expire after 24 hours', async () => {
    const address = `late.${randomUUID().slice(0, 8)}@example.org`
    await invite(address)
    await pass()
    const link = linkFor(address)
    const { config } = backend.server
    config.now = () => new Date(Date.now() + 25 * 3_600_000)
    try {
      const landing = await follow(link)
      expect(`${landing.origin}${landing.pathname}`).toBe(`${SITE}/mot-de-passe`)
      expect(new URLSearchParams(landing.hash.slice(1)).get('error_code')).toBe('otp_expired')
    } finally {
      delete config.now
    }
  })
})
