import type { IncomingMessage } from 'node:http'
import type { ApiContext } from '../context'
import { clientAddress } from '../client-address'
import { header } from '../http'
import { AuthError, OAuthError, badRequest } from './errors'
import { readParams, stringParam } from './params'
import { passwordMatches, type PasswordVerifier } from './passwords'
import type { FailedSignInLimiter } from './rate-limit'
import { refreshSession, startSession, type ClientInfo, type IssuedSession } from './sessions'
import { accessToken, issuer, type TokenResponse } from './tokens'
import { USER_COLUMNS, isBanned, userJson, type UserRow } from './users'

const INVALID_LOGIN = 'Invalid login credentials'

export function clientInfo(req: IncomingMessage): ClientInfo {
  return { userAgent: header(req, 'user-agent') ?? null, ip: clientAddress(req) }
}

/** GoTrue's AccessTokenResponse for a session just opened or refreshed. */
export async function tokenResponse(
  context: ApiContext,
  req: IncomingMessage,
  issued: IssuedSession,
  method = 'password',
): Promise<TokenResponse> {
  const { token, expiresAt } = await accessToken(context.config, issuer(req), issued.user, issued.session, method)
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: context.config.jwtExpirySeconds,
    expires_at: expiresAt,
    refresh_token: issued.refreshToken,
    user: await userJson(context.db, issued.user),
  }
}

/**
 * GoTrue's password grant. As in GoTrue, the stored hash is read and compared here, once per attempt whether or
 * not the account exists (passwords.ts), and the limiter counts the attempt before the comparison.
 */
export async function passwordGrant(
  context: ApiContext,
  limiter: FailedSignInLimiter,
  verify: PasswordVerifier,
  req: IncomingMessage,
): Promise<TokenResponse> {
  const params = await readParams(req)
  const email = stringParam(params, 'email')
  const phone = stringParam(params, 'phone')
  const password = stringParam(params, 'password')
  if (email && phone) throw badRequest('validation_failed', 'Only an email address or phone number should be provided on login.')
  if (phone) throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled')
  if (!email) throw badRequest('validation_failed', 'missing email or phone')

  const ip = clientAddress(req)
  const now = Date.now()
  if (!limiter.begin(email, ip, now)) throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached')
  // Postgres text cannot hold NUL, so no stored account can match such credentials.
  if (email.includes('\0') || password.includes('\0')) throw badRequest('invalid_credentials', INVALID_LOGIN)

  const { rows } = await context.db.query<UserRow & { encrypted_password: string | null }>(
    `select ${USER_COLUMNS}, u.encrypted_password
       from auth.users u
      where lower(u.email) = lower($1) and u.aud = 'authenticated' and not u.is_sso_user and u.deleted_at is null
      order by u.created_at
      limit 1`,
    [email],
  )
  const user = rows[0]
  const passwordOk = await passwordMatches(verify, user?.encrypted_password, password)
  if (!user || !user.encrypted_password) throw badRequest('invalid_credentials', INVALID_LOGIN)
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned')
  if (!passwordOk) throw badRequest('invalid_credentials', INVALID_LOGIN)
  limiter.succeeded(email, ip, now)
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed')

  const issued = await context.db.transaction((tx) => startSession(tx, user, clientInfo(req)))
  return tokenResponse(context, req, issued)
}

export async function refreshTokenGrant(context: ApiContext, req: IncomingMessage): Promise<TokenResponse> {
  const params = await readParams(req)
  const refreshToken = stringParam(params, 'refresh_token')
  if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token required')
  if (refreshToken.includes('\0')) throw badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')
  const issued = await refreshSession(context.db, refreshToken, clientInfo(req), context.config.refreshTokenReuseIntervalSeconds)
  return tokenResponse(context, req, issued)
}

