import type { IncomingMessage } from 'node:http'
import { clock, findUserByEmail, mailLink, redirectTarget, validEmail } from './accounts'
import { badRequest } from './errors'
import { mailEmailChange } from './email-change'
import { address } from './flows'
import { readParams, stringParam } from './params'
import { challengeParams } from './pkce'
import type { AuthContext } from './request-limits'

const RESEND_TYPES = new Set(['signup', 'email_change', 'sms', 'phone_change'])

/**
 * POST /resend: mails again a sign-up confirmation (to an account not yet confirmed) or an e-mail change link (to the
 * pending new address), as GoTrue's Resend. An unknown address, a confirmed account or no pending change get the
 * same `{}` with no mail; phone types are refused as GoTrue refuses them with its phone provider off. A
 * code_challenge makes the new link one of the PKCE flow.
 */
export async function resend(context: AuthContext, req: IncomingMessage, url: URL): Promise<Record<string, never>> {
  const { db, config } = context
  const params = await readParams(req)
  const type = stringParam(params, 'type')
  const rawEmail = stringParam(params, 'email')
  const phone = stringParam(params, 'phone')
  if (!RESEND_TYPES.has(type)) throw badRequest('validation_failed', 'Missing one of these types: signup, email_change, sms, phone_change')
  if (rawEmail === '' && type === 'signup') throw badRequest('validation_failed', 'Type provided requires an email address')
  if (phone === '' && type === 'sms') throw badRequest('validation_failed', 'Type provided requires a phone number')
  if (rawEmail !== '' && phone !== '') throw badRequest('validation_failed', 'Only an email address or phone number should be provided.')
  if (phone !== '') throw badRequest('phone_provider_disabled', 'Phone logins are disabled')
  if (rawEmail === '') throw badRequest('validation_failed', 'Missing email address or phone number')
  const email = validEmail(rawEmail)
  const challenge = challengeParams(params)
  const redirectTo = redirectTarget(config, url.searchParams.get('redirect_to'))
  const now = clock(config)
  await db.transaction(async (tx) => {
    const user = await findUserByEmail(tx, email)
    if (!user) return
    if (type === 'signup' && !user.email_confirmed_at) {
      await mailLink(tx, context, req, address(user), 'signup', 'confirmation', redirectTo, now, challenge)
    }
    if (type === 'email_change' && user.email_change) {
      await mailEmailChange(tx, context, req, user, user.email_change, redirectTo, now, challenge)
    }
  })
  return {}
}
