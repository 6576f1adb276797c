import type { IncomingMessage } from 'node:http'
import { Secret, TOTP } from 'otpauth'
import QRCode from 'qrcode'
import type { ApiContext } from '../context'
import type { Sql } from '../database'
import type { Authenticated } from './authenticate'
import { clock } from './accounts'
import { AuthError } from './errors'
import { clientInfo, tokenResponse } from './grants'
import { readParams, stringParam } from './params'
import { newRefreshToken, type TokenResponse } from './tokens'
import { findUserById } from './users'

// GoTrue's MFA settings as a Supabase project has them by default: TOTP on, at most 10 factors, challenges live 5 min.
const MAX_FACTORS = 10
const CHALLENGE_EXPIRY_SECONDS = 300
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface FactorRow {
  id: string
  user_id: string
  friendly_name: string | null
  factor_type: string
  status: 'unverified' | 'verified'
  secret: string | null
  created_at: Date
  updated_at: Date
  last_challenged_at: Date | null
}

const FACTOR_COLUMNS = `id::text as id, user_id::text as user_id, friendly_name, factor_type::text as factor_type, status::text as status,
  secret, created_at, updated_at, last_challenged_at`

/** A factor as GoTrue serialises it (never its secret). */
export function factorJson(factor: FactorRow): Record<string, unknown> {
  return {
    id: factor.id,
    status: factor.status,
    friendly_name: factor.friendly_name ?? '',
    factor_type: factor.factor_type,
    created_at: factor.created_at.toISOString(),
    updated_at: factor.updated_at.toISOString(),
    ...(factor.last_challenged_at ? { last_challenged_at: factor.last_challenged_at.toISOString() } : {}),
  }
}

export async function factorsOf(sql: Sql, userId: string): Promise<FactorRow[]> {
  const { rows } = await sql.query<FactorRow>(`select ${FACTOR_COLUMNS} from auth.mfa_factors where user_id = $1 order by created_at, id`, [userId])
  return rows
}

const factorNotFound = () => new AuthError(404, 'mfa_factor_not_found', 'Factor not found')

async function ownFactor(sql: Sql, userId: string, factorId: string): Promise<FactorRow> {
  if (!UUID.test(factorId)) throw factorNotFound()
  const { rows } = await sql.query<FactorRow>(`select ${FACTOR_COLUMNS} from auth.mfa_factors where id = $1 and user_id = $2`, [factorId, userId])
  if (!rows[0]) throw factorNotFound()
  return rows[0]
}

const totpFor = (secret: string, issuer: string, label: string) =>
  new TOTP({ issuer, label, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) })

/**
 * GoTrue's QR code: the SVG itself, which auth-js turns into a data URI (colours named, so that no '#' ends that URI
 * early).
 */
async function qrCode(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, color: { dark: '#000000', light: '#ffffff' } })
  return svg.replaceAll('#000000', 'black').replaceAll('#ffffff', 'white').trim()
}

/** POST /factors: a new unverified TOTP factor with its secret, otpauth:// URI and QR code. */
export async function enroll(context: ApiContext, req: IncomingMessage, who: Authenticated): Promise<Record<string, unknown>> {
  const params = await readParams(req)
  const factorType = stringParam(params, 'factor_type')
  const friendlyName = stringParam(params, 'friendly_name')
  const issuerParam = stringParam(params, 'issuer')
  if (factorType === 'phone') throw new AuthError(422, 'mfa_phone_enroll_not_enabled', 'MFA enroll is disabled for Phone')
  if (factorType === 'webauthn') throw new AuthError(422, 'mfa_webauthn_enroll_not_enabled', 'MFA enroll is disabled for WebAuthn')
  if (factorType !== 'totp') throw new AuthError(400, 'validation_failed', 'factor_type needs to be totp, phone or webauthn')
  const factors = await factorsOf(context.db, who.user.id)
  if (factors.some((factor) => factor.status === 'verified') && who.claims.aal !== 'aal2') {
    throw new AuthError(422, 'insufficient_aal', 'AAL2 required to enroll a new factor')
  }
  if (factors.length >= MAX_FACTORS) {
    throw new AuthError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue')
  }
  if (friendlyName.trim() !== '' && factors.some((factor) => factor.friendly_name === friendlyName)) {
    throw new AuthError(422, 'mfa_factor_name_conflict', `A factor with the friendly name "${friendlyName}" for this user already exists`)
  }
  const issuer = issuerParam || new URL(context.config.siteUrl).host
  const secret = new Secret({ size: 20 }).base32
  const uri = totpFor(secret, issuer, who.user.email ?? '').toString()
  const { rows } = await context.db.query<{ id: string }>(
    `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
     values (gen_random_uuid(), $1, $2, 'totp', 'unverified', now(), now(), $3) returning id::text as id`,
    [who.user.id, friendlyName, secret],
  )
  return { id: rows[0]!.id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: await qrCode(uri), secret, uri } }
}

/** POST /factors/:id/challenge: a challenge of five minutes to answer with the factor's current code. */
export async function challenge(context: ApiContext, req: IncomingMessage, who: Authenticated, factorId: string): Promise<Record<string, unknown>> {
  await readParams(req)
  const factor = await ownFactor(context.db, who.user.id, factorId)
  const now = clock(context.config)
  const { rows } = await context.db.query<{ id: string }>(
    `insert into auth.mfa_challenges (id, factor_id, created_at, ip_address) values (gen_random_uuid(), $1, $2, $3::inet) returning id::text as id`,
    [factor.id, now, clientInfo(req).ip],
  )
  await context.db.query('update auth.mfa_factors set last_challenged_at = $2 where id = $1', [factor.id, now])
  return { id: rows[0]!.id, type: 'totp', expires_at: Math.floor(now.getTime() / 1000) + CHALLENGE_EXPIRY_SECONDS }
}

/**
 * POST /factors/:id/verify: the challenge answered with a code of the factor (one period either side). The factor is
 * verified, the session goes to aal2 with a totp AMR entry, and a new token pair is answered; the person's other
 * sessions below aal2 end, as GoTrue ends them when a factor is first verified.
 */
export async function verify(context: ApiContext, req: IncomingMessage, who: Authenticated, factorId: string): Promise<TokenResponse> {
  const params = await readParams(req)
  const challengeId = stringParam(params, 'challenge_id')
  const code = stringParam(params, 'code')
  const factor = await ownFactor(context.db, who.user.id, factorId)
  if (!who.sessionId) throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
  if (!UUID.test(challengeId)) throw new AuthError(404, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found')
  const { rows } = await context.db.query<{ created_at: Date }>(
    'select created_at from auth.mfa_challenges where id = $1 and factor_id = $2 and verified_at is null',
    [challengeId, factor.id],
  )
  const found = rows[0]
  if (!found) throw new AuthError(404, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found')
  const now = clock(context.config)
  if (now.getTime() > found.created_at.getTime() + CHALLENGE_EXPIRY_SECONDS * 1000) {
    await context.db.query('delete from auth.mfa_challenges where id = $1', [challengeId])
    throw new AuthError(422, 'mfa_challenge_expired', `MFA challenge ${challengeId} has expired, verify against another challenge or create a new challenge.`)
  }
  const valid = /^\d{6}$/.test(code) && totpFor(factor.secret ?? '', '', '').validate({ token: code, timestamp: now.getTime(), window: 1 }) !== null
  if (!valid) throw new AuthError(422, 'mfa_verification_failed', 'Invalid TOTP code entered')

  const sessionId = who.sessionId
  const issued = await context.db.transaction(async (tx) => {
    await tx.query('delete from auth.mfa_challenges where id = $1', [challengeId])
    await tx.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`, [factor.id])
    const { rows: sessions } = await tx.query<{ created_at: Date }>(
      `update auth.sessions set aal = 'aal2', factor_id = $2, updated_at = now() where id = $1 returning created_at`,
      [sessionId, factor.id],
    )
    await tx.query(
      `insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
       values (gen_random_uuid(), $1, $2, $2, 'totp')
       on conflict (session_id, authentication_method) do update set updated_at = excluded.updated_at, created_at = excluded.created_at`,
      [sessionId, now],
    )
    if (factor.status === 'unverified') {
      await tx.query(`delete from auth.sessions where user_id = $1 and id <> $2 and aal = 'aal1'`, [who.user.id, sessionId])
    }
    await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked', [sessionId])
    const refreshToken = newRefreshToken()
    await tx.query(`insert into auth.refresh_tokens (token, user_id, revoked, session_id) values ($1, $2, false, $3)`, [refreshToken, who.user.id, sessionId])
    const user = (await findUserById(tx, who.user.id)) ?? who.user
    return { user, refreshToken, session: { id: sessionId, createdAt: sessions[0]?.created_at ?? now, aal: 'aal2' as const, totpAt: now } }
  })
  // The first factor's method (password, otp…) stays in the new token's amr, after totp.
  const first = (who.claims.amr as Array<{ method?: unknown }> | undefined)?.find((entry) => entry.method !== 'totp')?.method
  return tokenResponse(context, req, issued, typeof first === 'string' ? first : 'password')
}

/** DELETE /factors/:id: a verified factor goes only from an aal2 session; sessions that passed it fall back to aal1. */
export async function unenroll(context: ApiContext, who: Authenticated, factorId: string): Promise<Record<string, unknown>> {
  const factor = await ownFactor(context.db, who.user.id, factorId)
  if (factor.status === 'verified' && who.claims.aal !== 'aal2') {
    throw new AuthError(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor')
  }
  await removeFactor(context.db, factor.id)
  return { id: factor.id }
}

/** Deletes a factor, its challenges with it, and brings the sessions it raised back to aal1. */
export async function removeFactor(sql: Sql, factorId: string): Promise<void> {
  await sql.query(
    `with lowered as (update auth.sessions set aal = 'aal1', factor_id = null where factor_id = $1 returning id)
     delete from auth.mfa_amr_claims where authentication_method = 'totp' and session_id in (select id from lowered)`,
    [factorId],
  )
  await sql.query('delete from auth.mfa_factors where id = $1', [factorId])
}

/** GET /admin/users/:id/factors. */
export async function adminListFactors(context: ApiContext, userId: string): Promise<Record<string, unknown>[]> {
  return (await factorsOf(context.db, userId)).map(factorJson)
}

/** DELETE /admin/users/:id/factors/:factorId. */
export async function adminDeleteFactor(context: ApiContext, userId: string, factorId: string): Promise<Record<string, unknown>> {
  const factor = await ownFactor(context.db, userId, factorId)
  await removeFactor(context.db, factor.id)
  return factorJson(factor)
}
