import type { IncomingMessage } from 'node:http'
import type { ApiContext } from '../server'
import { header } from '../http'
import { AuthError, OAuthError, badRequest } from './errors'
import { readParams, stringParam } from './params'
import type { FailedSignInLimiter } from './rate-limit'
import { refreshSession, startSession, type ClientInfo, type IssuedSession } from './sessions'
import { accessToken, issuer, type TokenResponse } from './tokens'
import { USER_COLUMNS, isBanned, userJson, type UserRow } from './users'

const INVALID_LOGIN = 'Invalid login credentials'

function clientInfo(req: IncomingMessage): ClientInfo {
  const forwarded = header(req, 'x-forwarded-for')?.split(',')[0]?.trim()
  return { userAgent: header(req, 'user-agent') ?? null, ip: forwarded || req.socket.remoteAddress || null }
}

async function tokenResponse(context: ApiContext, req: IncomingMessage, issued: IssuedSession): Promise<TokenResponse> {
  const { token, expiresAt } = await accessToken(context.config, issuer(req), issued.user, issued.session)
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
 * GoTrue's password grant. The password is checked by pgcrypto's crypt against the stored bcrypt hash, in SQL,
 * so the stored hash never leaves the database; a hash that is not bcrypt never matches. pgcrypto only knows
 * the $2a$ prefix, so $2b$ and $2y$ hashes (the same algorithm, from other bcrypt libraries) are checked as $2a$.
 */
export async function passwordGrant(context: ApiContext, limiter: FailedSignInLimiter, req: IncomingMessage): Promise<TokenResponse> {
  const params = await readParams(req)
  const email = stringParam(params, 'email')
  const phone = stringParam(params, 'phone')
  const password = stringParam(params, 'password')
  if (email && phone) throw badRequest('validation_failed', 'Only an email address or phone number should be provided on login.')
  if (phone) throw new AuthError(422, 'phone_provider_disabled', 'Phone logins are disabled')
  if (!email) throw badRequest('validation_failed', 'missing email or phone')

  if (limiter.isBlocked(email)) throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached')
  // Postgres text cannot hold NUL, so no stored account can match such credentials.
  if (email.includes('\0') || password.includes('\0')) {
    limiter.recordFailure(email)
    throw badRequest('invalid_credentials', INVALID_LOGIN)
  }

  const { rows } = await context.db.query<UserRow & { password_ok: boolean; has_password: boolean }>(
    `select ${USER_COLUMNS},
            coalesce(u.encrypted_password, '') <> '' as has_password,
            case when u.encrypted_password ~ '^\\$2[aby]\\$\\d\\d\\$'
                 then substr(extensions.crypt($2, '$2a$' || substr(u.encrypted_password, 5)), 5) = substr(u.encrypted_password, 5)
                 else false end as password_ok
       from auth.users u
      where lower(u.email) = lower($1) and u.aud = 'authenticated' and not u.is_sso_user and u.deleted_at is null
      order by u.created_at
      limit 1`,
    [email, password],
  )
  const user = rows[0]
  if (!user || !user.has_password) {
    limiter.recordFailure(email)
    throw badRequest('invalid_credentials', INVALID_LOGIN)
  }
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned')
  if (!user.password_ok) {
    limiter.recordFailure(email)
    throw badRequest('invalid_credentials', INVALID_LOGIN)
  }
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed')
  limiter.recordSuccess(email)

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

/** No OAuth flow ever starts here (no provider is enabled), so every PKCE code is unknown. */
export async function pkceGrant(req: IncomingMessage): Promise<never> {
  const params = await readParams(req)
  if (!stringParam(params, 'auth_code') || !stringParam(params, 'code_verifier')) {
    throw badRequest('validation_failed', 'invalid request: both auth code and code verifier should be non-empty')
  }
  throw new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found')
}
