import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Sql } from '../database'
import {
  SLOT_COLUMNS,
  checkPassword,
  clock,
  createUser,
  emailExists,
  findUserByEmail,
  mailLink,
  mergeMetadata,
  objectParam,
  booleanParam,
  otpExpirySeconds,
  redirectTarget,
  reloadUser,
  tokenHash,
  validEmail,
  type TokenSlot,
} from './accounts'
import type { Authenticated } from './authenticate'
import { AuthError, badRequest } from './errors'
import { clientInfo, tokenResponse } from './grants'
import { PKCE_PREFIX, challengeParams } from './pkce'
import { readParams, stringParam } from './params'
import { requireReauthentication } from './reauthentication'
import { SINGLE_CONFIRMATION_ACCEPTED, awaitsOtherConfirmation, mailEmailChange } from './email-change'
import type { AuthContext } from './request-limits'
import { startSession } from './sessions'
import type { TokenResponse } from './tokens'
import { isBanned, userJson, type UserRow } from './users'

const signupDisabled = (message = 'Signups not allowed for this instance') => new AuthError(422, 'signup_disabled', message)

export const address = (user: UserRow) => ({ id: user.id, address: user.email ?? '' })

/**
 * POST /signup: with e-mail confirmation on, the new user and a confirmation e-mail; with auto-confirm on (GoTrue's
 * MAILER_AUTOCONFIRM), a confirmed user and a session at once, and a registered address is refused as such.
 */
export async function signup(context: AuthContext, req: IncomingMessage, url: URL): Promise<Record<string, unknown> | TokenResponse> {
  const { db, config } = context
  const params = await readParams(req)
  // GoTrue routes a sign-up without e-mail or phone to anonymous sign-in first, which is off.
  if (stringParam(params, 'email') === '' && stringParam(params, 'phone') === '') {
    throw new AuthError(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled')
  }
  if (!config.enableSignup) throw signupDisabled()
  if (stringParam(params, 'phone')) throw new AuthError(422, 'phone_provider_disabled', 'Phone signups are disabled')
  const email = validEmail(stringParam(params, 'email'))
  const password = stringParam(params, 'password')
  if (password === '') throw badRequest('validation_failed', 'Signup requires a valid password')
  checkPassword(password, config)
  const data = objectParam(params, 'data')
  const challenge = challengeParams(params)
  const redirectTo = redirectTarget(config, url.searchParams.get('redirect_to'))
  const now = clock(config)
  if (config.mailerAutoconfirm) {
    const issued = await db.transaction(async (tx) => {
      if (await findUserByEmail(tx, email)) throw new AuthError(422, 'user_already_exists', 'User already registered')
      const user = await createUser(tx, { email, password, userMetadata: data, confirmedAt: now }, now)
      return startSession(tx, user, clientInfo(req))
    })
    return tokenResponse(context, req, issued)
  }
  return db.transaction(async (tx) => {
    const existing = await findUserByEmail(tx, email)
    if (existing?.email_confirmed_at) {
      // GoTrue does not tell who has an account: a registered address gets a look-alike user and no e-mail.
      return {
        id: randomUUID(),
        aud: 'authenticated',
        role: 'authenticated',
        email,
        phone: '',
        app_metadata: { provider: 'email', providers: ['email'] },
        user_metadata: {},
        identities: [],
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        is_anonymous: false,
      }
    }
    const user = existing ?? (await createUser(tx, { email, password, userMetadata: data }, now))
    await mailLink(tx, context, req, address(user), 'signup', 'confirmation', redirectTo, now, challenge)
    return userJson(tx, (await reloadUser(tx, user.id))!)
  })
}

/** POST /recover: answers the same whether or not the address has an account. */
export async function recover(context: AuthContext, req: IncomingMessage, url: URL): Promise<Record<string, never>> {
  const { db, config } = context
  const params = await readParams(req)
  const email = validEmail(stringParam(params, 'email'), 'Password recovery requires an email')
  const challenge = challengeParams(params)
  const redirectTo = redirectTarget(config, url.searchParams.get('redirect_to'))
  const now = clock(config)
  await db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email)
    if (user) await mailLink(tx, context, req, address(user), 'recovery', 'recovery', redirectTo, now, challenge)
  })
  return {}
}

/** POST /otp: a magic link and code by e-mail; an unknown address gets an account only where sign-up is open. */
export async function otp(context: AuthContext, req: IncomingMessage, url: URL): Promise<Record<string, never>> {
  const { db, config } = context
  const params = await readParams(req)
  if (stringParam(params, 'phone')) throw new AuthError(422, 'phone_provider_disabled', 'Unsupported phone provider')
  const email = validEmail(stringParam(params, 'email'))
  const createAllowed = booleanParam(params, 'create_user', true)
  const data = objectParam(params, 'data')
  const challenge = challengeParams(params)
  const redirectTo = redirectTarget(config, url.searchParams.get('redirect_to'))
  const now = clock(config)
  await db.transaction(async (tx) => {
    let user = await findUserByEmail(tx, email)
    if (!user) {
      if (!createAllowed) throw new AuthError(422, 'otp_disabled', 'Signups not allowed for otp')
      if (!config.enableSignup) throw signupDisabled('Signups not allowed for otp')
      user = await createUser(tx, { email, userMetadata: data }, now)
    }
    if (user.email_confirmed_at) await mailLink(tx, context, req, address(user), 'magiclink', 'recovery', redirectTo, now, challenge)
    else await mailLink(tx, context, req, address(user), 'signup', 'confirmation', redirectTo, now, challenge)
  })
  return {}
}

/** Which pending tokens a verification type may consume, and the AMR method of the session it opens. */
const VERIFY_TYPES: Record<string, { slots: TokenSlot[]; method: string }> = {
  signup: { slots: ['confirmation'], method: 'otp' },
  invite: { slots: ['confirmation'], method: 'invite' },
  magiclink: { slots: ['recovery', 'confirmation'], method: 'otp' },
  recovery: { slots: ['recovery'], method: 'recovery' },
  email: { slots: ['confirmation', 'recovery'], method: 'otp' },
  email_change: { slots: ['email_change', 'email_change_current'], method: 'email_change' },
}

export const otpExpired = () => new AuthError(403, 'otp_expired', 'Token has expired or is invalid')

/** The first of a secure e-mail change's two confirmations: accepted, no session yet. */
const HALF_CONFIRMED = Symbol('half confirmed')

const isEmailChange = (slot: TokenSlot) => slot === 'email_change' || slot === 'email_change_current'

/**
 * Consumes a pending token (by its hash, or by the address and the six-digit code) and opens a session, or for a
 * followed link of the PKCE flow issues the auth code of the link's flow state instead (none: the token stays, as
 * GoTrue rolls back). The token is cleared in the same statement that finds it, so a link works once even when it
 * is followed twice at once. A token of the PKCE flow is stored with its pkce_ prefix: the code and a hash without
 * it match it too.
 */
async function consumeToken(
  context: AuthContext,
  req: IncomingMessage,
  type: string,
  token: { hash: string; email?: string },
  answer: 'session' | 'code' = 'session',
): Promise<TokenResponse | typeof HALF_CONFIRMED | { code: string }> {
  const { db, config } = context
  const verification = VERIFY_TYPES[type]
  if (!verification) throw badRequest('validation_failed', `Unsupported verification type: ${type}`)
  const now = clock(config)
  const oldest = new Date(now.getTime() - otpExpirySeconds(config) * 1000)
  const result = await db.transaction(async (tx) => {
    for (const slot of verification.slots) {
      const { token: column, sentAt } = SLOT_COLUMNS[slot]
      const addressColumn = slot === 'email_change' ? 'email_change' : 'email'
      const { rows } = await tx.query<{ id: string; fresh: boolean }>(
        `update auth.users set ${column} = '' where ${column} in ($1::text, '${PKCE_PREFIX}' || $1::text)
          and ($2::text is null or lower(${addressColumn}) = lower($2))
          and deleted_at is null
          returning id::text as id, coalesce(${sentAt} >= $3, false) as fresh`,
        [token.hash, token.email ?? null, oldest],
      )
      const found = rows[0]
      if (!found) continue
      // An expired token is spent all the same: GoTrue never honours it again.
      if (!found.fresh) return undefined
      const before = (await reloadUser(tx, found.id))!
      // A banned account's link is spent without opening a session, as its password would be refused.
      if (isBanned(before)) return badRequest('user_banned', 'User is banned')
      if (isEmailChange(slot) && (await awaitsOtherConfirmation(tx, config, found.id))) return HALF_CONFIRMED
      await applyVerification(tx, found.id, slot, now)
      if (answer === 'code') return { code: context.pkce.codeForLink(found.id, type, now.getTime()) }
      return startSession(tx, (await reloadUser(tx, found.id))!, clientInfo(req))
    }
    return undefined
  })
  if (!result) throw otpExpired()
  // Thrown after the commit, so that the spent token stays spent.
  if (result instanceof AuthError) throw result
  if (result === HALF_CONFIRMED || 'code' in result) return result
  return tokenResponse(context, req, result, verification.method)
}

async function applyVerification(tx: Sql, id: string, slot: TokenSlot, now: Date) {
  if (isEmailChange(slot)) {
    await tx.query(
      `update auth.users set email = email_change, email_change = '', email_change_sent_at = null, email_change_token_new = '',
         email_change_token_current = '', email_change_confirm_status = 0, updated_at = $2 where id = $1`,
      [id, now],
    )
    await tx.query(
      `update auth.identities i set identity_data = i.identity_data || jsonb_build_object('email', u.email), updated_at = $2
         from auth.users u where u.id = $1 and i.user_id = u.id and i.provider = 'email'`,
      [id, now],
    )
  }
  // Following any e-mailed link proves the address: GoTrue confirms an unconfirmed account on recovery too.
  await tx.query(`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, $2), updated_at = $2 where id = $1`, [id, now])
  await tx.query(
    `update auth.identities set identity_data = identity_data || '{"email_verified": true}'::jsonb where user_id = $1 and provider = 'email'`,
    [id],
  )
}

/** POST /verify: the JSON form supabase-js's verifyOtp uses. */
export async function verifyPost(context: AuthContext, req: IncomingMessage): Promise<TokenResponse | Record<string, string>> {
  const params = await readParams(req)
  const type = stringParam(params, 'type')
  const hash = stringParam(params, 'token_hash')
  const code = stringParam(params, 'token')
  const email = stringParam(params, 'email')
  if (type === '') throw badRequest('validation_failed', 'Verify requires a verification type')
  if (stringParam(params, 'phone')) throw new AuthError(422, 'phone_provider_disabled', 'Unsupported phone provider')
  let result: Awaited<ReturnType<typeof consumeToken>>
  if (hash) result = await consumeToken(context, req, type, { hash })
  else if (!code) throw badRequest('validation_failed', 'Verify requires either a token or a token hash')
  else if (!email) throw badRequest('validation_failed', 'Only an email address or phone number should be provided on verify')
  else result = await consumeToken(context, req, type, { hash: tokenHash(email, code), email })
  if (result === HALF_CONFIRMED) return { msg: SINGLE_CONFIRMATION_ACCEPTED, code: '200' }
  // POST /verify always answers with a session, whichever flow mailed the token, as GoTrue's verifyPost.
  if ('code' in result) throw new Error('POST /verify asked for a session')
  return result
}

/**
 * GET /verify: the e-mailed link. Success or failure, the browser is sent back with the outcome in the fragment; a
 * link of the PKCE flow (its token prefixed pkce_) sends it back with ?code= instead, and with the error or message
 * in the query as well.
 */
export async function verifyGet(context: AuthContext, req: IncomingMessage, url: URL): Promise<string> {
  const type = url.searchParams.get('type') ?? ''
  const hash = url.searchParams.get('token') ?? ''
  if (type === '') throw badRequest('validation_failed', 'Verify requires a verification type')
  if (hash === '') throw badRequest('validation_failed', 'Verify requires a token or a token hash')
  const target = redirectTarget(context.config, url.searchParams.get('redirect_to'))
  const pkce = hash.startsWith(PKCE_PREFIX)
  try {
    const outcome = await consumeToken(context, req, type, { hash }, pkce ? 'code' : 'session')
    if (outcome === HALF_CONFIRMED) return redirectWith(target, { message: SINGLE_CONFIRMATION_ACCEPTED }, pkce)
    if ('code' in outcome) return withQuery(target, { code: outcome.code })
    const fragment = new URLSearchParams({
      access_token: outcome.access_token,
      expires_at: String(outcome.expires_at),
      expires_in: String(outcome.expires_in),
      refresh_token: outcome.refresh_token,
      token_type: outcome.token_type,
      type,
    })
    return `${target}#${fragment}`
  } catch (error) {
    if (!(error instanceof AuthError)) throw error
    const description = error.code === 'otp_expired' ? 'Email link is invalid or has expired' : error.message
    return redirectWith(target, { error: 'access_denied', error_code: error.code, error_description: description }, pkce)
  }
}

/** The redirect with `params` in its fragment, and for the PKCE flow in its query too, as GoTrue's. */
function redirectWith(target: string, params: Record<string, string>, inQuery: boolean): string {
  const base = inQuery ? withQuery(target, params) : target
  return `${base.split('#')[0]}#${new URLSearchParams(params)}`
}

function withQuery(target: string, params: Record<string, string>): string {
  const url = new URL(target)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.toString()
}

/** PUT /user: the signed-in person changes their password, their metadata, or their e-mail (confirmed by a link). */
export async function updateUser(context: AuthContext, req: IncomingMessage, url: URL, who: Authenticated): Promise<Record<string, unknown>> {
  const { db, config } = context
  const params = await readParams(req)
  const password = params.password === undefined || params.password === null ? undefined : stringParam(params, 'password')
  const rawEmail = stringParam(params, 'email')
  const data = objectParam(params, 'data')
  if (stringParam(params, 'phone')) throw new AuthError(422, 'phone_provider_disabled', 'Unsupported phone provider')
  const email = rawEmail ? validEmail(rawEmail) : undefined
  const challenge = challengeParams(params)
  if (password !== undefined) checkPassword(password, config)
  if (password !== undefined) await requireReauthentication(context, who, stringParam(params, 'nonce'))
  const redirectTo = redirectTarget(config, url.searchParams.get('redirect_to'))
  const now = clock(config)
  const id = who.user.id
  return db.transaction(async (tx) => {
    if (password !== undefined) {
      const { rows } = await tx.query<{ same: boolean }>(
        `select coalesce(encrypted_password <> '' and extensions.crypt($2, encrypted_password) = encrypted_password, false) as same
           from auth.users where id = $1`,
        [id, password],
      )
      if (rows[0]?.same) throw new AuthError(422, 'same_password', 'New password should be different from the old password.')
      await tx.query(`update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf', 10)), updated_at = $3 where id = $1`, [
        id,
        password,
        now,
      ])
      // GoTrue signs out every other session of the account when its password changes.
      if (who.sessionId) await tx.query('delete from auth.sessions where user_id = $1 and id <> $2', [id, who.sessionId])
    }
    if (data) {
      await tx.query(`update auth.users set raw_user_meta_data = $2, updated_at = $3 where id = $1`, [
        id,
        JSON.stringify(mergeMetadata(who.user.raw_user_meta_data, data)),
        now,
      ])
    }
    if (email && email !== who.user.email?.toLowerCase()) {
      if (await findUserByEmail(tx, email)) throw emailExists()
      await mailEmailChange(tx, context, req, { id, email: who.user.email }, email, redirectTo, now, challenge)
    }
    return userJson(tx, (await reloadUser(tx, id))!)
  })
}

/** POST /invite (service role): creates the account if needed and mails an invitation; no password is set. */
export async function invite(context: AuthContext, req: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const { db, config } = context
  const params = await readParams(req)
  const email = validEmail(stringParam(params, 'email'))
  const data = objectParam(params, 'data')
  const redirectTo = redirectTarget(config, url.searchParams.get('redirect_to'))
  const now = clock(config)
  return db.transaction(async (tx) => {
    const user = await inviteeAccount(tx, email, data, now)
    await mailLink(tx, context, req, address(user), 'invite', 'confirmation', redirectTo, now)
    return userJson(tx, (await reloadUser(tx, user.id))!)
  })
}

/** The account an invitation goes to: a new one, or one invited before and not yet confirmed. */
export async function inviteeAccount(
  tx: Sql,
  email: string,
  data: Record<string, unknown> | undefined,
  now: Date,
): Promise<UserRow> {
  const existing = await findUserByEmail(tx, email)
  if (existing?.email_confirmed_at) throw emailExists()
  if (existing) {
    await tx.query(`update auth.users set invited_at = $2 where id = $1`, [existing.id, now])
    return existing
  }
  return createUser(tx, { email, userMetadata: data, invitedAt: now }, now)
}
