import { checkMailFrequency, clock, newOtp, otpExpirySeconds, tokenHash } from './accounts'
import type { Authenticated } from './authenticate'
import { AuthError, badRequest } from './errors'
import { sendAuthMail } from './mailer'
import type { AuthContext } from './request-limits'

// GoTrue asks for a nonce only when the session is older than this, or when the token carries none.
const RECENT_SESSION_MS = 24 * 60 * 60 * 1000

const invalidNonce = () => new AuthError(422, 'reauthentication_not_valid', 'Nonce has expired or is invalid')

/**
 * GET /reauthenticate: mails the signed-in person a six-digit code (GoTrue's reauthentication nonce), stored hashed
 * with the address like the other codes, under the account's mail interval and the project's e-mail limit.
 */
export async function reauthenticate(context: AuthContext, who: Authenticated): Promise<Record<string, never>> {
  const { db, config, limits } = context
  const { user } = who
  if (!user.email) throw badRequest('validation_failed', 'Reauthentication requires the user to have an email or a phone number')
  if (!user.email_confirmed_at) throw new AuthError(422, 'email_not_confirmed', 'Please verify your email first.')
  const email = user.email
  const now = clock(config)
  await db.transaction(async (tx) => {
    await checkMailFrequency(tx, user.id, 'reauthentication', now, config.mailerMaxFrequencySeconds)
    limits.admitMail(now.getTime())
    const nonce = newOtp()
    await tx.query(`update auth.users set reauthentication_token = $2, reauthentication_sent_at = $3 where id = $1`, [
      user.id,
      tokenHash(email, nonce),
      now,
    ])
    await sendAuthMail(config, 'reauthentication', email, undefined, nonce)
  })
  return {}
}

/**
 * GoTrue's check before a password change when secure password change is on: a session opened less than 24 hours ago
 * passes; otherwise the request must carry the mailed nonce (400 reauthentication_needed), which must be the last
 * one sent and unexpired (422 reauthentication_not_valid), and is spent by its use.
 */
export async function requireReauthentication(context: AuthContext, who: Authenticated, nonce: string): Promise<void> {
  const { db, config } = context
  if (!config.securePasswordChange) return
  const now = clock(config)
  if (who.sessionId) {
    const { rows } = await db.query<{ created_at: Date }>('select created_at from auth.sessions where id = $1', [who.sessionId])
    const createdAt = rows[0]?.created_at
    if (createdAt && now.getTime() <= createdAt.getTime() + RECENT_SESSION_MS) return
  }
  if (nonce === '') throw badRequest('reauthentication_needed', 'Password update requires reauthentication')
  if (!who.user.email) throw invalidNonce()
  const oldest = new Date(now.getTime() - otpExpirySeconds(config) * 1000)
  const { rows } = await db.query(
    `update auth.users set reauthentication_token = '', reauthentication_sent_at = null
      where id = $1 and reauthentication_token = $2 and reauthentication_sent_at >= $3 returning id`,
    [who.user.id, tokenHash(who.user.email, nonce), oldest],
  )
  if (rows.length === 0) throw invalidNonce()
}
