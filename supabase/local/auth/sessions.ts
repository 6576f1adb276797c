import type { Database, Sql } from '../database'
import { AuthError, badRequest } from './errors'
import { newRefreshToken, type SessionInfo } from './tokens'
import { findUserById, isBanned, type UserRow } from './users'

/** Who is signing in or refreshing, recorded on the session as GoTrue records it. */
export interface ClientInfo {
  userAgent: string | null
  ip: string | null
}

export interface IssuedSession {
  user: UserRow
  session: SessionInfo
  refreshToken: string
}

/** Opens a session with its first refresh token and stamps the sign-in, in the caller's transaction. */
export async function startSession(tx: Sql, user: UserRow, client: ClientInfo): Promise<IssuedSession> {
  const { rows } = await tx.query<{ id: string; created_at: Date }>(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values (gen_random_uuid(), $1, now(), now(), 'aal1', $2, $3)
     returning id::text as id, created_at`,
    [user.id, client.userAgent, client.ip],
  )
  const session = rows[0]
  if (!session) throw new Error('session insert returned no row')
  const refreshToken = newRefreshToken()
  await tx.query(`insert into auth.refresh_tokens (token, user_id, revoked, session_id) values ($1, $2, false, $3)`, [
    refreshToken,
    user.id,
    session.id,
  ])
  await tx.query(`update auth.users set last_sign_in_at = now() where id = $1`, [user.id])
  await tx.query(`update auth.identities set last_sign_in_at = now() where user_id = $1 and provider = 'email'`, [user.id])
  const signedIn = await findUserById(tx, user.id)
  return { user: signedIn ?? user, session: { id: session.id, createdAt: session.created_at }, refreshToken }
}

interface TokenRow {
  id: string
  token: string
  revoked: boolean
  user_id: string
  updated_at: Date
  session_id: string | null
  session_created_at: Date | null
  not_after: Date | null
  aal: 'aal1' | 'aal2' | null
  totp_at: Date | null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const tokenNotFound = () => badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found')

/**
 * GoTrue's refresh_token grant for its opaque (v1) tokens. A live token is revoked and replaced by a child
 * that names it as parent. A revoked token is still honoured when it is the parent of the session's live
 * token (the client lost the last answer: the live token is handed back) or when it was revoked less than
 * `reuseIntervalSeconds` ago (concurrent refreshes: a sibling is issued). Any other reuse means the token
 * leaked: the session is ended (its tokens go with it, and its access tokens stop working at /user) and the
 * answer is refresh_token_already_used.
 */
export async function refreshSession(
  db: Database,
  refreshToken: string,
  client: ClientInfo,
  reuseIntervalSeconds: number,
): Promise<IssuedSession> {
  const outcome = await db.transaction(async (tx): Promise<IssuedSession | AuthError> => {
    const { rows } = await tx.query<TokenRow>(
      `select rt.id::text as id, rt.token, rt.revoked, rt.user_id, rt.updated_at, s.id::text as session_id,
              s.created_at as session_created_at, s.not_after, s.aal,
              (select c.created_at from auth.mfa_amr_claims c where c.session_id = s.id and c.authentication_method = 'totp') as totp_at
         from auth.refresh_tokens rt
         left join auth.sessions s on s.id = rt.session_id
        where rt.token = $1
        for update of rt`,
      [refreshToken],
    )
    const token = rows[0]
    if (!token || !UUID.test(token.user_id)) return tokenNotFound()
    const user = await findUserById(tx, token.user_id)
    if (!user || user.deleted_at) return tokenNotFound()
    if (isBanned(user)) return badRequest('user_banned', 'Invalid Refresh Token: User Banned')
    if (!token.session_id || !token.session_created_at) {
      await tx.query('delete from auth.refresh_tokens where id = $1', [token.id])
      return badRequest('session_not_found', 'Invalid Refresh Token: No Valid Session Found')
    }
    if (token.not_after && token.not_after.getTime() < Date.now()) {
      return badRequest('session_expired', 'Invalid Refresh Token: Session Expired')
    }
    await tx.query('select 1 from auth.sessions where id = $1 for update', [token.session_id])
    const session: SessionInfo = { id: token.session_id, createdAt: token.session_created_at, aal: token.aal ?? 'aal1', totpAt: token.totp_at }

    let issued: string | undefined
    if (token.revoked) {
      const { rows: live } = await tx.query<{ token: string; parent: string | null }>(
        `select token, parent from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1`,
        [session.id],
      )
      const current = live[0]
      if (current && current.parent === token.token) {
        issued = current.token
      } else if (Date.now() > token.updated_at.getTime() + reuseIntervalSeconds * 1000) {
        await tx.query('delete from auth.sessions where id = $1', [session.id])
        return badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used')
      }
    }
    if (!issued) {
      issued = newRefreshToken()
      await tx.query('update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1', [token.id])
      await tx.query(
        `insert into auth.refresh_tokens (token, user_id, revoked, parent, session_id) values ($1, $2, false, $3, $4)`,
        [issued, user.id, token.token, session.id],
      )
    }
    await tx.query(`update auth.sessions set refreshed_at = now(), updated_at = now(), user_agent = $2, ip = $3 where id = $1`, [
      session.id,
      client.userAgent,
      client.ip,
    ])
    return { user, session, refreshToken: issued }
  })
  // The revocation of a leaked session must be committed before the error is answered.
  if (outcome instanceof AuthError) throw outcome
  return outcome
}

export type LogoutScope = 'global' | 'local' | 'others'

/** GoTrue's logout: sessions are deleted, and their refresh tokens with them. */
export async function endSessions(db: Database, scope: LogoutScope, userId: string, sessionId: string | undefined): Promise<void> {
  if (!sessionId || scope === 'global') {
    await db.query('delete from auth.sessions where user_id = $1', [userId])
  } else if (scope === 'local') {
    await db.query('delete from auth.sessions where id = $1', [sessionId])
  } else {
    await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId])
  }
}
