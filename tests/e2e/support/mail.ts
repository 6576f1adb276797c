import { expect, inject } from 'vitest'
import { passSettingsFromEnv, runNotificationPass } from '../../../netlify/functions/notifications/run'
import { DEV_SECRET_KEY } from '../../../supabase/local/keys'
import type { CaughtMessage } from '../../../supabase/local/mail/message'

/** Every message the run's mail catcher holds. */
export async function mailbox(): Promise<CaughtMessage[]> {
  return (await (await fetch(`${inject('mailboxUrl')}/api/messages`)).json()) as CaughtMessage[]
}

export async function mailsTo(address: string): Promise<CaughtMessage[]> {
  return (await mailbox()).filter((mail) => mail.envelope.to.includes(address))
}

/**
 * Runs the notification pass, as the scheduled function would at this moment, until nothing due is left: the
 * journeys share one backend, and a directory import queues thousands of invitations that another journey's message
 * would otherwise wait behind. Largest batches, and a bound on the passes so that a stuck outbox fails the test.
 */
export async function deliverOutbox(): Promise<number> {
  // The global setup points SMTP_URL at this run's mail catcher; links lead to this run's app.
  const settings = passSettingsFromEnv({
    SUPABASE_URL: inject('backendUrl'),
    SUPABASE_SECRET_KEY: DEV_SECRET_KEY,
    SMTP_URL: process.env.SMTP_URL,
    NOTIFICATIONS_FROM: 'Recertif <no-reply@recertif.example>',
    APP_URL: inject('appUrl'),
  })
  if (!settings.ok) throw new Error(settings.problems.join('; '))
  let sent = 0
  for (let pass = 0; pass < 20; pass += 1) {
    const report = await runNotificationPass(settings, new Date(), 500)
    sent += report.sent
    if (report.claimed === 0) return sent
  }
  throw new Error('the outbox still had messages due after 20 passes of 500')
}

/** The link of the invitation mailed to this address. */
export function invitationLink(mail: CaughtMessage): string {
  expect(mail.subject).toBe('Votre accès à Recertif : choisissez votre mot de passe')
  const link = /Choisir mon mot de passe : (\S+)/.exec(mail.text)?.[1]
  if (!link) throw new Error(`no link in the invitation to ${mail.envelope.to.join(', ')}`)
  return link
}
