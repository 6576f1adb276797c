import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import WebSocket from 'ws'
import type { Database } from '../../supabase/local/database'
import { signJwt } from '../../supabase/local/keys'
import { DUMMY_HASH } from '../../supabase/local/auth/passwords'
import type { ServerConfig } from '../../supabase/local/context'
import { startLocalServer, type LocalServer } from '../../supabase/local/server'
import { freshDatabase } from '../support/database'
import { DEMO_PASSWORD } from './support/server'

const DEMO_ACCOUNTS = [
  'user@example.com',
  'manager@example.com',
  'bpo@example.com',
  'bpo.groupe@example.com',
  'ra@example.com',
  'admin@example.com',
  'rssi@example.com',
]

interface Backend {
  db: Database
  server: LocalServer
  client(): SupabaseClient
  /** A raw request to /auth/v1 with the anon key, as auth-js sends it unless told otherwise. */
  auth(path: string, init?: RequestInit & { apiVersion?: string | null }): Promise<Response>
  close(): Promise<void>
}

async function startBackend(config: Partial<ServerConfig> = {}): Promise<Backend> {
  const db = await freshDatabase()
  const server = await startLocalServer({ db, port: 0, config })
  return {
    db,
    server,
    client: () =>
      createClient(server.url, server.config.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        // Node 20 has no global WebSocket; supabase-js needs one to construct its realtime client.
        realtime: { transport: WebSocket as never },
      }),
    auth: (path, { apiVersion = '2024-01-01', headers, ...init } = {}) =>
      fetch(`${server.url}/auth/v1${path}`, {
        ...init,
        headers: {
          apikey: server.config.anonKey,
          'Content-Type': 'application/json',
          ...(apiVersion ? { 'X-Supabase-Api-Version': apiVersion } : {}),
          ...(headers as Record<string, string> | undefined),
        },
      }),
    close: async () => {
      await server.close()
      await db.close()
    },
  }
}

async function signIn(backend: Backend, email: string) {
  const client = backend.client()
  const { data, error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  if (error || !data.session) throw new Error(`sign-in of ${email} failed: ${error?.message}`)
  return { client, session: data.session }
}

// This file asks /token for well over 30 sessions within seconds, all from 127.0.0.1: GoTrue's limit per address on
// /token (auth-limits.test.ts) is off here, so that each test meets only the behaviour it is about.
const UNLIMITED_TOKENS: Partial<ServerConfig> = { authRateLimits: { tokenRefresh: 0 } }

let backend: Backend
beforeAll(async () => {
  backend = await startBackend(UNLIMITED_TOKENS)
})
afterAll(() => backend.close())

describe('password sign-in', () => {
  it.each(DEMO_ACCOUNTS)('signs in %s with supabase-js and issues a GoTrue session', async (email) => {
    const { data, error } = await backend.client().auth.signInWithPassword({ email, password: DEMO_PASSWORD })
    expect(error).toBeNull()
    const session = data.session!
    expect(session).toMatchObject({ token_type: 'bearer', expires_in: 3600 })
    expect(session.refresh_token).toEqual(expect.any(String))
    expect(data.user).toMatchObject({ email, aud: 'authenticated', role: 'authenticated', is_anonymous: false })
    expect(data.user?.identities?.[0]).toMatchObject({ provider: 'email', identity_data: { email } })

    const claims = decodeJwt(session.access_token)
    expect(claims).toMatchObject({
      iss: `${backend.server.url}/auth/v1`,
      sub: data.user!.id,
      aud: 'authenticated',
      email,
      phone: '',
      role: 'authenticated',
      aal: 'aal1',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: expect.any(String) },
      is_anonymous: false,
    })
    expect(claims.exp! - claims.iat!).toBe(3600)
    expect(session.expires_at).toBe(claims.exp)
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }])

    const { rows } = await backend.db.query<{ sessions: number; tokens: number; signed_in: boolean }>(
      `select (select count(*)::int from auth.sessions where id = $1) as sessions,
              (select count(*)::int from auth.refresh_tokens where session_id = $1 and token = $2 and not revoked) as tokens,
              (select last_sign_in_at > now() - interval '1 minute' from auth.users where id = $3) as signed_in`,
      [claims.session_id, session.refresh_token, claims.sub],
    )
    expect(rows[0]).toEqual({ sessions: 1, tokens: 1, signed_in: true })
  })

  it('matches the e-mail case-insensitively', async () => {
    const { data, error } = await backend.client().auth.signInWithPassword({ email: 'Admin@Example.COM', password: DEMO_PASSWORD })
    expect(error).toBeNull()
    expect(data.user?.email).toBe('admin@example.com')
  })

  it('refuses a wrong password or an unknown e-mail with invalid_credentials', async () => {
    for (const email of ['user@example.com', 'nobody@example.com']) {
      const { data, error } = await backend.client().auth.signInWithPassword({ email, password: 'wrong-password' })
      expect(data.session).toBeNull()
      expect(error).toMatchObject({ name: 'AuthApiError', status: 400, code: 'invalid_credentials', message: 'Invalid login credentials' })
    }
  })

  it('rejects a sign-in with neither e-mail nor phone with validation_failed', async () => {
    const response = await backend.auth('/token?grant_type=password', { method: 'POST', body: JSON.stringify({ password: 'x' }) })
    expect(response.status).toBe(400)
    expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01')
    expect(await response.json()).toEqual({ code: 'validation_failed', message: 'missing email or phone' })

    const { error } = await backend.client().auth.signInWithPassword({ email: '', password: 'x' })
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' })
  })

  it('answers clients without the API version header in the initial error format', async () => {
    const response = await backend.auth('/token?grant_type=password', {
      method: 'POST',
      apiVersion: null,
      body: JSON.stringify({ email: 'user@example.com', password: 'nope' }),
    })
    expect(response.headers.get('x-supabase-api-version')).toBeNull()
    expect(await response.json()).toEqual({ code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' })
  })

  it('refuses malformed bodies and unknown grants', async () => {
    const broken = await backend.auth('/token?grant_type=password', { method: 'POST', body: '{"email":' })
    expect(broken.status).toBe(400)
    expect(await broken.json()).toMatchObject({ code: 'bad_json' })
    const wrongType = await backend.auth('/token?grant_type=password', { method: 'POST', body: '{"email":42,"password":"x"}' })
    expect(await wrongType.json()).toMatchObject({ code: 'bad_json' })
    const grant = await backend.auth('/token?grant_type=magic', { method: 'POST', body: '{}' })
    expect(grant.status).toBe(400)
    expect(await grant.json()).toEqual({ code: 'invalid_credentials', message: 'unsupported_grant_type' })
  })

  it('refuses banned, deleted and unconfirmed accounts', async () => {
    const insert = `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
        raw_app_meta_data, raw_user_meta_data, created_at, updated_at, banned_until, deleted_at,
        confirmation_token, recovery_token, email_change_token_new, email_change)
      values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1,
        extensions.crypt($2, extensions.gen_salt('bf', 4)), $3, '{"provider":"email","providers":["email"]}', '{}',
        now(), now(), $4, $5, '', '', '', '')`
    await backend.db.query(insert, ['banned@example.org', DEMO_PASSWORD, new Date(), new Date(Date.now() + 86_400_000), null])
    await backend.db.query(insert, ['deleted@example.org', DEMO_PASSWORD, new Date(), null, new Date()])
    await backend.db.query(insert, ['unconfirmed@example.org', DEMO_PASSWORD, null, null, null])
    const attempt = (email: string) => backend.client().auth.signInWithPassword({ email, password: DEMO_PASSWORD })

    expect((await attempt('banned@example.org')).error).toMatchObject({ status: 400, code: 'user_banned', message: 'User is banned' })
    expect((await attempt('deleted@example.org')).error).toMatchObject({ status: 400, code: 'invalid_credentials' })
    expect((await attempt('unconfirmed@example.org')).error).toMatchObject({ status: 400, code: 'email_not_confirmed' })
  })

  it('accepts $2b$ bcrypt hashes, as written by other bcrypt libraries', async () => {
    await backend.db.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data,
          raw_user_meta_data, created_at, updated_at, confirmation_token, recovery_token, email_change_token_new, email_change)
        values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', 'imported@example.org',
          '$2b$' || substr(extensions.crypt($1, extensions.gen_salt('bf', 4)), 5), now(), '{}', '{}', now(), now(), '', '', '', '')`,
      [DEMO_PASSWORD],
    )
    const client = backend.client()
    expect((await client.auth.signInWithPassword({ email: 'imported@example.org', password: DEMO_PASSWORD })).error).toBeNull()
    expect((await client.auth.signInWithPassword({ email: 'imported@example.org', password: 'Demo1234?' })).error?.code).toBe('invalid_credentials')
  })
})

describe('failed sign-in rate limiting', () => {
  let limited: Backend
  beforeAll(async () => {
    limited = await startBackend({ ...UNLIMITED_TOKENS, signInMaxFailures: 3, signInMaxFailuresPerIp: 5 })
  })
  afterAll(() => limited.close())

  it("answers GoTrue's 429 once an e-mail has failed too often, even to the right password", async () => {
    const client = limited.client()
    for (let i = 0; i < 3; i++) {
      const { error } = await client.auth.signInWithPassword({ email: 'manager@example.com', password: `guess-${i}` })
      expect(error?.code).toBe('invalid_credentials')
    }
    // The limiter must not become a password oracle.
    const blocked = await client.auth.signInWithPassword({ email: 'MANAGER@example.com', password: DEMO_PASSWORD })
    expect(blocked.error).toMatchObject({ status: 429, code: 'over_request_rate_limit', message: 'Request rate limit reached' })

    const other = await client.auth.signInWithPassword({ email: 'ra@example.com', password: DEMO_PASSWORD })
    expect(other.error).toBeNull()
  })

  it("answers GoTrue's 429 to an address that failed too often, whatever the e-mail and whatever X-Forwarded-For says", async () => {
    // Three failures on record from the test above, two more reach the address's limit of five.
    for (const email of ['made-up-1@example.com', 'made-up-2@example.com']) {
      const response = await limited.auth('/token?grant_type=password', { method: 'POST', body: JSON.stringify({ email, password: 'x' }) })
      expect(response.status).toBe(400)
    }
    const blocked = await limited.auth('/token?grant_type=password', {
      method: 'POST',
      apiVersion: null,
      headers: { 'X-Forwarded-For': '203.0.113.50', 'CF-Connecting-IP': '203.0.113.51' },
      body: JSON.stringify({ email: 'rssi@example.com', password: DEMO_PASSWORD }),
    })
    expect(blocked.status).toBe(429)
    expect(await blocked.json()).toEqual({ code: 429, error_code: 'over_request_rate_limit', msg: 'Request rate limit reached' })
  })
})

describe('what a sign-in reveals', () => {
  it('records the address the server saw on the session, not the forwarding headers the client sent', async () => {
    const response = await backend.auth('/token?grant_type=password', {
      method: 'POST',
      headers: { 'X-Forwarded-For': '203.0.113.66', 'CF-Connecting-IP': '203.0.113.77', 'X-Real-IP': '203.0.113.88' },
      body: JSON.stringify({ email: 'manager@example.com', password: DEMO_PASSWORD }),
    })
    expect(response.status).toBe(200)
    const { access_token: token } = (await response.json()) as { access_token: string }
    const { rows } = await backend.db.query<{ ip: string }>('select ip::text as ip from auth.sessions where id = $1', [decodeJwt(token).session_id])
    expect(rows).toEqual([{ ip: '127.0.0.1' }])
  })

  it('refuses an unknown e-mail after bcrypt work of the cost every stored password has', async () => {
    const { rows } = await backend.db.query<{ cost: string }>(
      `select distinct substr(encrypted_password, 5, 2) as cost from auth.users where encrypted_password like '$2_$%' and email like '%@example.com'`,
    )
    expect(rows).toEqual([{ cost: DUMMY_HASH.slice(4, 6) }])
  })
})

describe('refresh tokens', () => {
  it('rotates the refresh token and keeps the session', async () => {
    const { client, session } = await signIn(backend, 'bpo@example.com')
    const { data, error } = await client.auth.refreshSession()
    expect(error).toBeNull()
    const refreshed = data.session!
    expect(refreshed.refresh_token).not.toBe(session.refresh_token)
    expect(decodeJwt(refreshed.access_token).session_id).toBe(decodeJwt(session.access_token).session_id)

    const { rows } = await backend.db.query<{ token: string; revoked: boolean; parent: string | null }>(
      'select token, revoked, parent from auth.refresh_tokens where token in ($1, $2) order by id',
      [session.refresh_token, refreshed.refresh_token],
    )
    expect(rows).toEqual([
      { token: session.refresh_token, revoked: true, parent: null },
      { token: refreshed.refresh_token, revoked: false, parent: session.refresh_token },
    ])
    expect((await client.auth.getUser()).data.user?.email).toBe('bpo@example.com')
  })

  it('hands back the live token to a client that lost the last refresh answer', async () => {
    const { client, session } = await signIn(backend, 'bpo@example.com')
    const first = await client.auth.refreshSession({ refresh_token: session.refresh_token })
    const again = await client.auth.refreshSession({ refresh_token: session.refresh_token })
    expect(again.error).toBeNull()
    expect(again.data.session?.refresh_token).toBe(first.data.session?.refresh_token)
  })

  it('lets concurrent refreshes within the reuse interval through', async () => {
    const { client, session } = await signIn(backend, 'bpo@example.com')
    const b = await client.auth.refreshSession({ refresh_token: session.refresh_token })
    await client.auth.refreshSession({ refresh_token: b.data.session!.refresh_token })
    const sibling = await client.auth.refreshSession({ refresh_token: session.refresh_token })
    expect(sibling.error).toBeNull()
  })

  it('refuses unknown and missing refresh tokens', async () => {
    const unknown = await backend.client().auth.refreshSession({ refresh_token: 'not-a-token' })
    expect(unknown.error).toMatchObject({ status: 400, code: 'refresh_token_not_found', message: 'Invalid Refresh Token: Refresh Token Not Found' })
    const missing = await backend.auth('/token?grant_type=refresh_token', { method: 'POST', body: '{}' })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ error: 'invalid_request', error_description: 'refresh_token required' })
  })

  describe('reuse detection', () => {
    let strict: Backend
    beforeAll(async () => {
      strict = await startBackend({ ...UNLIMITED_TOKENS, refreshTokenReuseIntervalSeconds: 0 })
    })
    afterAll(() => strict.close())

    it('ends the session when a revoked token is replayed outside the reuse interval', async () => {
      const { client, session } = await signIn(strict, 'ra@example.com')
      const b = (await client.auth.refreshSession({ refresh_token: session.refresh_token })).data.session!
      const c = (await client.auth.refreshSession({ refresh_token: b.refresh_token })).data.session!

      const replay = await strict.client().auth.refreshSession({ refresh_token: session.refresh_token })
      expect(replay.error).toMatchObject({ status: 400, code: 'refresh_token_already_used', message: 'Invalid Refresh Token: Already Used' })

      // The whole session is gone: its live refresh token and its access tokens no longer work.
      const live = await strict.client().auth.refreshSession({ refresh_token: c.refresh_token })
      expect(live.error).toMatchObject({ code: 'refresh_token_not_found' })
      const user = await strict.client().auth.getUser(c.access_token)
      expect(user.error?.name).toBe('AuthSessionMissingError')
      const { rows } = await strict.db.query('select 1 from auth.sessions where id = $1', [decodeJwt(c.access_token).session_id])
      expect(rows).toHaveLength(0)
    })
  })
})

describe('GET /user', () => {
  it('returns the signed-in user', async () => {
    const { client, session } = await signIn(backend, 'rssi@example.com')
    const { data, error } = await client.auth.getUser()
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ id: decodeJwt(session.access_token).sub, email: 'rssi@example.com', role: 'authenticated' })
    expect(data.user?.last_sign_in_at).toEqual(expect.any(String))
  })

  it('answers 401 no_authorization without a token and 403 bad_jwt for a bad one', async () => {
    const none = await backend.auth('/user')
    expect(none.status).toBe(401)
    expect(await none.json()).toMatchObject({ code: 'no_authorization' })

    const forged = await signJwt({ role: 'authenticated', sub: '00000000-0000-4000-a000-000000000001' }, 3600, 'another-secret-of-at-least-thirty-two-chars')
    const expired = await signJwt({ role: 'authenticated', sub: '00000000-0000-4000-a000-000000000001' }, -60, backend.server.config.jwtSecret)
    for (const token of ['garbage', forged, expired, backend.server.config.anonKey]) {
      const response = await backend.auth('/user', { headers: { Authorization: `Bearer ${token}` } })
      expect(response.status).toBe(403)
      expect(await response.json()).toMatchObject({ code: 'bad_jwt' })
    }
  })
})

describe('sign-out', () => {
  async function twoSessions(email: string) {
    return [await signIn(backend, email), await signIn(backend, email)] as const
  }

  async function userStatus(accessToken: string) {
    const response = await backend.auth('/user', { headers: { Authorization: `Bearer ${accessToken}` } })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  it('global: ends every session of the user', async () => {
    const [first, second] = await twoSessions('manager@example.com')
    expect((await first.client.auth.signOut()).error).toBeNull()
    for (const { session } of [first, second]) {
      expect(await userStatus(session.access_token)).toMatchObject({ status: 403, body: { code: 'session_not_found' } })
      const { error } = await backend.client().auth.getUser(session.access_token)
      expect(error?.name).toBe('AuthSessionMissingError')
      // GoTrue deletes the session, and its refresh tokens with it (auth.refresh_tokens cascades).
      const refresh = await backend.client().auth.refreshSession({ refresh_token: session.refresh_token })
      expect(refresh.error).toMatchObject({ status: 400, code: 'refresh_token_not_found' })
    }
    expect((await first.client.auth.getSession()).data.session).toBeNull()
  })

  it('local: ends only the current session', async () => {
    const [first, second] = await twoSessions('bpo.groupe@example.com')
    expect((await first.client.auth.signOut({ scope: 'local' })).error).toBeNull()
    expect(await userStatus(first.session.access_token)).toMatchObject({ status: 403, body: { code: 'session_not_found' } })
    expect((await second.client.auth.getUser()).error).toBeNull()
  })

  it('others: ends every session but the current one', async () => {
    const [first, second] = await twoSessions('ra@example.com')
    expect((await first.client.auth.signOut({ scope: 'others' })).error).toBeNull()
    expect((await first.client.auth.getUser()).error).toBeNull()
    expect(await userStatus(second.session.access_token)).toMatchObject({ status: 403, body: { code: 'session_not_found' } })
  })

  it('refuses an unknown scope and an already ended session', async () => {
    const { session } = await signIn(backend, 'user@example.com')
    const headers = { Authorization: `Bearer ${session.access_token}` }
    const wrong = await backend.auth('/logout?scope=everyone', { method: 'POST', headers })
    expect(wrong.status).toBe(400)
    expect(await wrong.json()).toMatchObject({ code: 'validation_failed' })
    expect((await backend.auth('/logout?scope=local', { method: 'POST', headers })).status).toBe(204)
    const again = await backend.auth('/logout', { method: 'POST', headers })
    expect(again.status).toBe(403)
    expect(await again.json()).toMatchObject({ code: 'session_not_found' })
  })
})

describe('instance endpoints', () => {
  it('publishes the settings without an API key: e-mail only, sign-up disabled', async () => {
    const response = await fetch(`${backend.server.url}/auth/v1/settings`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      external: { email: true, google: false, phone: false, anonymous_users: false },
      disable_signup: true,
    })
  })

  it('answers health like GoTrue', async () => {
    const response = await fetch(`${backend.server.url}/auth/v1/health`)
    expect(await response.json()).toMatchObject({ name: 'GoTrue' })
  })

  it('refuses sign-up with signup_disabled', async () => {
    const { error } = await backend.client().auth.signUp({ email: 'new@example.com', password: 'Another1234!' })
    expect(error).toMatchObject({ status: 422, code: 'signup_disabled', message: 'Signups not allowed for this instance' })
  })

  it('answers /authorize for Google as GoTrue does for a provider that is not enabled', async () => {
    const { data } = await backend.client().auth.signInWithOAuth({
      provider: 'google',
      options: { redirectTo: 'http://127.0.0.1:5173/auth/callback', skipBrowserRedirect: true },
    })
    // The browser navigates there: no apikey header, no API version header.
    const response = await fetch(data.url!, { redirect: 'manual' })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      code: 400,
      error_code: 'validation_failed',
      msg: 'Unsupported provider: provider is not enabled',
    })
    const unknown = await fetch(`${backend.server.url}/auth/v1/authorize?provider=myspace`)
    expect(await unknown.json()).toMatchObject({ msg: 'Unsupported provider: Provider myspace could not be found' })
  })

  it('updates the signed-in user\'s metadata (the rest of PUT /user: conformance-auth.test.ts)', async () => {
    const { client } = await signIn(backend, 'user@example.com')
    const { data, error } = await client.auth.updateUser({ data: { nickname: 'J' } })
    expect(error).toBeNull()
    expect(data.user?.user_metadata).toMatchObject({ full_name: 'Julie Martin', nickname: 'J' })
  })

  it('answers unknown routes with a JSON 404', async () => {
    const response = await backend.auth('/nowhere')
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ code: 'not_found' })
  })
})
