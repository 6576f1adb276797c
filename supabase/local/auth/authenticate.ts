import type { IncomingMessage } from 'node:http'
import type { Sql } from '../database'
import { bearerToken } from '../http'
import { JwtError, verifyJwt, type Claims } from '../keys'
import type { ServerConfig } from '../context'
import { AuthError } from './errors'
import { findUserById, type UserRow } from './users'

export interface Authenticated {
  claims: Claims
  user: UserRow
  /** Absent for a token without a session_id claim, which GoTrue accepts and treats as global. */
  sessionId: string | undefined
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const NIL_UUID = '00000000-0000-0000-0000-000000000000'

/** GoTrue's requireAuthentication: a valid bearer JWT whose user and session still exist. */
export async function authenticate(sql: Sql, config: ServerConfig, req: IncomingMessage): Promise<Authenticated> {
  const token = bearerToken(req)
  if (!token) throw new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token')
  let claims: Claims
  try {
    claims = await verifyJwt(token, config)
  } catch (error) {
    const reason = error instanceof JwtError && error.expired ? 'token has invalid claims: token is expired' : 'token is malformed or its signature is invalid'
    throw new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`)
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw new AuthError(403, 'bad_jwt', 'invalid claim: missing sub claim')
  }
  if (!UUID.test(claims.sub)) throw new AuthError(400, 'bad_jwt', 'invalid claim: sub claim must be a UUID')
  const user = await findUserById(sql, claims.sub)
  if (!user) throw new AuthError(403, 'user_not_found', 'User from sub claim in JWT does not exist')

  const sessionClaim = claims.session_id
  if (sessionClaim === undefined || sessionClaim === '' || sessionClaim === NIL_UUID) {
    return { claims, user, sessionId: undefined }
  }
  if (typeof sessionClaim !== 'string' || !UUID.test(sessionClaim)) {
    throw new AuthError(403, 'bad_jwt', 'invalid claim: session_id claim must be a UUID')
  }
  const { rows } = await sql.query('select 1 from auth.sessions where id = $1', [sessionClaim])
  if (rows.length === 0) {
    throw new AuthError(403, 'session_not_found', 'Session from session_id claim in JWT does not exist')
  }
  return { claims, user, sessionId: sessionClaim }
}
