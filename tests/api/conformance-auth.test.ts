import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { SupabaseClient } from '@supabase/supabase-js'
import type { CaughtMessage } from '../../supabase/local/mail/message'
import { DEMO_PASSWORD } from './support/server'
import { authBackendWithMail } from './support/auth-mail'

// GoTrue's documented behaviour for sign-up, e-mailed links and codes, the signed-in user's updates and the admin
// API, checked through supabase-js where it has a method and raw requests elsewhere. Mail is read from a real
// mail catcher, as a person would read their inbox. The auth API's clock is this file's, so links expire without
// waiting.

const SITE = 'http://127.0.0.1:5173'
const mailed = authBackendWithMail('client.example', { siteUrl: SITE })
const { address, advance } = mailed

/** Turns sign-up on for the duration of fn, as the server's configuration switch does. */
async function withSignup<T>(fn: () => Promise<T>): Promise<T> {
  mailed.backend.server.config.enableSignup = true
  try {
    return await fn()
  } finally {
    mailed.backend.server.config.enableSignup = false
  }
}

const mailsTo = (to: string): CaughtMessage[] => mailed.catcher.messages().filter((message) => message.envelope.to.includes(to))

function lastMail(to: string): { message: CaughtMessage; link: string; code: string } {
  const message = mailsTo(to).at(-1)
  if (!message) throw new Error(`no mail to ${to}`)
  const link = /(http:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(message.text)?.[1]
  const code = /code : (\d{6})/.exec(message.text)?.[1]
  if (!link || !code) throw new Error(`no link or code in: ${message.text}`)
  return { message, link, code }
}

/** Follows an e-mailed link as a browser would, without an API key, and reads where it sends the person. */
async function follow(link: string): Promise<{ status: number; location: URL; fragment: URLSearchParams }> {
  const response = await fetch(link, { redirect: 'manual' })
  const location = new URL(response.headers.get('location') ?? '')
  return { status: response.status, location, fragment: new URLSearchParams(location.hash.slice(1)) }
}

function auth(path: string, init: RequestInit & { bearer?: string } = {}): Promise<Response> {
  const { bearer, ...rest } = init
  return fetch(`${mailed.backend.url}/auth/v1${path}`, {
    ...rest,
    headers: {
      apikey: mailed.backend.server.config.anonKey,
      'Content-Type': 'application/json',
      'X-Supabase-Api-Version': '2024-01-01',
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
  })
}

async function signIn(email: string, password: string): Promise<{ client: SupabaseClient; error: unknown }> {
  const client = mailed.backend.anon()
  const { error } = await client.auth.signInWithPassword({ email, password })
  return { client, error }
}

async function profileCount(email: string): Promise<number> {
  const { rows } = await mailed.backend.db.query<{ n: number }>('select count(*)::int as n from public.users where lower(email) = lower($1)', [email])
  return rows[0]!.n
}

describe('sign-up', () => {
  it('is off by default, as in production: 422 signup_disabled, and /settings says so', async () => {
    const email = address('ferme')
    const { data, error } = await mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' })
    expect(error).toMatchObject({ status: 422, code: 'signup_disabled', message: 'Signups not allowed for this instance' })
    expect(data.user).toBeNull()
    const settings = (await (await fetch(`${mailed.backend.url}/auth/v1/settings`)).json()) as Record<string, unknown>
    expect(settings.disable_signup).toBe(true)
    expect(mailsTo(email)).toEqual([])
  })

  it('when switched on, creates an unconfirmed account, mails a confirmation and refuses sign-in until confirmed', async () => {
    const email = address('inscrit')
    const { data, error } = await withSignup(() =>
      mailed.backend.anon().auth.signUp({ email, password: 'Secret123!', options: { data: { full_name: 'Élodie Durand' } } }),
    )
    expect(error).toBeNull()
    expect(data.session).toBeNull()
    expect(data.user).toMatchObject({ email, user_metadata: { full_name: 'Élodie Durand' }, confirmation_sent_at: mailed.now.toISOString() })
    expect(data.user?.email_confirmed_at).toBeUndefined()
    const { message, link } = lastMail(email)
    expect(message.subject).toBe('Confirmez votre adresse e-mail')
    expect(new URL(link).searchParams.get('type')).toBe('signup')
    const { error: signInError } = await signIn(email, 'Secret123!')
    expect(signInError).toMatchObject({ status: 400, code: 'email_not_confirmed' })
  })

  it('confirms the account when the e-mailed link is followed: 303 to the site with a session in the fragment', async () => {
    const email = address('confirme')
    await withSignup(() => mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' }))
    const followed = await follow(lastMail(email).link)
    expect(followed.status).toBe(303)
    expect(followed.location.origin + followed.location.pathname).toBe(`${SITE}/`)
    expect(followed.fragment.get('type')).toBe('signup')
    expect(followed.fragment.get('token_type')).toBe('bearer')
    const { data } = await mailed.backend.anon().auth.getUser(followed.fragment.get('access_token')!)
    expect(data.user).toMatchObject({ email })
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String))
    expect((await signIn(email, 'Secret123!')).error).toBeNull()
  })

  it('answers a link followed twice with otp_expired in the fragment: a link works once', async () => {
    const email = address('deuxfois')
    await withSignup(() => mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' }))
    const { link } = lastMail(email)
    expect((await follow(link)).fragment.get('access_token')).toBeTruthy()
    const again = await follow(link)
    expect(again.status).toBe(303)
    expect(Object.fromEntries(again.fragment)).toEqual({
      error: 'access_denied',
      error_code: 'otp_expired',
      error_description: 'Email link is invalid or has expired',
    })
  })

  it('refuses a password under 6 characters with 422 weak_password and its reasons', async () => {
    const { error } = await withSignup(() => mailed.backend.anon().auth.signUp({ email: address('faible'), password: 'abc' }))
    expect(error).toMatchObject({ status: 422, code: 'weak_password', reasons: ['length'] })
  })

  it('refuses a malformed address with 400 validation_failed', async () => {
    const { error } = await withSignup(() => mailed.backend.anon().auth.signUp({ email: 'pas-une-adresse', password: 'Secret123!' }))
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Unable to validate email address: invalid format' })
  })

  it('does not reveal a registered address: a look-alike user without identities, and no mail', async () => {
    const before = mailsTo('user@example.com').length
    const { data, error } = await withSignup(() => mailed.backend.anon().auth.signUp({ email: 'user@example.com', password: 'Autre123!' }))
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email: 'user@example.com', identities: [] })
    expect(data.user?.id).not.toBe('00000000-0000-4000-a000-000000000001')
    expect(mailsTo('user@example.com')).toHaveLength(before)
    expect((await signIn('user@example.com', DEMO_PASSWORD)).error).toBeNull()
  })

  it('sends links back only to the site: a foreign redirect_to becomes the site URL', async () => {
    const email = address('redirige')
    await withSignup(() => mailed.backend.anon().auth.signUp({ email, password: 'Secret123!', options: { emailRedirectTo: 'https://pirate.example/vol' } }))
    expect(new URL(lastMail(email).link).searchParams.get('redirect_to')).toBe(SITE)
    const allowed = address('redirige')
    await withSignup(() => mailed.backend.anon().auth.signUp({ email: allowed, password: 'Secret123!', options: { emailRedirectTo: `${SITE}/bienvenue` } }))
    expect((await follow(lastMail(allowed).link)).location.pathname).toBe('/bienvenue')
  })

  it('creates no public.users profile: a directory profile is linked only at first sign-in, by the app', async () => {
    const email = address('sansprofil')
    await withSignup(() => mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' }))
    await follow(lastMail(email).link)
    expect(await profileCount(email)).toBe(0)
  })
})

describe('verify', () => {
  it('confirms with the address and the six-digit code (verifyOtp type email) and opens a session', async () => {
    const email = address('code')
    await withSignup(() => mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' }))
    const { data, error } = await mailed.backend.anon().auth.verifyOtp({ email, token: lastMail(email).code, type: 'email' })
    expect(error).toBeNull()
    expect(data.session?.access_token).toEqual(expect.any(String))
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String))
  })

  it('stores only the token hash, the SHA-256 of the address and the code, never the code', async () => {
    const email = address('hache')
    await withSignup(() => mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' }))
    const { code, link } = lastMail(email)
    const { rows } = await mailed.backend.db.query<{ token: string }>('select confirmation_token as token from auth.users where email = $1', [email])
    const expected = createHash('sha256').update(email + code).digest('hex')
    expect(rows[0]!.token).toBe(expected)
    expect(new URL(link).searchParams.get('token')).toBe(expected)
  })

  it('refuses a link past the hour a Supabase project gives it (otp_expiry) with 403 otp_expired, and never honours it again', async () => {
    const email = address('expire')
    await withSignup(() => mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' }))
    const { link } = lastMail(email)
    const tokenHash = new URL(link).searchParams.get('token')!
    advance(3600 + 1)
    const { error } = await mailed.backend.anon().auth.verifyOtp({ token_hash: tokenHash, type: 'signup' })
    expect(error).toMatchObject({ status: 403, code: 'otp_expired', message: 'Token has expired or is invalid' })
    advance(-(3600 + 1))
    const { error: again } = await mailed.backend.anon().auth.verifyOtp({ token_hash: tokenHash, type: 'signup' })
    expect(again).toMatchObject({ status: 403, code: 'otp_expired' })
  })

  it('honours a configured lifetime for links (GoTrue\'s mailer OTP expiry)', async () => {
    const email = address('court')
    await withSignup(() => mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' }))
    mailed.backend.server.config.mailerOtpExpSeconds = 60
    try {
      advance(61)
      const { error } = await mailed.backend.anon().auth.verifyOtp({ email, token: lastMail(email).code, type: 'signup' })
      expect(error).toMatchObject({ status: 403, code: 'otp_expired' })
    } finally {
      mailed.backend.server.config.mailerOtpExpSeconds = undefined
    }
  })

  it('opens no session for a banned account: the link answers user_banned and is spent', async () => {
    const email = address('banni')
    const admin = mailed.backend.service().auth.admin
    const { data } = await admin.createUser({ email, password: 'Secret123!', email_confirm: true })
    await admin.updateUserById(data.user!.id, { ban_duration: '1h' })
    expect((await mailed.backend.anon().auth.signInWithOtp({ email })).error).toBeNull()
    const { link } = lastMail(email)
    expect(Object.fromEntries((await follow(link)).fragment)).toEqual({
      error: 'access_denied',
      error_code: 'user_banned',
      error_description: 'User is banned',
    })
    await admin.updateUserById(data.user!.id, { ban_duration: 'none' })
    expect((await follow(link)).fragment.get('error_code')).toBe('otp_expired')
  })

  it('refuses a wrong code with 403 otp_expired', async () => {
    const email = address('fauxcode')
    await withSignup(() => mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' }))
    const wrong = lastMail(email).code === '000000' ? '111111' : '000000'
    const { error } = await mailed.backend.anon().auth.verifyOtp({ email, token: wrong, type: 'signup' })
    expect(error).toMatchObject({ status: 403, code: 'otp_expired' })
  })

  it('refuses a missing or unknown verification type with 400 validation_failed', async () => {
    for (const body of [{ token_hash: 'abc' }, { token_hash: 'abc', type: 'sms_login' }]) {
      const response = await auth('/verify', { method: 'POST', body: JSON.stringify(body) })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'validation_failed' })
    }
  })
})

describe('password recovery', () => {
  it('mails a recovery link whose session may set a new password', async () => {
    const email = address('oubli')
    await mailed.backend.service().auth.admin.createUser({ email, password: 'Ancien123!', email_confirm: true })
    const { error } = await mailed.backend.anon().auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/nouveau-mot-de-passe` })
    expect(error).toBeNull()
    const { message, link } = lastMail(email)
    expect(message.subject).toBe('Réinitialisez votre mot de passe')
    const client = mailed.backend.anon()
    const { data, error: verifyError } = await client.auth.verifyOtp({ token_hash: new URL(link).searchParams.get('token')!, type: 'recovery' })
    expect(verifyError).toBeNull()
    expect(data.session).not.toBeNull()
    expect((await client.auth.updateUser({ password: 'Nouveau123!' })).error).toBeNull()
    expect((await signIn(email, 'Ancien123!')).error).toMatchObject({ code: 'invalid_credentials' })
    expect((await signIn(email, 'Nouveau123!')).error).toBeNull()
  })

  it('answers an unknown address as a known one, and sends nothing', async () => {
    const email = address('inconnu')
    const { data, error } = await mailed.backend.anon().auth.resetPasswordForEmail(email)
    expect(error).toBeNull()
    expect(data).toEqual({})
    expect(mailsTo(email)).toEqual([])
  })

  it('sends one e-mail of a kind per minute: 429 over_email_send_rate_limit, then again after 60 s', async () => {
    const email = address('insistant')
    await mailed.backend.service().auth.admin.createUser({ email, password: 'Secret123!', email_confirm: true })
    expect((await mailed.backend.anon().auth.resetPasswordForEmail(email)).error).toBeNull()
    const { error } = await mailed.backend.anon().auth.resetPasswordForEmail(email)
    expect(error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' })
    expect(mailsTo(email)).toHaveLength(1)
    advance(61)
    expect((await mailed.backend.anon().auth.resetPasswordForEmail(email)).error).toBeNull()
    expect(mailsTo(email)).toHaveLength(2)
  })

  it('takes the interval between two e-mails from the mail frequency setting (GoTrue: SMTP max_frequency)', async () => {
    const email = address('frequence')
    await mailed.backend.service().auth.admin.createUser({ email, password: 'Secret123!', email_confirm: true })
    mailed.backend.server.config.mailerMaxFrequencySeconds = 5
    try {
      expect((await mailed.backend.anon().auth.resetPasswordForEmail(email)).error).toBeNull()
      expect((await mailed.backend.anon().auth.resetPasswordForEmail(email)).error).toMatchObject({ status: 429, message: /after 5 seconds/ })
      advance(6)
      expect((await mailed.backend.anon().auth.resetPasswordForEmail(email)).error).toBeNull()
      expect(mailsTo(email)).toHaveLength(2)
    } finally {
      mailed.backend.server.config.mailerMaxFrequencySeconds = undefined
    }
  })
})

describe('e-mail validation', () => {
  it('refuses a malformed address at the admin API, invitations and generated links, in GoTrue\'s words, and creates nobody', async () => {
    const admin = mailed.backend.service().auth.admin
    const malformed = 'xx:;x@x.x'
    const answers = [
      await admin.createUser({ email: malformed, password: 'Secret123!' }),
      await admin.inviteUserByEmail(malformed),
      await admin.generateLink({ type: 'magiclink', email: malformed }),
    ]
    for (const { error } of answers) {
      expect(error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Unable to validate email address: invalid format' })
    }
    expect((await mailed.backend.db.query('select 1 from auth.users where email = $1', [malformed])).rows).toHaveLength(0)
    expect((await admin.createUser({ email: address('valide'), password: 'Secret123!' })).error).toBeNull()
  })
})

describe('magic link and code (/otp)', () => {
  it('mails a magic link and code to an existing account; the code opens a session', async () => {
    const { error } = await mailed.backend.anon().auth.signInWithOtp({ email: 'manager@example.com' })
    expect(error).toBeNull()
    const { message, code, link } = lastMail('manager@example.com')
    expect(message.subject).toBe('Votre lien de connexion')
    expect(new URL(link).searchParams.get('type')).toBe('magiclink')
    const { data, error: verifyError } = await mailed.backend.anon().auth.verifyOtp({ email: 'manager@example.com', token: code, type: 'email' })
    expect(verifyError).toBeNull()
    expect(data.user?.id).toBe('00000000-0000-4000-a000-000000000002')
  })

  it('refuses an unknown address when create_user is false with 422 otp_disabled', async () => {
    const email = address('pasdecompte')
    const { error } = await mailed.backend.anon().auth.signInWithOtp({ email, options: { shouldCreateUser: false } })
    expect(error).toMatchObject({ status: 422, code: 'otp_disabled', message: 'Signups not allowed for otp' })
    expect(mailsTo(email)).toEqual([])
  })

  it('creates no account for an unknown address while sign-up is off: 422 signup_disabled', async () => {
    const email = address('fermeotp')
    const { error } = await mailed.backend.anon().auth.signInWithOtp({ email })
    expect(error).toMatchObject({ status: 422, code: 'signup_disabled' })
    expect((await mailed.backend.service().auth.admin.listUsers({ perPage: 1000 })).data.users.some((user) => user.email === email)).toBe(false)
  })

  it('creates and confirms an account by magic link when sign-up is on', async () => {
    const email = address('magique')
    expect((await withSignup(() => mailed.backend.anon().auth.signInWithOtp({ email, options: { data: { source: 'otp' } } }))).error).toBeNull()
    const followed = await follow(lastMail(email).link)
    const { data } = await mailed.backend.anon().auth.getUser(followed.fragment.get('access_token')!)
    expect(data.user).toMatchObject({ email, user_metadata: { source: 'otp' } })
    expect(data.user?.email_confirmed_at).toEqual(expect.any(String))
  })
})

describe('PUT /user', () => {
  async function account(label: string): Promise<{ email: string; client: SupabaseClient }> {
    const email = address(label)
    await mailed.backend.service().auth.admin.createUser({ email, password: 'Secret123!', email_confirm: true, user_metadata: { keep: 1, drop: 2 } })
    const { client, error } = await signIn(email, 'Secret123!')
    expect(error).toBeNull()
    return { email, client }
  }

  it('merges user metadata: keys are set, a null removes its key', async () => {
    const { client } = await account('donnees')
    const { data, error } = await client.auth.updateUser({ data: { added: 'oui', drop: null } })
    expect(error).toBeNull()
    expect(data.user?.user_metadata).toEqual({ keep: 1, added: 'oui' })
  })

  it('refuses a weak password (422 weak_password) and the current one (422 same_password)', async () => {
    const { client } = await account('memepass')
    expect((await client.auth.updateUser({ password: 'abc' })).error).toMatchObject({ status: 422, code: 'weak_password' })
    expect((await client.auth.updateUser({ password: 'Secret123!' })).error).toMatchObject({ status: 422, code: 'same_password' })
  })

  it('signs out the other sessions when the password changes', async () => {
    const { email, client } = await account('autres')
    const { client: other } = await signIn(email, 'Secret123!')
    const otherToken = (await other.auth.getSession()).data.session!.access_token
    expect((await client.auth.updateUser({ password: 'Change123!' })).error).toBeNull()
    expect((await client.auth.getUser()).error).toBeNull()
    const response = await auth('/user', { bearer: otherToken })
    expect(response.status).toBe(403)
    expect(await response.json()).toMatchObject({ code: 'session_not_found' })
  })

  it('changes the address only once the link mailed to the new one is followed', async () => {
    const { client, email } = await account('ancienne')
    const newEmail = address('nouvelle')
    const { data, error } = await client.auth.updateUser({ email: newEmail })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email, new_email: newEmail })
    const { message, link } = lastMail(newEmail)
    expect(message.subject).toBe('Confirmez votre nouvelle adresse e-mail')
    expect(new URL(link).searchParams.get('type')).toBe('email_change')
    expect((await follow(link)).fragment.get('access_token')).toBeTruthy()
    expect((await signIn(newEmail, 'Secret123!')).error).toBeNull()
    expect((await signIn(email, 'Secret123!')).error).toMatchObject({ code: 'invalid_credentials' })
  })

  it('refuses an address another account has with 422 email_exists', async () => {
    const { client } = await account('prise')
    expect((await client.auth.updateUser({ email: 'admin@example.com' })).error).toMatchObject({ status: 422, code: 'email_exists' })
  })

  it('requires a signed-in user: 401 no_authorization without a token', async () => {
    const response = await auth('/user', { method: 'PUT', body: JSON.stringify({ data: { x: 1 } }) })
    expect(response.status).toBe(401)
    expect(await response.json()).toMatchObject({ code: 'no_authorization' })
  })
})

describe('admin API', () => {
  it('refuses every caller but the service role: 401 without a token, 403 not_admin with the anon key or a user', async () => {
    const userToken = (await (await signIn('user@example.com', DEMO_PASSWORD)).client.auth.getSession()).data.session!.access_token
    const paths: Array<[string, string]> = [
      ['GET', '/admin/users'],
      ['POST', '/admin/users'],
      ['GET', '/admin/users/00000000-0000-4000-a000-000000000001'],
      ['PUT', '/admin/users/00000000-0000-4000-a000-000000000001'],
      ['DELETE', '/admin/users/00000000-0000-4000-a000-000000000001'],
      ['POST', '/admin/generate_link'],
      ['POST', '/invite'],
    ]
    for (const [method, path] of paths) {
      const none = await auth(path, { method, body: method === 'GET' ? undefined : '{}' })
      expect(none.status, `${method} ${path}`).toBe(401)
      for (const bearer of [mailed.backend.server.config.anonKey, userToken]) {
        const response = await auth(path, { method, bearer, body: method === 'GET' ? undefined : '{}' })
        expect(response.status, `${method} ${path}`).toBe(403)
        expect(await response.json()).toMatchObject({ code: 'not_admin', message: 'User not allowed' })
      }
    }
    expect((await signIn('user@example.com', DEMO_PASSWORD)).error).toBeNull()
  })

  it('creates an account, confirmed only with email_confirm, without mail and without a profile', async () => {
    const admin = mailed.backend.service().auth.admin
    const confirmed = address('cree')
    const { data, error } = await admin.createUser({ email: confirmed, password: 'Secret123!', email_confirm: true, user_metadata: { a: 1 }, app_metadata: { team: 'x' } })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email: confirmed, user_metadata: { a: 1 }, app_metadata: { provider: 'email', providers: ['email'], team: 'x' } })
    expect((await signIn(confirmed, 'Secret123!')).error).toBeNull()
    const pending = address('attente')
    await admin.createUser({ email: pending, password: 'Secret123!' })
    expect((await signIn(pending, 'Secret123!')).error).toMatchObject({ code: 'email_not_confirmed' })
    expect(mailsTo(confirmed)).toEqual([])
    expect(await profileCount(confirmed)).toBe(0)
  })

  it('refuses an address already registered with 422 email_exists, and a bad address with 400', async () => {
    const admin = mailed.backend.service().auth.admin
    expect((await admin.createUser({ email: 'RSSI@example.com', password: 'Secret123!' })).error).toMatchObject({ status: 422, code: 'email_exists' })
    expect((await admin.createUser({ email: 'nope', password: 'Secret123!' })).error).toMatchObject({ status: 400, code: 'validation_failed' })
  })

  it('lists accounts newest first, paged by page and per_page with X-Total-Count and Link', async () => {
    const { rows } = await mailed.backend.db.query<{ n: number }>('select count(*)::int as n from auth.users where deleted_at is null')
    const total = rows[0]!.n
    const { data, error } = await mailed.backend.service().auth.admin.listUsers({ page: 1, perPage: 2 })
    expect(error).toBeNull()
    expect(data.users).toHaveLength(2)
    expect(data).toMatchObject({ total, nextPage: 2, aud: 'authenticated' })
    expect(Date.parse(data.users[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(data.users[1]!.created_at))
    const response = await auth('/admin/users?page=2&per_page=2', { bearer: mailed.backend.server.config.serviceRoleKey })
    expect(response.headers.get('x-total-count')).toBe(String(total))
    expect(response.headers.get('link')).toBe(
      `</admin/users?page=3&per_page=2>; rel="next", </admin/users?page=${Math.ceil(total / 2)}&per_page=2>; rel="last"`,
    )
    const page2 = (await response.json()) as { users: Array<{ id: string }> }
    expect(page2.users.map((user) => user.id)).not.toContain(data.users[0]!.id)
  })

  it('gets an account by id, and answers an unknown one with 404 user_not_found', async () => {
    const admin = mailed.backend.service().auth.admin
    const { data } = await admin.getUserById('00000000-0000-4000-a000-000000000006')
    expect(data.user).toMatchObject({ email: 'admin@example.com' })
    const { error } = await admin.getUserById('00000000-0000-4000-a000-00000000ffff')
    expect(error).toMatchObject({ status: 404, code: 'user_not_found' })
  })

  it('updates an account: metadata, password, and a ban by ban_duration that "none" lifts', async () => {
    const admin = mailed.backend.service().auth.admin
    const email = address('modifie')
    const { data: created } = await admin.createUser({ email, password: 'Secret123!', email_confirm: true })
    const id = created.user!.id
    const { data, error } = await admin.updateUserById(id, { password: 'Change123!', user_metadata: { poste: 'RSSI' } })
    expect(error).toBeNull()
    expect(data.user?.user_metadata).toEqual({ poste: 'RSSI' })
    expect((await signIn(email, 'Change123!')).error).toBeNull()
    expect((await admin.updateUserById(id, { ban_duration: '24h' })).data.user?.banned_until).toEqual(expect.any(String))
    expect((await signIn(email, 'Change123!')).error).toMatchObject({ code: 'user_banned' })
    await admin.updateUserById(id, { ban_duration: 'none' })
    expect((await signIn(email, 'Change123!')).error).toBeNull()
    expect((await admin.updateUserById(id, { ban_duration: 'toujours' })).error).toMatchObject({ status: 400, code: 'validation_failed' })
  })

  it('deletes an account, which can no longer sign in; a soft delete keeps a wiped row', async () => {
    const admin = mailed.backend.service().auth.admin
    for (const soft of [false, true]) {
      const email = address(soft ? 'efface-doux' : 'efface')
      const { data } = await admin.createUser({ email, password: 'Secret123!', email_confirm: true })
      expect((await admin.deleteUser(data.user!.id, soft)).error).toBeNull()
      expect((await admin.getUserById(data.user!.id)).error).toMatchObject({ status: 404, code: 'user_not_found' })
      expect((await signIn(email, 'Secret123!')).error).toMatchObject({ code: 'invalid_credentials' })
      const { rows } = await mailed.backend.db.query('select email, deleted_at from auth.users where id = $1', [data.user!.id])
      expect(rows).toEqual(soft ? [{ email: null, deleted_at: expect.any(Date) }] : [])
    }
  })

  it.each(['signup', 'invite', 'magiclink', 'recovery'] as const)('generates a %s link without mailing it; the link works once', async (type) => {
    const email = address(`lien-${type}`)
    if (type === 'magiclink' || type === 'recovery') await mailed.backend.service().auth.admin.createUser({ email, password: 'Secret123!', email_confirm: true })
    const params =
      type === 'signup'
        ? { type, email, password: 'Secret123!' }
        : type === 'invite'
          ? { type, email, options: { data: { via: 'lien' }, redirectTo: `${SITE}/mot-de-passe` } }
          : { type, email }
    const { data, error } = await mailed.backend.service().auth.admin.generateLink(params)
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email })
    // supabase-js sends options.redirectTo as the query's redirect_to, which GoTrue honours when it is allowed.
    const redirectTo = type === 'invite' ? `${SITE}/mot-de-passe` : SITE
    expect(data.properties).toMatchObject({ verification_type: type, redirect_to: redirectTo, email_otp: expect.stringMatching(/^\d{6}$/) })
    expect(data.properties?.hashed_token).toBe(createHash('sha256').update(email + data.properties!.email_otp).digest('hex'))
    expect(mailsTo(email)).toEqual([])
    const followed = await follow(data.properties!.action_link)
    expect(followed.fragment.get('type')).toBe(type)
    expect(followed.fragment.get('access_token')).toBeTruthy()
    expect((await follow(data.properties!.action_link)).fragment.get('error_code')).toBe('otp_expired')
  })

  it('refuses a recovery link for an unknown address (404 user_not_found) and an unknown link type (400)', async () => {
    const admin = mailed.backend.service().auth.admin
    expect((await admin.generateLink({ type: 'recovery', email: address('absent') })).error).toMatchObject({ status: 404, code: 'user_not_found' })
    const response = await auth('/admin/generate_link', {
      method: 'POST',
      bearer: mailed.backend.server.config.serviceRoleKey,
      body: JSON.stringify({ type: 'sms', email: 'user@example.com' }),
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ code: 'validation_failed' })
  })

  it('invites by e-mail: the invitation link confirms the account, which then chooses its password', async () => {
    const email = address('invite')
    const { data, error } = await mailed.backend.service().auth.admin.inviteUserByEmail(email, { data: { first_name: 'Inès' }, redirectTo: `${SITE}/accueil` })
    expect(error).toBeNull()
    expect(data.user).toMatchObject({ email, invited_at: mailed.now.toISOString(), user_metadata: { first_name: 'Inès' } })
    const { message, link } = lastMail(email)
    expect(message.subject).toBe('Vous êtes invité sur Recertif')
    const client = mailed.backend.anon()
    const { error: verifyError } = await client.auth.verifyOtp({ token_hash: new URL(link).searchParams.get('token')!, type: 'invite' })
    expect(verifyError).toBeNull()
    expect((await client.auth.updateUser({ password: 'Choisi123!' })).error).toBeNull()
    expect((await signIn(email, 'Choisi123!')).error).toBeNull()
    expect(await profileCount(email)).toBe(0)
  })

  it('refuses to invite a confirmed account with 422 email_exists', async () => {
    const { error } = await mailed.backend.service().auth.admin.inviteUserByEmail('bpo@example.com')
    expect(error).toMatchObject({ status: 422, code: 'email_exists' })
  })

  it('answers an unknown admin path with 404 not_found and a wrong method with 405', async () => {
    const bearer = mailed.backend.server.config.serviceRoleKey
    expect(await (await auth('/admin/nope', { bearer })).json()).toMatchObject({ code: 'not_found' })
    const wrong = await auth('/admin/users', { method: 'DELETE', bearer })
    expect(wrong.status).toBe(405)
  })
})

describe('auto-confirm (GoTrue: MAILER_AUTOCONFIRM)', () => {
  it('answers a sign-up with a confirmed user and a session, mails nothing, and refuses a registered address', async () => {
    mailed.backend.server.config.mailerAutoconfirm = true
    try {
      await withSignup(async () => {
        const email = address('auto')
        const { data, error } = await mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' })
        expect(error).toBeNull()
        expect(data.session?.access_token).toEqual(expect.any(String))
        expect(data.user?.email_confirmed_at).toEqual(expect.any(String))
        expect(mailsTo(email)).toEqual([])
        expect((await mailed.backend.anon().auth.signInWithPassword({ email, password: 'Secret123!' })).error).toBeNull()
        const again = await mailed.backend.anon().auth.signUp({ email, password: 'Secret123!' })
        expect(again.error).toMatchObject({ status: 422, code: 'user_already_exists' })
        const settings = (await (await fetch(`${mailed.backend.url}/auth/v1/settings`)).json()) as { mailer_autoconfirm: boolean }
        expect(settings.mailer_autoconfirm).toBe(true)
      })
    } finally {
      mailed.backend.server.config.mailerAutoconfirm = undefined
    }
  })
})
