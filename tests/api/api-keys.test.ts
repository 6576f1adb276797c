// The new API keys and signing keys as hosted Supabase serves them, beside the legacy ones: a publishable key stands
// for anon and a secret key for service_role wherever a key goes (apikey header, bearer, WebSocket); user tokens are
// signed ES256 with a kid published in the JWKS, which the Netlify functions verify callers against; legacy HS256
// tokens still verify; a token signed by anyone else is refused everywhere.
import { randomUUID } from 'node:crypto'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { createRemoteJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import directorySync from '../../netlify/functions/directory-sync'
import { signAccessToken, signJwt, type Claims } from '../../supabase/local/keys'
import { demo } from '../db/support/actors'
import { DEMO_PASSWORD, startTestBackend, type TestBackend } from './support/server'

let backend: TestBackend
const saved = { ...process.env }
const options = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  realtime: { transport: WebSocket as never },
}

beforeAll(async () => {
  backend = await startTestBackend()
  process.env.SUPABASE_URL = backend.url
  process.env.SUPABASE_PUBLISHABLE_KEY = backend.server.config.publishableKey
  process.env.SUPABASE_SECRET_KEY = backend.server.config.secretKey
  delete process.env.SUPABASE_ANON_KEY
  delete process.env.SUPABASE_SERVICE_ROLE_KEY
})
afterAll(async () => {
  process.env = saved
  await backend.close()
})

const clientWith = (key: string): SupabaseClient => createClient(backend.url, key, options)
const keys = () => {
  const { publishableKey, secretKey, anonKey, serviceRoleKey } = backend.server.config
  return { publishable: publishableKey, secret: secretKey, anon: anonKey, service_role: serviceRoleKey }
}
const claimsOf = (who: keyof typeof demo): Claims => ({
  role: 'authenticated',
  sub: demo[who].id,
  email: demo[who].email,
  aud: 'authenticated',
  aal: 'aal2',
  amr: [{ method: 'totp', timestamp: Math.floor(Date.now() / 1000) }],
})

/** An ES256 token with the server's kid, signed by a key that is not the server's. */
async function forgedToken(claims: Claims): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true })
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: backend.server.config.signingKey.kid }
  return signAccessToken(claims, 3600, jwk)
}

const countUsers = async (client: SupabaseClient) => {
  const { count, error } = await client.from('users').select('id', { count: 'exact' })
  return error ? error.code : count
}

describe('API keys', () => {
  it('the publishable key acts as anon and the secret key as service_role, like the legacy keys', async () => {
    const { publishable, secret, anon, service_role } = keys()
    expect(publishable).toMatch(/^sb_publishable_/)
    expect(secret).toMatch(/^sb_secret_/)
    const total = await countUsers(clientWith(service_role))
    expect(total).toBeGreaterThan(5)
    expect(await countUsers(clientWith(secret))).toBe(total)
    // The anonymous role may not read people at all.
    expect(await countUsers(clientWith(anon))).toBe('42501')
    expect(await countUsers(clientWith(publishable))).toBe('42501')
    const listed = await clientWith(secret).auth.admin.listUsers()
    expect(listed.error).toBeNull()
    expect(listed.data.users.length).toBeGreaterThan(5)
    expect((await clientWith(publishable).auth.admin.listUsers()).error).toMatchObject({ status: 403 })
  })

  it('a person signs in with either kind of key and reads as themselves', async () => {
    for (const key of [keys().publishable, keys().anon]) {
      const client = clientWith(key)
      const { error } = await client.auth.signInWithPassword({ email: 'user@example.com', password: DEMO_PASSWORD })
      expect(error).toBeNull()
      const { data } = await client.from('users').select('email').eq('id', demo.user.id)
      expect(data).toEqual([{ email: 'user@example.com' }])
    }
  })

  it('a key in the Authorization header stands for its role only when it is one of the project keys', async () => {
    const rest = (bearer: string) =>
      fetch(`${backend.url}/rest/v1/users?select=id`, { headers: { apikey: keys().publishable, Authorization: `Bearer ${bearer}` } })
    expect(await (await rest(keys().publishable)).json()).toMatchObject({ code: '42501' })
    expect(((await (await rest(keys().secret)).json()) as unknown[]).length).toBeGreaterThan(5)
    const forged = await rest('sb_secret_not-this-project')
    expect(forged.status).toBe(401)
    expect(await fetch(`${backend.url}/rest/v1/users`, { headers: { apikey: 'sb_publishable_not-this-project' } })).toHaveProperty('status', 401)
  })

  it('realtime admits a connection with the publishable key', async () => {
    const client = clientWith(keys().publishable)
    const status = await new Promise<string>((resolve) => {
      client.channel(`keys-${randomUUID()}`).subscribe((state) => {
        if (state !== 'CLOSED') resolve(state)
      })
    })
    expect(status).toBe('SUBSCRIBED')
    await client.removeAllChannels()
  })
})

describe('signing keys', () => {
  it('serves the JWKS without an API key: the public ES256 key with its kid, no private part', async () => {
    const response = await fetch(`${backend.url}/auth/v1/.well-known/jwks.json`)
    expect(response.status).toBe(200)
    const { keys: published } = (await response.json()) as { keys: JWK[] }
    expect(published).toHaveLength(1)
    expect(published[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', kid: backend.server.config.signingKey.kid })
    expect(published[0]).not.toHaveProperty('d')
  })

  it('signs access tokens ES256 with the kid, verifiable through the JWKS alone, and getClaims() accepts them', async () => {
    const client = clientWith(keys().publishable)
    const { data } = await client.auth.signInWithPassword({ email: 'user@example.com', password: DEMO_PASSWORD })
    const token = data.session!.access_token
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: backend.server.config.signingKey.kid })
    const jwks = createRemoteJWKSet(new URL(`${backend.url}/auth/v1/.well-known/jwks.json`))
    const { payload } = await jwtVerify(token, jwks)
    expect(payload).toMatchObject({ sub: demo.user.id, role: 'authenticated', aal: 'aal1' })
    const claims = await client.auth.getClaims()
    expect(claims.error).toBeNull()
    expect(claims.data?.claims.sub).toBe(demo.user.id)
  })

  it('still accepts a legacy HS256 token signed with the JWT secret, at the REST and auth APIs', async () => {
    const legacy = await signJwt(claimsOf('user'), 600, backend.server.config.jwtSecret)
    const headers = { apikey: keys().publishable, Authorization: `Bearer ${legacy}` }
    const rest = await fetch(`${backend.url}/rest/v1/users?select=email&id=eq.${demo.user.id}`, { headers })
    expect(await rest.json()).toEqual([{ email: 'user@example.com' }])
    expect((await fetch(`${backend.url}/auth/v1/user`, { headers })).status).toBe(200)
  })

  it('refuses a token signed by another key under the same kid, or an HS256 one under another secret', async () => {
    for (const token of [await forgedToken(claimsOf('admin')), await signJwt(claimsOf('admin'), 600, 'another-secret-of-at-least-thirty-two-chars')]) {
      const headers = { apikey: keys().publishable, Authorization: `Bearer ${token}` }
      const rest = await fetch(`${backend.url}/rest/v1/users?select=id`, { headers })
      expect(rest.status).toBe(401)
      expect(await rest.json()).toMatchObject({ code: 'PGRST301' })
      expect(await fetch(`${backend.url}/auth/v1/user`, { headers })).toHaveProperty('status', 403)
      expect((await clientWith(keys().publishable).auth.getClaims(token)).error).not.toBeNull()
    }
  })
})

describe('the functions verify their callers through the JWKS', () => {
  const invite = (token: string) =>
    directorySync(
      new Request('http://127.0.0.1:5173/.netlify/functions/directory-sync', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ action: 'invite', emails: ['user@example.com'] }),
      }),
    )

  it('accept an ES256 token and a legacy HS256 one, and act with the secret key', async () => {
    for (const token of [await signAccessToken(claimsOf('admin'), 600), await signJwt(claimsOf('admin'), 600, backend.server.config.jwtSecret)]) {
      const response = await invite(token)
      expect(response.status).toBe(200)
      expect(await response.json()).toMatchObject({ already: ['user@example.com'] })
    }
  })

  it("pass a verified person on to the database, which refuses what their role may not do", async () => {
    const response = await invite(await signAccessToken(claimsOf('user'), 600))
    expect(response.status).toBe(403)
  })

  it('refuse a forged token, an expired one and an API key before anything else', async () => {
    for (const token of [await forgedToken(claimsOf('admin')), await signAccessToken(claimsOf('admin'), -60), keys().secret, keys().service_role]) {
      const response = await invite(token)
      expect(response.status).toBe(401)
      expect(await response.json()).toEqual({ error: 'Vous devez être connecté.' })
    }
  })
})
