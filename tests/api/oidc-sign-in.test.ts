// « Se connecter avec Microsoft »: the local backend's OAuth code flow with PKCE against a real OpenID provider in
// process (oidc-provider, certified), configured as Supabase's azure provider. supabase-js starts it and exchanges the
// code as the app does; the provider's login and consent pages are answered as a browser would post them. A person of
// the directory signs in; someone unknown or deactivated is refused with a French reason and gets no account.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import Provider from 'oidc-provider'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRestBackend, type RestBackend } from './support/rest'

const CLIENT = { id: 'recertif-local', secret: 'a-secret-for-tests-only' }

let backend: RestBackend
let opServer: Server
let opUrl: string
let callbackUrl: string

beforeAll(async () => {
  opServer = createServer()
  await new Promise<void>((resolve) => opServer.listen(0, '127.0.0.1', resolve))
  opUrl = `http://127.0.0.1:${(opServer.address() as AddressInfo).port}`
  process.env.AUTH_EXTERNAL_AZURE_URL = opUrl
  process.env.AUTH_EXTERNAL_AZURE_CLIENT_ID = CLIENT.id
  process.env.AUTH_EXTERNAL_AZURE_SECRET = CLIENT.secret
  backend = await startRestBackend()
  callbackUrl = `${backend.url}/auth/v1/callback`
  const provider = new Provider(opUrl, {
    clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [callbackUrl], token_endpoint_auth_method: 'client_secret_post' }],
    // The account id typed on the login page is the person's e-mail.
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, email: sub, email_verified: true, name: `Personne ${sub}` }) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    cookies: { keys: ['cookie-key-for-tests'] },
  })
  opServer.on('request', provider.callback())
})
afterAll(async () => {
  for (const name of ['URL', 'CLIENT_ID', 'SECRET']) delete process.env[`AUTH_EXTERNAL_AZURE_${name}`]
  await backend?.close()
  await new Promise((resolve) => opServer?.close(resolve))
})

function appClient(): SupabaseClient {
  const store = new Map<string, string>()
  return createClient(backend.url, backend.server.config.anonKey, {
    auth: {
      flowType: 'pkce',
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => void store.set(k, v), removeItem: (k) => void store.delete(k) },
    },
    realtime: { transport: WebSocket as never },
  })
}

/** Follows redirects as a browser, keeping the provider's cookies, and answers its login and consent pages as `email`. */
async function browse(start: string, email: string): Promise<URL> {
  const cookies = new Map<string, string>()
  let next = start
  let body: URLSearchParams | undefined
  for (let hop = 0; hop < 20; hop++) {
    const response = await fetch(next, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const [name, ...value] = pair!.split('=')
      cookies.set(name!.trim(), value.join('='))
    }
    body = undefined
    const location = response.headers.get('location')
    if (location) {
      const target = new URL(location, next)
      if (!target.href.startsWith(opUrl) && !target.href.startsWith(backend.url)) return target
      next = target.href
      continue
    }
    const page = await response.text()
    expect(response.status, page).toBe(200)
    // The provider's own pages: the login form, then the consent form, each posted back where it says.
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]
    expect(action, page).toBeTruthy()
    body = new URLSearchParams(/name="prompt" value="consent"/.test(page) ? { prompt: 'consent' } : { prompt: 'login', login: email, password: 'irrelevant' })
    next = new URL(action!, next).href
  }
  throw new Error('too many redirects')
}

async function signInWithMicrosoft(email: string) {
  const app = appClient()
  const { data, error } = await app.auth.signInWithOAuth({
    provider: 'azure',
    options: { redirectTo: `${backend.server.config.siteUrl}/auth/callback`, skipBrowserRedirect: true, scopes: 'email' },
  })
  if (error) throw error
  const back = await browse(data.url!, email)
  return { app, back }
}

/** POST /token?grant_type=pkce as any client could send it. */
const exchangeRaw = (code: string, verifier: string) =>
  fetch(`${backend.url}/auth/v1/token?grant_type=pkce`, {
    method: 'POST',
    headers: { apikey: backend.server.config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ auth_code: code, code_verifier: verifier }),
  })

describe('Se connecter avec Microsoft', () => {
  it('is announced by /settings once the azure provider is configured', async () => {
    const settings = await (await fetch(`${backend.url}/auth/v1/settings`, { headers: { apikey: backend.server.config.anonKey } })).json()
    expect(settings.external).toMatchObject({ azure: true, google: false })
  })

  it('signs in a person of the directory, whose account is matched by e-mail and linked to the provider', async () => {
    const { app, back } = await signInWithMicrosoft('manager@example.com')
    expect(back.pathname).toBe('/auth/callback')
    const code = back.searchParams.get('code')!
    const { data, error } = await app.auth.exchangeCodeForSession(code)
    expect(error).toBeNull()
    expect(data.user?.email).toBe('manager@example.com')
    expect(data.user?.id).toBe('00000000-0000-4000-a000-000000000002')
    expect(data.user?.app_metadata.providers).toEqual(expect.arrayContaining(['email', 'azure']))
    const me = await app.from('users').select('email, role').eq('id', data.user!.id).single()
    expect(me.data).toEqual({ email: 'manager@example.com', role: 'manager' })

    // The code is good once.
    const again = await exchangeRaw(code, 'x'.repeat(50))
    expect(again.status).toBe(404)
    expect((await again.json()).error_code).toBe('flow_state_not_found')
  })

  it('refuses a code presented with another verifier', async () => {
    const { back } = await signInWithMicrosoft('user@example.com')
    const response = await exchangeRaw(back.searchParams.get('code')!, 'x'.repeat(50))
    expect(response.status).toBe(400)
    expect((await response.json()).error_code).toBe('bad_code_verifier')
  })

  it('creates no account for someone the directory does not know, and says why in French', async () => {
    const { back } = await signInWithMicrosoft('inconnu@ailleurs.example')
    expect(back.searchParams.get('code')).toBeNull()
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('error_description')).toMatch(/Aucun compte Recertif n'existe pour inconnu@ailleurs.example/)
    const { rows } = await backend.db.query(`select id from auth.users where email = 'inconnu@ailleurs.example'`)
    expect(rows).toEqual([])
  })

  it('refuses a deactivated person', async () => {
    await backend.db.query(`update public.users set active = false where email = 'bpo@example.com'`)
    const { back } = await signInWithMicrosoft('bpo@example.com')
    expect(back.searchParams.get('error')).toBe('access_denied')
    expect(back.searchParams.get('error_description')).toMatch(/est désactivé/)
  })

  it('answers a callback without a flow of its own as Supabase Auth does', async () => {
    const missing = await fetch(`${backend.url}/auth/v1/callback?code=x`, { redirect: 'manual' })
    expect(missing.status).toBe(400)
    const unknown = await fetch(`${backend.url}/auth/v1/callback?code=x&state=forged`, { redirect: 'manual' })
    expect(unknown.status).toBe(400)
    expect((await unknown.json()).error_code).toBe('bad_oauth_state')
  })
})
