import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { SupabaseClient } from '@supabase/supabase-js'
import type { CaughtMessage } from '../../supabase/local/mail/message'
import { authBackendWithMail } from './support/auth-mail'

// The rest of GoTrue's API as a hosted project serves it: /resend, /reauthenticate with secure password change,
// generate_link's e-mail change types, and GoTrue's own refusals for what Recertif leaves switched off (SAML SSO,
// Web3 and ID-token sign-in, manual identity linking). Through supabase-js's methods where it has them, mail read
// from a real mail catcher.

const SITE = 'http://127.0.0.1:5173'
const PASSWORD = 'Secret123!'
const mailed = authBackendWithMail('parity.example', { siteUrl: SITE })
const { address, advance } = mailed

const mailsTo = (to: string): CaughtMessage[] => mailed.catcher.messages().filter((message) => message.envelope.to.includes(to))

function lastMail(to: string): { message: CaughtMessage; link: string | undefined; code: string } {
  const message = mailsTo(to).at(-1)
  if (!message) throw new Error(`no mail to ${to}`)
  const code = /code : (\d{6})/.exec(message.text)?.[1]
  if (!code) throw new Error(`no code in: ${message.text}`)
  return { message, link: /(http:\/\/\S+\/auth\/v1\/verify\?\S+)/.exec(message.text)?.[1], code }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

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

async function createAccount(email: string, confirmed = true): Promise<string> {
  const { data, error } = await mailed.backend.service().auth.admin.createUser({ email, password: PASSWORD, email_confirm: confirmed })
  if (error) throw error
  return data.user!.id
}

async function signedIn(email: string, password = PASSWORD): Promise<SupabaseClient> {
  const client = mailed.backend.anon()
  const { error } = await client.auth.signInWithPassword({ email, password })
  if (error) throw error
  return client
}

async function accessToken(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession()
  return data.session!.access_token
}

/** Runs fn with GoTrue's secure password change on, as config.toml's [auth.email] secure_password_change would. */
async function withSecurePasswordChange<T>(fn: () => Promise<T>): Promise<T> {
  mailed.backend.server.config.securePasswordChange = true
  try {
    return await fn()
  } finally {
    mailed.backend.server.config.securePasswordChange = undefined
  }
}

/** Makes the person's sessions look a day and an hour old, as GoTrue sees a session not recently signed in. */
const ageSessions = (userId: string) =>
  mailed.backend.db.query(`update auth.sessions set created_at = created_at - interval '25 hours' where user_id = $1`, [userId])

describe('POST /resend', () => {
  it('mails a sign-up confirmation again to an account not yet confirmed, whose link confirms it', async () => {
    const email = address('attente')
    await createAccount(email, false)
    const { data, error } = await mailed.backend.anon().auth.resend({ type: 'signup', email, options: { emailRedirectTo: `${SITE}/bienvenue` } })
    expect(error).toBeNull()
    expect(data).toMatchObject({ user: null, session: null })
    const { message, link } = lastMail(email)
    expect(message.subject).toBe('Confirmez votre adresse e-mail')
    expect(new URL(link!).searchParams.get('type')).toBe('signup')
    expect(new URL(link!).searchParams.get('redirect_to')).toBe(`${SITE}/bienvenue`)
    const followed = await fetch(link!, { redirect: 'manual' })
    expect(followed.status).toBe(303)
    expect(followed.headers.get('location')).toContain('access_token=')
    await signedIn(email)
  })

  it('answers a confirmed account and an unknown address alike, {} and no mail', async () => {
    const known = address('confirme')
    await createAccount(known)
    const unknown = address('inconnu')
    for (const email of [known, unknown]) {
      const response = await auth('/resend', { method: 'POST', body: JSON.stringify({ type: 'signup', email }) })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({})
      expect(mailsTo(email)).toEqual([])
    }
  })

  it('holds to the per-account mail interval: 429 over_email_send_rate_limit, then again after it', async () => {
    const email = address('intervalle')
    await createAccount(email, false)
    expect((await mailed.backend.anon().auth.resend({ type: 'signup', email })).error).toBeNull()
    const { error } = await mailed.backend.anon().auth.resend({ type: 'signup', email })
    expect(error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' })
    expect(mailsTo(email)).toHaveLength(1)
    advance(60)
    expect((await mailed.backend.anon().auth.resend({ type: 'signup', email })).error).toBeNull()
    expect(mailsTo(email)).toHaveLength(2)
  })

  it('mails the pending e-mail change again to the new address; only the newest code confirms it', async () => {
    const email = address('ancienne')
    const newEmail = address('nouvelle')
    await createAccount(email)
    const client = await signedIn(email)
    expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull()
    const first = lastMail(newEmail).code
    advance(60)
    const { error } = await mailed.backend.anon().auth.resend({ type: 'email_change', email })
    expect(error).toBeNull()
    expect(mailsTo(newEmail)).toHaveLength(2)
    const { message, code } = lastMail(newEmail)
    expect(message.subject).toBe('Confirmez votre nouvelle adresse e-mail')
    if (first !== code) {
      const stale = await mailed.backend.anon().auth.verifyOtp({ email: newEmail, token: first, type: 'email_change' })
      expect(stale.error).toMatchObject({ status: 403, code: 'otp_expired' })
    }
    const { data, error: verifyError } = await mailed.backend.anon().auth.verifyOtp({ email: newEmail, token: code, type: 'email_change' })
    expect(verifyError).toBeNull()
    expect(data.user?.email).toBe(newEmail)
  })

  it('sends nothing for email_change when no change is pending', async () => {
    const email = address('sans-changement')
    await createAccount(email)
    expect((await mailed.backend.anon().auth.resend({ type: 'email_change', email })).error).toBeNull()
    expect(mailsTo(email)).toEqual([])
  })

  it('refuses phone types as GoTrue with its phone provider off, and a bad type or address in its words', async () => {
    const anon = mailed.backend.anon()
    for (const type of ['sms', 'phone_change'] as const) {
      const { error } = await anon.auth.resend({ type, phone: '+33612345678' })
      expect(error).toMatchObject({ status: 400, code: 'phone_provider_disabled', message: 'Phone logins are disabled' })
    }
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'recovery', email: address('x') }, 'Missing one of these types: signup, email_change, sms, phone_change'],
      [{ type: 'signup' }, 'Type provided requires an email address'],
      [{ type: 'sms' }, 'Type provided requires a phone number'],
      [{ type: 'email_change' }, 'Missing email address or phone number'],
      [{ type: 'signup', email: 'xx:;x@x.x' }, 'Unable to validate email address: invalid format'],
    ]
    for (const [body, message] of cases) {
      const response = await auth('/resend', { method: 'POST', body: JSON.stringify(body) })
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ code: 'validation_failed', message })
    }
  })
})

describe('GET /reauthenticate and secure password change', () => {
  it('mails the signed-in person a six-digit code, stored only as its hash with the address', async () => {
    const email = address('reauth')
    const id = await createAccount(email)
    const client = await signedIn(email)
    const { error } = await client.auth.reauthenticate()
    expect(error).toBeNull()
    const { message, link, code } = lastMail(email)
    expect(message.subject).toBe('Confirmez votre identité')
    expect(link).toBeUndefined()
    const { rows } = await mailed.backend.db.query<{ reauthentication_token: string }>('select reauthentication_token from auth.users where id = $1', [id])
    expect(rows[0]!.reauthentication_token).toBe(sha256(email + code))
  })

  it('needs a signed-in user (401) and holds to the mail interval (429)', async () => {
    const anonymous = await auth('/reauthenticate')
    expect(anonymous.status).toBe(401)
    expect(await anonymous.json()).toMatchObject({ code: 'no_authorization' })
    const email = address('reauth-intervalle')
    await createAccount(email)
    const client = await signedIn(email)
    expect((await client.auth.reauthenticate()).error).toBeNull()
    expect((await client.auth.reauthenticate()).error).toMatchObject({ status: 429, code: 'over_email_send_rate_limit' })
    expect(mailsTo(email)).toHaveLength(1)
  })

  it('changes a password without a nonce while the setting is off, however old the session', async () => {
    const email = address('sans-reglage')
    const id = await createAccount(email)
    const client = await signedIn(email)
    await ageSessions(id)
    expect((await client.auth.updateUser({ password: 'Nouveau123!' })).error).toBeNull()
    await signedIn(email, 'Nouveau123!')
  })

  it('with the setting on, lets a session of less than a day change its password without a nonce', async () => {
    const email = address('recente')
    await createAccount(email)
    const client = await signedIn(email)
    await withSecurePasswordChange(async () => {
      expect((await client.auth.updateUser({ password: 'Nouveau123!' })).error).toBeNull()
    })
    await signedIn(email, 'Nouveau123!')
  })

  it('with the setting on, asks an older session for the mailed nonce, refuses a wrong one, and spends the right one', async () => {
    const email = address('ancienne-session')
    const id = await createAccount(email)
    const client = await signedIn(email)
    await ageSessions(id)
    await withSecurePasswordChange(async () => {
      const missing = await client.auth.updateUser({ password: 'Nouveau123!' })
      expect(missing.error).toMatchObject({ status: 400, code: 'reauthentication_needed', message: 'Password update requires reauthentication' })
      const beforeAnyMail = await client.auth.updateUser({ password: 'Nouveau123!', nonce: '123456' })
      expect(beforeAnyMail.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid', message: 'Nonce has expired or is invalid' })
      expect((await client.auth.reauthenticate()).error).toBeNull()
      const { code } = lastMail(email)
      const wrong = await client.auth.updateUser({ password: 'Nouveau123!', nonce: code === '000000' ? '111111' : '000000' })
      expect(wrong.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' })
      expect((await client.auth.updateUser({ password: 'Nouveau123!', nonce: code })).error).toBeNull()
      const again = await client.auth.updateUser({ password: 'Encore123!', nonce: code })
      expect(again.error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' })
    })
    await signedIn(email, 'Nouveau123!')
  })

  it('with the setting on, refuses a nonce past the code lifetime', async () => {
    const email = address('nonce-expire')
    const id = await createAccount(email)
    const client = await signedIn(email)
    await ageSessions(id)
    expect((await client.auth.reauthenticate()).error).toBeNull()
    const { code } = lastMail(email)
    advance(60 * 60 + 1)
    await withSecurePasswordChange(async () => {
      const { error } = await client.auth.updateUser({ password: 'Nouveau123!', nonce: code })
      expect(error).toMatchObject({ status: 422, code: 'reauthentication_not_valid' })
    })
    await signedIn(email)
  })
})

describe('what Recertif leaves switched off, refused in GoTrue\'s words', () => {
  it('SAML SSO: 404 saml_provider_disabled on every /sso route', async () => {
    for (const params of [{ domain: 'example.com' }, { providerId: '00000000-0000-4000-8000-000000000000' }]) {
      const { data, error } = await mailed.backend.anon().auth.signInWithSSO(params)
      expect(data).toBeNull()
      expect(error).toMatchObject({ status: 404, code: 'saml_provider_disabled', message: 'SAML 2.0 is disabled' })
    }
    for (const [method, path] of [['GET', '/sso/saml/metadata'], ['POST', '/sso/saml/acs']]) {
      const response = await auth(path!, { method })
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ code: 'saml_provider_disabled', message: 'SAML 2.0 is disabled' })
    }
  })

  it('Web3 sign-in: 422 web3_provider_disabled', async () => {
    const { error } = await mailed.backend.anon().auth.signInWithWeb3({ chain: 'solana', message: 'recertif.example', signature: new Uint8Array([1, 2, 3]) })
    expect(error).toMatchObject({ status: 422, code: 'web3_provider_disabled', message: 'Web3 provider is disabled' })
  })

  it('ID-token sign-in: 400 provider_disabled naming the issuer, and GoTrue\'s checks of the request', async () => {
    const google = await mailed.backend.anon().auth.signInWithIdToken({ provider: 'google', token: 'x.y.z' })
    expect(google.error).toMatchObject({ status: 400, code: 'provider_disabled', message: 'Provider (issuer "https://accounts.google.com") is not enabled' })
    const tenant = 'https://login.microsoftonline.com/0b1c2d3e-0000-4000-8000-000000000000/v2.0'
    const payload = Buffer.from(JSON.stringify({ iss: tenant, sub: 'x' })).toString('base64url')
    const azure = await mailed.backend.anon().auth.signInWithIdToken({ provider: 'azure', token: `eyJhbGciOiJub25lIn0.${payload}.` })
    expect(azure.error).toMatchObject({ status: 400, code: 'provider_disabled', message: `Provider (issuer "${tenant}") is not enabled` })
    const undetectable = await mailed.backend.anon().auth.signInWithIdToken({ provider: 'azure', token: 'not-a-jwt' })
    expect(undetectable.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Unable to detect issuer in ID token for Azure provider' })
    const grant = (body: Record<string, string>) => auth('/token?grant_type=id_token', { method: 'POST', body: JSON.stringify(body) })
    const custom = await grant({ id_token: 'x', provider: 'maison' })
    expect(custom.status).toBe(400)
    expect(await custom.json()).toEqual({ code: 'validation_failed', message: 'Custom OIDC provider "maison" not allowed' })
    const noToken = await grant({ provider: 'google' })
    expect(noToken.status).toBe(400)
    expect(await noToken.json()).toEqual({ error: 'invalid request', error_description: 'id_token required' })
    const noProvider = await grant({ id_token: 'x' })
    expect(await noProvider.json()).toEqual({ error: 'invalid request', error_description: 'provider or client_id and issuer required' })
  })

  it('manual identity linking: 404 manual_linking_disabled for a signed-in user, 401 without one; nothing is unlinked', async () => {
    const email = address('liaison')
    await createAccount(email)
    const client = await signedIn(email)
    const link = await client.auth.linkIdentity({ provider: 'google', options: { skipBrowserRedirect: true } })
    expect(link.error).toMatchObject({ status: 404, code: 'manual_linking_disabled', message: 'Manual linking is disabled' })
    const { data } = await client.auth.getUserIdentities()
    const identity = data!.identities[0]!
    const unlink = await client.auth.unlinkIdentity(identity)
    expect(unlink.error).toMatchObject({ status: 404, code: 'manual_linking_disabled' })
    expect((await client.auth.getUserIdentities()).data!.identities).toHaveLength(1)
    const anonymous = await auth('/user/identities/authorize?provider=google')
    expect(anonymous.status).toBe(401)
    const token = await accessToken(client)
    const raw = await auth(`/user/identities/${identity.identity_id}`, { method: 'DELETE', bearer: token })
    expect(await raw.json()).toEqual({ code: 'manual_linking_disabled', message: 'Manual linking is disabled' })
  })
})

describe('generate_link for an e-mail change', () => {
  it('email_change_new: the link and the code for the new address; following the link changes the address', async () => {
    const email = address('avant')
    const newEmail = address('apres')
    await createAccount(email)
    const { data, error } = await mailed.backend.service().auth.admin.generateLink({ type: 'email_change_new', email, newEmail })
    expect(error).toBeNull()
    const { action_link, email_otp, hashed_token, verification_type } = data.properties!
    expect(verification_type).toBe('email_change_new')
    expect(data.user).toMatchObject({ email, new_email: newEmail })
    expect(email_otp).toMatch(/^\d{6}$/)
    // As GoTrue: the answer's hash is the current address's; the link carries the new address's token.
    expect(hashed_token).toBe(sha256(email + email_otp))
    const link = new URL(action_link)
    expect(link.searchParams.get('type')).toBe('email_change')
    expect(link.searchParams.get('token')).toBe(sha256(newEmail + email_otp))
    expect(mailsTo(newEmail)).toEqual([])
    const followed = await fetch(action_link, { redirect: 'manual' })
    expect(followed.status).toBe(303)
    expect(followed.headers.get('location')).toContain('type=email_change')
    await signedIn(newEmail)
  })

  it('email_change_new: the code with the new address confirms the change at /verify', async () => {
    const email = address('code-avant')
    const newEmail = address('code-apres')
    await createAccount(email)
    const { data } = await mailed.backend.service().auth.admin.generateLink({ type: 'email_change_new', email, newEmail })
    const verified = await mailed.backend.anon().auth.verifyOtp({ email: newEmail, token: data.properties!.email_otp, type: 'email_change' })
    expect(verified.error).toBeNull()
    expect(verified.data.user?.email).toBe(newEmail)
  })

  it('refuses email_change_current (secure e-mail change is off), a missing or taken new address, an unknown account', async () => {
    const email = address('refus')
    const taken = address('prise')
    await createAccount(email)
    await createAccount(taken)
    const admin = mailed.backend.service().auth.admin
    const current = await admin.generateLink({ type: 'email_change_current', email, newEmail: address('autre') })
    expect(current.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'Enable secure email change to generate link for current email' })
    const missing = await admin.generateLink({ type: 'email_change_new', email, newEmail: '' })
    expect(missing.error).toMatchObject({ status: 400, code: 'validation_failed', message: 'An email address is required' })
    const clash = await admin.generateLink({ type: 'email_change_new', email, newEmail: taken })
    expect(clash.error).toMatchObject({ status: 422, code: 'email_exists' })
    const unknown = await admin.generateLink({ type: 'email_change_new', email: address('personne'), newEmail: address('x') })
    expect(unknown.error).toMatchObject({ status: 404, code: 'user_not_found' })
    const { data } = await admin.listUsers()
    expect(data.users.find((user) => user.email === email)?.new_email).toBeUndefined()
  })
})

/** Runs fn with GoTrue's secure e-mail change on, as config.toml's [auth.email] double_confirm_changes would. */
async function withSecureEmailChange<T>(fn: () => Promise<T>): Promise<T> {
  mailed.backend.server.config.mailerSecureEmailChange = true
  try {
    return await fn()
  } finally {
    mailed.backend.server.config.mailerSecureEmailChange = undefined
  }
}

const emailOf = async (id: string) =>
  (await mailed.backend.db.query<{ email: string }>('select email from auth.users where id = $1', [id])).rows[0]!.email

describe('secure e-mail change (GoTrue: double_confirm_changes)', () => {
  it('mails both addresses; the first link followed is only accepted, the second changes the address', async () => {
    const email = address('double-avant')
    const newEmail = address('double-apres')
    const id = await createAccount(email)
    const client = await signedIn(email)
    await withSecureEmailChange(async () => {
      expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull()
      const toCurrent = lastMail(email)
      expect(toCurrent.message.subject).toBe('Confirmez le changement de votre adresse e-mail')
      const toNew = lastMail(newEmail)
      const first = await fetch(toNew.link!, { redirect: 'manual' })
      expect(first.status).toBe(303)
      const firstFragment = new URLSearchParams(new URL(first.headers.get('location')!).hash.slice(1))
      expect(firstFragment.get('message')).toBe('Confirmation link accepted. Please proceed to confirm link sent to the other email')
      expect(firstFragment.get('access_token')).toBeNull()
      expect(await emailOf(id)).toBe(email)
      const second = await fetch(toCurrent.link!, { redirect: 'manual' })
      expect(second.headers.get('location')).toContain('access_token=')
    })
    expect(await emailOf(id)).toBe(newEmail)
    await signedIn(newEmail)
  })

  it('takes the two codes at /verify: the first answers GoTrue\'s message without a session, the second a session', async () => {
    const email = address('codes-avant')
    const newEmail = address('codes-apres')
    await createAccount(email)
    const client = await signedIn(email)
    await withSecureEmailChange(async () => {
      expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull()
      const half = await auth('/verify', { method: 'POST', body: JSON.stringify({ type: 'email_change', email, token: lastMail(email).code }) })
      expect(half.status).toBe(200)
      expect(await half.json()).toEqual({ msg: 'Confirmation link accepted. Please proceed to confirm link sent to the other email', code: '200' })
      const { data, error } = await mailed.backend.anon().auth.verifyOtp({ type: 'email_change', email: newEmail, token: lastMail(newEmail).code })
      expect(error).toBeNull()
      expect(data.user?.email).toBe(newEmail)
    })
  })

  it('resends both mails of a pending change', async () => {
    const email = address('double-renvoi')
    const newEmail = address('double-renvoi-nouvelle')
    await createAccount(email)
    const client = await signedIn(email)
    await withSecureEmailChange(async () => {
      expect((await client.auth.updateUser({ email: newEmail })).error).toBeNull()
      advance(60)
      expect((await mailed.backend.anon().auth.resend({ type: 'email_change', email })).error).toBeNull()
    })
    expect(mailsTo(email)).toHaveLength(2)
    expect(mailsTo(newEmail)).toHaveLength(2)
  })

  it('generate_link email_change_current and email_change_new: both links together change the address', async () => {
    const email = address('lien-double')
    const newEmail = address('lien-double-apres')
    const id = await createAccount(email)
    const admin = mailed.backend.service().auth.admin
    await withSecureEmailChange(async () => {
      const current = await admin.generateLink({ type: 'email_change_current', email, newEmail })
      expect(current.error).toBeNull()
      const { action_link, email_otp, hashed_token, verification_type } = current.data.properties!
      expect(verification_type).toBe('email_change_current')
      expect(hashed_token).toBe(sha256(email + email_otp))
      expect(new URL(action_link).searchParams.get('token')).toBe(hashed_token)
      expect(new URL(action_link).searchParams.get('type')).toBe('email_change')
      const next = await admin.generateLink({ type: 'email_change_new', email, newEmail })
      const first = await fetch(action_link, { redirect: 'manual' })
      expect(first.headers.get('location')).toContain('message=Confirmation+link+accepted')
      expect(await emailOf(id)).toBe(email)
      const second = await fetch(next.data.properties!.action_link, { redirect: 'manual' })
      expect(second.headers.get('location')).toContain('access_token=')
    })
    expect(await emailOf(id)).toBe(newEmail)
  })
})

describe('admin list filter', () => {
  it('keeps the accounts whose e-mail or full_name contains the filter, counted in X-Total-Count', async () => {
    const tag = `filtre${Date.now()}`
    const admin = mailed.backend.service().auth.admin
    await admin.createUser({ email: `${tag}.a@parity.example` })
    await admin.createUser({ email: address('nom'), user_metadata: { full_name: `Élise ${tag.toUpperCase()}` } })
    await admin.createUser({ email: address('autre') })
    const { serviceRoleKey } = mailed.backend.server.config
    const list = async (filter: string) => {
      const response = await fetch(`${mailed.backend.url}/auth/v1/admin/users?filter=${encodeURIComponent(filter)}`, {
        headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` },
      })
      const body = (await response.json()) as { users: Array<{ email: string }> }
      return { count: response.headers.get('x-total-count'), emails: body.users.map((user) => user.email) }
    }
    const found = await list(tag)
    expect(found.count).toBe('2')
    expect(found.emails).toHaveLength(2)
    expect(found.emails).toContain(`${tag}.a@parity.example`)
    expect((await list(`${tag}-absent`)).count).toBe('0')
  })
})

describe('other surfaces switched off, refused by GoTrue\'s middleware', () => {
  it('anonymous sign-ins: 422 anonymous_provider_disabled', async () => {
    const { data, error } = await mailed.backend.anon().auth.signInAnonymously()
    expect(data.session).toBeNull()
    expect(error).toMatchObject({ status: 422, code: 'anonymous_provider_disabled', message: 'Anonymous sign-ins are disabled' })
  })

  it('passkeys and the OAuth 2.1 server: 404 on every route under them, after the caller check where GoTrue makes one', async () => {
    const expectRefusal = async (response: Response, status: number, body: Record<string, string>) => {
      expect(response.status).toBe(status)
      expect(await response.json()).toMatchObject(body)
    }
    const passkeys = { code: 'passkey_disabled', message: 'Passkeys are disabled' }
    const oauth = { code: 'feature_disabled', message: 'OAuth server is disabled' }
    await expectRefusal(await auth('/passkeys/authentication/options', { method: 'POST' }), 404, passkeys)
    await expectRefusal(await auth('/oauth/authorize?client_id=x'), 404, oauth)
    await expectRefusal(await auth('/oauth/clients/register', { method: 'POST', body: '{}' }), 404, oauth)
    await expectRefusal(await auth('/.well-known/oauth-authorization-server'), 404, oauth)
    await expectRefusal(await auth('/user/oauth/grants'), 401, { code: 'no_authorization' })
    const email = address('grants')
    await createAccount(email)
    const token = await accessToken(await signedIn(email))
    await expectRefusal(await auth('/user/oauth/grants', { bearer: token }), 404, oauth)
    await expectRefusal(await auth('/admin/oauth/clients', { bearer: token }), 403, { code: 'not_admin' })
    const { serviceRoleKey } = mailed.backend.server.config
    await expectRefusal(await auth('/admin/oauth/clients', { bearer: serviceRoleKey }), 404, oauth)
  })
})
