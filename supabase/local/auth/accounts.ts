import { createHash, randomInt } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { ServerConfig } from '../context'
import type { Sql } from '../database'
import { AuthError, badRequest } from './errors'
import { sendAuthMail, type MailKind } from './mailer'
import { PKCE_PREFIX, type Challenge } from './pkce'
import type { AuthContext } from './request-limits'
import { issuer } from './tokens'
import { USER_COLUMNS, type UserRow } from './users'

// Supabase's otp_expiry (config.toml: an hour; GoTrue alone would give 24 h) and GoTrue's GOTRUE_SMTP_MAX_FREQUENCY
// (by default one e-mail of a kind per minute to an account; config.mailerMaxFrequencySeconds).
const DEFAULT_OTP_EXP_SECONDS = 60 * 60
const DEFAULT_MAIL_FREQUENCY_SECONDS = 60
const MIN_PASSWORD_LENGTH = 6
// bcrypt reads only the first 72 bytes: GoTrue refuses longer passwords rather than ignore their end.
const MAX_PASSWORD_BYTES = 72

export const clock = (config: ServerConfig): Date => (config.now ? config.now() : new Date())

/** The token columns of auth.users, as GoTrue uses them: one pending token of each kind per user. */
export type TokenSlot = 'confirmation' | 'recovery' | 'email_change' | 'email_change_current'

export const SLOT_COLUMNS: Record<TokenSlot | 'reauthentication', { token: string; sentAt: string }> = {
  confirmation: { token: 'confirmation_token', sentAt: 'confirmation_sent_at' },
  recovery: { token: 'recovery_token', sentAt: 'recovery_sent_at' },
  email_change: { token: 'email_change_token_new', sentAt: 'email_change_sent_at' },
  email_change_current: { token: 'email_change_token_current', sentAt: 'email_change_sent_at' },
  reauthentication: { token: 'reauthentication_token', sentAt: 'reauthentication_sent_at' },
}

// GoTrue's address check (the HTML living standard's e-mail syntax): no spaces, colons or semicolons, a host of labels.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

/** GoTrue's validateEmail: required, well formed, at most 255 characters, and stored in lower case. */
export function validEmail(email: string, missing = 'An email address is required'): string {
  if (email === '') throw badRequest('validation_failed', missing)
  if (email.length > 255) throw badRequest('validation_failed', 'An email address is too long')
  if (!EMAIL.test(email) || email.includes('\0')) throw badRequest('validation_failed', 'Unable to validate email address: invalid format')
  return email.toLowerCase()
}

export type PasswordPolicy = Pick<ServerConfig, 'passwordMinLength' | 'passwordRequiredCharacters'>

/**
 * GoTrue's checks of a new password: no NUL, at most 72 bytes, then its strength under the project's policy (length,
 * one character of each required set), every rule it misses named in weak_password's reasons and in the message. The
 * admin API's user creation passes no policy: GoTrue checks only the length there.
 */
export function checkPassword(password: string, policy: PasswordPolicy = {}): void {
  if (password.includes('\0')) throw badRequest('validation_failed', 'Password contains invalid characters')
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES) {
    throw new AuthError(422, 'validation_failed', `Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`)
  }
  const minLength = policy.passwordMinLength ?? MIN_PASSWORD_LENGTH
  const sets = (policy.passwordRequiredCharacters ?? []).filter((set) => set !== '')
  const reasons: string[] = []
  const messages: string[] = []
  if ([...password].length < minLength) {
    reasons.push('length')
    messages.push(`Password should be at least ${minLength} characters.`)
  }
  if (sets.some((set) => ![...set].some((character) => password.includes(character)))) {
    reasons.push('characters')
    messages.push(`Password should contain at least one character of each: ${sets.join(', ')}.`)
  }
  if (reasons.length > 0) throw new AuthError(422, 'weak_password', messages.join(' '), { weak_password: { reasons } })
}

/** An object field (user_metadata, data…); absent or null is none. */
export function objectParam(params: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const value = params[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('bad_json', `Could not parse request body as JSON: field ${name} must be an object`)
  return value as Record<string, unknown>
}

export function booleanParam(params: Record<string, unknown>, name: string, fallback: boolean): boolean {
  const value = params[name]
  if (value === undefined || value === null) return fallback
  if (typeof value !== 'boolean') throw badRequest('bad_json', `Could not parse request body as JSON: field ${name} must be a boolean`)
  return value
}

/** GoTrue's metadata update: top-level keys are set, and a null value removes its key. */
export function mergeMetadata(current: Record<string, unknown> | null, changes: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...(current ?? {}) }
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete merged[key]
    else merged[key] = value
  }
  return merged
}

export async function findUserByEmail(sql: Sql, email: string): Promise<UserRow | undefined> {
  const { rows } = await sql.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users u
      where lower(u.email) = lower($1) and u.aud = 'authenticated' and not u.is_sso_user and u.deleted_at is null
      order by u.created_at limit 1`,
    [email],
  )
  return rows[0]
}

export const emailExists = () => new AuthError(422, 'email_exists', 'A user with this email address has already been registered')

export interface NewUser {
  email: string
  password?: string
  userMetadata?: Record<string, unknown>
  appMetadata?: Record<string, unknown>
  confirmedAt?: Date
  invitedAt?: Date
  role?: string
  bannedUntil?: Date | null
}

/**
 * Creates an account with its e-mail identity, as GoTrue does. It creates no public.users profile: the app links
 * a directory profile to its account at the account's first sign-in (public.update_user_id), and only that way.
 */
export async function createUser(tx: Sql, user: NewUser, now: Date): Promise<UserRow> {
  if (await findUserByEmail(tx, user.email)) throw emailExists()
  const appMetadata = { provider: 'email', providers: ['email'], ...user.appMetadata }
  const { rows } = await tx.query<{ id: string }>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, invited_at,
       raw_app_meta_data, raw_user_meta_data, created_at, updated_at, banned_until,
       confirmation_token, recovery_token, email_change_token_new, email_change)
     values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', $1, $2,
       case when $3::text is null then '' else extensions.crypt($3, extensions.gen_salt('bf', 10)) end,
       $4, $5, $6, $7, $8, $8, $9, '', '', '', '')
     returning id::text as id`,
    [
      user.role ?? 'authenticated',
      user.email,
      user.password ?? null,
      user.confirmedAt ?? null,
      user.invitedAt ?? null,
      JSON.stringify(appMetadata),
      JSON.stringify(user.userMetadata ?? {}),
      now,
      user.bannedUntil ?? null,
    ],
  )
  const id = rows[0]!.id
  await tx.query(
    `insert into auth.identities (id, provider_id, user_id, identity_data, provider, created_at, updated_at)
     values (gen_random_uuid(), $1::text, $1::text::uuid, $2, 'email', $3, $3)`,
    [id, JSON.stringify({ sub: id, email: user.email, email_verified: user.confirmedAt !== undefined, phone_verified: false }), now],
  )
  return (await reloadUser(tx, id))!
}

export async function reloadUser(sql: Sql, id: string): Promise<UserRow | undefined> {
  const { rows } = await sql.query<UserRow>(`select ${USER_COLUMNS} from auth.users u where u.id = $1`, [id])
  return rows[0]
}

/** GoTrue's token hash: the hex SHA-256 of the address the code was sent to followed by the code. */
export const tokenHash = (email: string, otp: string) => createHash('sha256').update(email.toLowerCase() + otp).digest('hex')

/** GoTrue's per-user limit on e-mails of one kind (429 over_email_send_rate_limit). */
export async function checkMailFrequency(
  sql: Sql,
  userId: string,
  slot: TokenSlot | 'reauthentication',
  now: Date,
  frequencySeconds = DEFAULT_MAIL_FREQUENCY_SECONDS,
): Promise<void> {
  const { rows } = await sql.query<{ sent_at: Date | null }>(`select ${SLOT_COLUMNS[slot].sentAt} as sent_at from auth.users where id = $1`, [userId])
  const sentAt = rows[0]?.sent_at
  if (!sentAt) return
  const wait = Math.ceil((sentAt.getTime() + frequencySeconds * 1000 - now.getTime()) / 1000)
  if (wait > 0) throw new AuthError(429, 'over_email_send_rate_limit', `For security purposes, you can only request this after ${wait} seconds.`)
}

/** A six-digit code, as GoTrue's mailer sends with each link. */
export const newOtp = () => String(randomInt(0, 1_000_000)).padStart(6, '0')

export interface IssuedLink {
  otp: string
  hashedToken: string
  actionLink: string
  redirectTo: string
}

/**
 * Stores a fresh token of `slot` for the user (hashed only: the code and the link go to the mailbox, never to the
 * database), replacing any pending one, and builds the link GoTrue puts in its e-mails. A link of the PKCE flow has
 * GoTrue's pkce_ prefix, which tells /verify to answer with an auth code.
 */
export async function issueLink(
  sql: Sql,
  req: IncomingMessage,
  user: { id: string; address: string },
  slot: TokenSlot,
  type: string,
  redirectTo: string,
  now: Date,
  pkce = false,
): Promise<IssuedLink> {
  const otp = newOtp()
  const hashedToken = (pkce ? PKCE_PREFIX : '') + tokenHash(user.address, otp)
  const { token, sentAt } = SLOT_COLUMNS[slot]
  await sql.query(`update auth.users set ${token} = $2, ${sentAt} = $3 where id = $1`, [user.id, hashedToken, now])
  const actionLink = `${issuer(req)}/verify?token=${hashedToken}&type=${type}&redirect_to=${encodeURIComponent(redirectTo)}`
  return { otp, hashedToken, actionLink, redirectTo }
}

/** Issues a token and mails it, as GoTrue's mailer does: the account's frequency first, then the project's e-mail limit. */
export async function mailLink(
  sql: Sql,
  context: AuthContext,
  req: IncomingMessage,
  user: { id: string; address: string },
  kind: MailKind,
  slot: TokenSlot,
  redirectTo: string,
  now: Date,
  challenge?: Challenge,
): Promise<void> {
  await checkMailFrequency(sql, user.id, slot, now, context.config.mailerMaxFrequencySeconds)
  context.limits.admitMail(now.getTime())
  await sendLink(sql, context.config, req, user, kind, slot, redirectTo, now, challenge !== undefined)
  if (challenge) awaitPkceLink(context, user.id, kind, challenge, now)
}

/** Remembers the client's challenge for the link of `type` just mailed to the user, for as long as the link lives. */
export function awaitPkceLink(context: AuthContext, userId: string, type: string, challenge: Challenge, now: Date): void {
  context.pkce.awaitLink(userId, type, challenge, now.getTime(), otpExpirySeconds(context.config) * 1000)
}

/** Issues a token and mails its link and code, the limits already passed. Both e-mail change mails link to type email_change. */
export async function sendLink(
  sql: Sql,
  config: ServerConfig,
  req: IncomingMessage,
  user: { id: string; address: string },
  kind: MailKind,
  slot: TokenSlot,
  redirectTo: string,
  now: Date,
  pkce = false,
): Promise<void> {
  const link = await issueLink(sql, req, user, slot, kind === 'email_change_current' ? 'email_change' : kind, redirectTo, now, pkce)
  await sendAuthMail(config, kind, user.address, link.actionLink, link.otp)
}

/** Where a link sends the person back: the requested URL if it is on the site's origin, else the site URL. */
export function redirectTarget(config: ServerConfig, requested: string | null | undefined): string {
  if (requested) {
    try {
      if (new URL(requested).origin === new URL(config.siteUrl).origin) return requested
    } catch {
      // Not a URL: the site URL, as GoTrue falls back for any redirect it does not allow.
    }
  }
  return config.siteUrl
}

export function otpExpirySeconds(config: ServerConfig): number {
  return config.mailerOtpExpSeconds ?? DEFAULT_OTP_EXP_SECONDS
}

/** Parses a Go duration (GoTrue's ban_duration): "24h", "1h30m", "90s"; "none" lifts a ban. */
export function banUntil(duration: string, now: Date): Date | null {
  if (duration === 'none') return null
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1e3, m: 6e4, h: 3.6e6 }
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g)]
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== duration) {
    throw badRequest('validation_failed', `invalid format for ban duration: time: invalid duration ${JSON.stringify(duration)}`)
  }
  const ms = parts.reduce((sum, part) => sum + Number(part[1]) * units[part[2]!]!, 0)
  return new Date(now.getTime() + ms)
}
