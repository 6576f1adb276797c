import type { IncomingMessage } from 'node:http'
import type { ServerConfig } from '../context'
import type { Sql } from '../database'
import { awaitPkceLink, checkMailFrequency, sendLink } from './accounts'
import type { Challenge } from './pkce'
import type { AuthContext } from './request-limits'

/** GoTrue's answer to the first of the two confirmations of a secure e-mail change. */
export const SINGLE_CONFIRMATION_ACCEPTED = 'Confirmation link accepted. Please proceed to confirm link sent to the other email'

/**
 * Mails an e-mail change as GoTrue's sendEmailChange: a link and code to the new address, and with secure e-mail
 * change a second pair to the current address; one check of the account's interval and one of the e-mail limit.
 */
export async function mailEmailChange(
  tx: Sql,
  context: AuthContext,
  req: IncomingMessage,
  user: { id: string; email: string | null },
  newEmail: string,
  redirectTo: string,
  now: Date,
  challenge?: Challenge,
): Promise<void> {
  const { config, limits } = context
  await checkMailFrequency(tx, user.id, 'email_change', now, config.mailerMaxFrequencySeconds)
  limits.admitMail(now.getTime())
  await tx.query(
    `update auth.users set email_change = $2, email_change_token_current = '', email_change_confirm_status = 0, updated_at = $3
      where id = $1`,
    [user.id, newEmail, now],
  )
  const pkce = challenge !== undefined
  await sendLink(tx, config, req, { id: user.id, address: newEmail }, 'email_change', 'email_change', redirectTo, now, pkce)
  if (config.mailerSecureEmailChange && user.email) {
    await sendLink(tx, config, req, { id: user.id, address: user.email }, 'email_change_current', 'email_change_current', redirectTo, now, pkce)
  }
  if (challenge) awaitPkceLink(context, user.id, 'email_change', challenge, now)
}

/**
 * With secure e-mail change, the first of the two links (whichever) only counts as confirmed, as GoTrue's
 * emailChangeVerify; true if this was that first one, and the change waits for the other.
 */
export async function awaitsOtherConfirmation(tx: Sql, config: ServerConfig, id: string): Promise<boolean> {
  if (!config.mailerSecureEmailChange || config.mailerAutoconfirm) return false
  const { rows } = await tx.query(
    `update auth.users set email_change_confirm_status = 1
      where id = $1 and coalesce(email_change_confirm_status, 0) = 0 and coalesce(email, '') <> '' returning id`,
    [id],
  )
  return rows.length > 0
}
