import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { describe, expect, it } from 'vitest'
import { authBackendWithMail } from './support/auth-mail'

// E-mailed links of the PKCE flow, as a hosted project serves them: a supabase-js client with flowType 'pkce' sends
// its code challenge with the request, the mailed link (followed as a browser would, without its redirect) comes
// back to the app with ?code= and no tokens, and exchangeCodeForSession trades the code and the kept verifier for a
// session. The code is good once, for five minutes, and only with its verifier.

const SITE = 'http://127.0.0.1:5173'
const PASSWORD = 'Secret123!'
const mailed = authBackendWithMail('pkce.example', { siteUrl: SITE, enableSignup: true })
const { address, advance } = mailed

/** The app's client: PKCE, its verifier kept in a storage the test can read. */
function pkceApp(): { app: SupabaseClient; verifier: () => string } {
  const store = new Map<string, string>()
  let lastVerifier: string | undefined
  const setItem = (key: string, value: string) => {
    store.set(key, value)
    if (key.endsWith('-code-verifier')) lastVerifier = value
  }
  const app = createClient(mailed.backend.url, mailed.backend.server.config.anonKey, {
    auth: {
      flowType: 'pkce',
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: { getItem: (k) => store.get(k) ?? null, setItem, removeItem: (k) => void store.delete(k) },
    },
    realtime: { transport: WebSocket as never },
  })
  // The last verifier the client stored, even if it dropped it since. A recovery's is "<verifier>/PASSWORD_RECOVERY".
  const verifier = () => {
    if (!lastVerifier) throw new Error('no code verifier stored')
    return (JSON.parse(lastVerifier) as string).split('/')[0]!
  }
  return { app, verifier }
}

function lastMail(to: string): { link: string; code: string } {
  const message = mailed.catcher
    .messages()
    .filter((m) => m.envelope.to.includes(to))
    .at(-1)
  if (!message) throw new Error(`no mail to ${to}`)
  const link = /(http:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(message.text)?.[1]
  const code = /code : (\d{6})/.exec(message.text)?.[1]
  if (!link || !code) throw new Error(`no link or code in: ${message.text}`)
  return { link, code }
}

/** Follows the mailed link as the browser would, and reads where it is sent back. */
async function follow(link: string): Promise<URL> {
  const response = await fetch(link, { redirect: 'manual' })
  expect(response.status).toBe(303)
  return new URL(response.headers.get('location')!)
}

function exchange(authCode: string, codeVerifier: string): Promise<Response> {
  return fetch(`${mailed.backend.url}/auth/v1/token?grant_type=pkce`, {
    method: 'POST',
    headers: { apikey: mailed.backend.server.config.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth_code: authCode, code_verifier: codeVerifier }),
  })
}

async function createAccount(email: string): Promise<void> {
  const { error } = await mailed.backend.service().auth.admin.createUser({ email, password: PASSWORD, email_confirm: true })
  if (error) throw error
}

/** A recovery link mailed to a new account through the PKCE client, followed: the code it brought back. */
async function recoveryCode(): Promise<{ email: string; app: SupabaseClient; verifier: string; code: string }> {
  const email = address('oubli')
  await createAccount(email)
  const { app, verifier } = pkceApp()
  expect((await app.auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/reinitialiser` })).error).toBeNull()
  const back = await follow(lastMail(email).link)
  return { email, app, verifier: verifier(), code: back.searchParams.get('code')! }
}

describe('links of the PKCE flow', () => {
  it('sends a recovery link back with a code, which the app exchanges for a recovery session', async () => {
    const email = address('recuperation')
    await createAccount(email)
    const { app } = pkceApp()
    const events: string[] = []
    app.auth.onAuthStateChange((event) => void events.push(event))
    expect((await app.auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/reinitialiser` })).error).toBeNull()
    const { link } = lastMail(email)
    expect(new URL(link).searchParams.get('token')).toMatch(/^pkce_[0-9a-f]{56,64}$/)

    const back = await follow(link)
    expect(back.origin + back.pathname).toBe(`${SITE}/reinitialiser`)
    expect(back.hash).toBe('')
    const code = back.searchParams.get('code')
    expect(code).toBeTruthy()

    const { data, error } = await app.auth.exchangeCodeForSession(code!)
    expect(error).toBeNull()
    expect(data.session?.user.email).toBe(email)
    expect(events).toContain('PASSWORD_RECOVERY')
    expect((await app.auth.updateUser({ password: 'Nouveau456!' })).error).toBeNull()
    const again = await mailed.backend.anon().auth.signInWithPassword({ email, password: 'Nouveau456!' })
    expect(again.error).toBeNull()
  })

  it('confirms a sign-up through its link and opens the new account’s session', async () => {
    const email = address('inscription')
    const { app } = pkceApp()
    const signUp = await app.auth.signUp({ email, password: PASSWORD, options: { emailRedirectTo: `${SITE}/bienvenue` } })
    expect(signUp.error).toBeNull()
    expect(signUp.data.session).toBeNull()

    const back = await follow(lastMail(email).link)
    expect(back.pathname).toBe('/bienvenue')
    const { data, error } = await app.auth.exchangeCodeForSession(back.searchParams.get('code')!)
    expect(error).toBeNull()
    expect(data.user?.email).toBe(email)
    expect(data.user?.email_confirmed_at).toBeTruthy()
  })

  it('signs in with a magic link', async () => {
    const email = address('lien-magique')
    await createAccount(email)
    const { app } = pkceApp()
    expect((await app.auth.signInWithOtp({ email, options: { shouldCreateUser: false, emailRedirectTo: `${SITE}/` } })).error).toBeNull()
    const back = await follow(lastMail(email).link)
    const { data, error } = await app.auth.exchangeCodeForSession(back.searchParams.get('code')!)
    expect(error).toBeNull()
    expect(data.user?.email).toBe(email)
    expect((await app.auth.getUser()).data.user?.email).toBe(email)
  })

  // supabase-js drops its verifier when updateUser saves the session it answers with: the code is exchanged here
  // with the verifier it sent, as an app keeping its own copy would.
  it('confirms an e-mail change through the new address’s link', async () => {
    const email = address('ancienne')
    const newEmail = address('nouvelle')
    await createAccount(email)
    const { app, verifier } = pkceApp()
    expect((await app.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
    expect((await app.auth.updateUser({ email: newEmail }, { emailRedirectTo: `${SITE}/profil` })).error).toBeNull()

    const back = await follow(lastMail(newEmail).link)
    expect(back.pathname).toBe('/profil')
    const response = await exchange(back.searchParams.get('code')!, verifier())
    expect(response.status).toBe(200)
    expect((await response.json()).user.email).toBe(newEmail)
  })

  it('asks for the other address’s link first when secure e-mail change is on, with the message in the query', async () => {
    const email = address('double-ancienne')
    const newEmail = address('double-nouvelle')
    await createAccount(email)
    const { app, verifier } = pkceApp()
    expect((await app.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull()
    mailed.backend.server.config.mailerSecureEmailChange = true
    try {
      expect((await app.auth.updateUser({ email: newEmail })).error).toBeNull()
      const first = await follow(lastMail(email).link)
      expect(first.searchParams.get('message')).toMatch(/^Confirmation link accepted/)
      expect(first.searchParams.get('code')).toBeNull()
      const second = await follow(lastMail(newEmail).link)
      const response = await exchange(second.searchParams.get('code')!, verifier())
      expect(response.status).toBe(200)
      expect((await response.json()).user.email).toBe(newEmail)
    } finally {
      mailed.backend.server.config.mailerSecureEmailChange = undefined
    }
  })

  it('takes the mailed token hash or six-digit code at POST /verify as well, for a session', async () => {
    const email = address('jeton')
    await createAccount(email)
    const { app } = pkceApp()
    expect((await app.auth.resetPasswordForEmail(email)).error).toBeNull()
    const hash = new URL(lastMail(email).link).searchParams.get('token')!
    const byHash = await mailed.backend.anon().auth.verifyOtp({ token_hash: hash, type: 'recovery' })
    expect(byHash.error).toBeNull()
    expect(byHash.data.user?.email).toBe(email)

    advance(60)
    expect((await app.auth.resetPasswordForEmail(email)).error).toBeNull()
    const byCode = await mailed.backend.anon().auth.verifyOtp({ email, token: lastMail(email).code, type: 'recovery' })
    expect(byCode.error).toBeNull()
    expect(byCode.data.user?.email).toBe(email)
  })
})

describe('refusals', () => {
  it('refuses a code presented a second time', async () => {
    const { code, verifier } = await recoveryCode()
    expect((await exchange(code, verifier)).status).toBe(200)
    const again = await exchange(code, verifier)
    expect(again.status).toBe(404)
    expect((await again.json()).error_code).toBe('flow_state_not_found')
  })

  it('refuses another verifier, and the code still works with its own', async () => {
    const { code, verifier } = await recoveryCode()
    const wrong = await exchange(code, 'x'.repeat(50))
    expect(wrong.status).toBe(400)
    expect((await wrong.json()).error_code).toBe('bad_code_verifier')
    expect((await exchange(code, verifier)).status).toBe(200)
  })

  it('refuses a code after five minutes', async () => {
    const { code, verifier } = await recoveryCode()
    advance(5 * 60 + 1)
    const late = await exchange(code, verifier)
    expect(late.status).toBe(422)
    expect((await late.json()).error_code).toBe('flow_state_expired')
  })

  it('sends a reused link back with the error in the query and the fragment', async () => {
    const email = address('deux-fois')
    await createAccount(email)
    const { app } = pkceApp()
    expect((await app.auth.resetPasswordForEmail(email)).error).toBeNull()
    const { link } = lastMail(email)
    expect((await follow(link)).searchParams.get('code')).toBeTruthy()
    const back = await follow(link)
    expect(back.searchParams.get('code')).toBeNull()
    expect(back.searchParams.get('error_code')).toBe('otp_expired')
    expect(new URLSearchParams(back.hash.slice(1)).get('error_code')).toBe('otp_expired')
  })

  it('refuses a malformed challenge as GoTrue does', async () => {
    const response = await fetch(`${mailed.backend.url}/auth/v1/recover`, {
      method: 'POST',
      headers: { apikey: mailed.backend.server.config.anonKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: address('defi'), code_challenge: 'trop-court', code_challenge_method: 's256' }),
    })
    expect(response.status).toBe(400)
    expect((await response.json()).error_code).toBe('validation_failed')
  })

  it('leaves links requested without a challenge implicit', async () => {
    const email = address('implicite')
    await createAccount(email)
    expect((await mailed.backend.anon().auth.resetPasswordForEmail(email)).error).toBeNull()
    const back = await follow(lastMail(email).link)
    expect(back.searchParams.get('code')).toBeNull()
    expect(new URLSearchParams(back.hash.slice(1)).get('access_token')).toBeTruthy()
  })
})
