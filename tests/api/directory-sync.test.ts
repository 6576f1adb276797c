// Leavers and invitations through the real local server and supabase-js: a deactivated person is refused at sign-in
// as GoTrue refuses a banned account, and the directory-sync function invites new people and bans leavers through the
// auth admin API with the service role, after the database has checked the caller.
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import directorySync, { type SyncOutcome } from '../../netlify/functions/directory-sync'
import { DEMO_PASSWORD, startTestBackend, type TestBackend } from './support/server'

let backend: TestBackend
const saved = { ...process.env }

beforeAll(async () => {
  backend = await startTestBackend()
  process.env.SUPABASE_URL = backend.url
  process.env.SUPABASE_ANON_KEY = backend.server.config.anonKey
  process.env.SUPABASE_SERVICE_ROLE_KEY = backend.server.config.serviceRoleKey
  process.env.URL = 'http://127.0.0.1:5173'
})
afterAll(async () => {
  process.env = saved
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
  it('imports as the caller, invites the new people and bans the leavers through the admin API', async () => {
    const newcomer = `arrivee.${randomUUID().slice(0, 8)}@example.org`
    const response = await callFunction(await tokenOf('admin@example.com'), {
      action: 'import_directory',
      rows: [{ line: 2, email: newcomer, first_name: 'Nina', last_name: 'Arrivée', manager_email: 'manager@example.com' }],
      complete: false,
    })
    expect(response.status).toBe(200)
    const outcome = (await response.json()) as SyncOutcome
    expect(outcome).toMatchObject({ invited: [], failures: [], report: { success: true, created: 1, invite: [newcomer] } })
    // The screen then sends the newcomers' invitations.
    const invitation = await callFunction(await tokenOf('admin@example.com'), { action: 'invite', emails: [newcomer] })
    expect(await invitation.json()).toMatchObject({ invited: [newcomer], failures: [] })
    const account = await backend.db.query<{ invited: boolean }>(`select invited_at is not null as invited from auth.users where email = $1`, [newcomer])
    expect(account.rows).toEqual([{ invited: true }])

    // Thomas signs in, then leaves: his account is banned, not only refused by the local directory check.
    await backend.serviceClient().auth.admin.createUser({ email: 'thomas.roux@example.com', password: DEMO_PASSWORD, email_confirm: true })
    const leaving = await callFunction(await tokenOf('rssi@example.com'), { action: 'set_active', user_id: await profileId('thomas.roux@example.com'), active: false })
    expect(await leaving.json()).toMatchObject({ banned: ['thomas.roux@example.com'], failures: [] })
    const banned = await backend.db.query<{ banned: boolean }>(`select banned_until > now() as banned from auth.users where email = 'thomas.roux@example.com'`)
    expect(banned.rows).toEqual([{ banned: true }])
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
