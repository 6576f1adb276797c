import { randomBytes } from 'node:crypto'
import { decodeJwt } from 'jose'
import type { IncomingMessage } from 'node:http'
import { header } from '../http'
import { signAccessToken, type ApiRole } from '../keys'
import type { ServerConfig } from '../context'
import type { UserRow } from './users'

export interface SessionInfo {
  id: string
  /** When the session signed in: the timestamp of its password AMR entry. */
  createdAt: Date
  /** aal2 once a factor was verified in this session. */
  aal?: 'aal1' | 'aal2'
  /** When a TOTP code was verified in this session: its totp AMR entry. */
  totpAt?: Date | null
}

/** GoTrue's AccessTokenResponse. */
export interface TokenResponse {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  expires_at: number
  refresh_token: string
  user: Record<string, unknown>
}

/** An opaque refresh token; GoTrue's are random strings stored as they are in auth.refresh_tokens. */
export function newRefreshToken(): string {
  return randomBytes(16).toString('base64url')
}

/** The issuer GoTrue puts in its tokens: the API's external URL followed by /auth/v1. */
export function issuer(req: IncomingMessage): string {
  const host = header(req, 'host') ?? 'localhost'
  const proto = header(req, 'x-forwarded-proto') === 'https' ? 'https' : 'http'
  return `${proto}://${host}/auth/v1`
}

export async function accessToken(
  config: ServerConfig,
  iss: string,
  user: UserRow,
  session: SessionInfo,
  /** The AMR method GoTrue records: password, otp (an e-mailed code or link), recovery, invite, email_change. */
  method = 'password',
): Promise<{ token: string; expiresAt: number }> {
  const token = await signAccessToken(
    {
      iss,
      sub: user.id,
      aud: user.aud ?? 'authenticated',
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      role: (user.role ?? 'authenticated') as ApiRole,
      aal: session.aal ?? 'aal1',
      amr: authenticationMethods(session, method),
      session_id: session.id,
      is_anonymous: user.is_anonymous,
    },
    config.jwtExpirySeconds,
    config.signingKey,
  )
  return { token, expiresAt: decodeJwt(token).exp ?? 0 }
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

/** The token's amr claim as GoTrue writes it: the most recent method first. */
function authenticationMethods(session: SessionInfo, method: string): Array<{ method: string; timestamp: number }> {
  const first = { method, timestamp: seconds(session.createdAt) }
  return session.totpAt ? [{ method: 'totp', timestamp: seconds(session.totpAt) }, first] : [first]
}
