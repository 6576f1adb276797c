import type { SendMailOptions } from 'nodemailer'
import { describeSmtpError } from '../contact/mail'
import { renderNotification, type OutboxMessage } from './render'
import type { Rpc } from './rpc'

/** What sends one mail: a nodemailer transporter, or a stand-in in tests. */
export interface MailSender {
  sendMail(options: SendMailOptions): Promise<unknown>
}

export interface DispatchOptions {
  /** Database calls with the service role: only it may run the schedule, claim and record. */
  rpc: Rpc
  mailer: MailSender
  /** The pass's time: the schedule's "now" and each attempt's (tests move it; production passes new Date()). */
  now: Date
  from: string
  appUrl: string
  /**
   * The link of an invitation to this address, leading to appUrl's /mot-de-passe: the auth admin API's generateLink
   * with the service role. Made when the mail is sent, so that the link's lifetime starts then, not when it was queued.
   */
  inviteLink: (email: string, redirectTo: string) => Promise<string>
  batchSize?: number
}

export interface DispatchReport {
  /** Recurring campaigns' next occurrences made, and drafts started on their date (run_campaign_schedule). */
  campaignsCreated: number
  campaignsStarted: number
  reminders: number
  escalations: number
  claimed: number
  sent: number
  failed: number
}

// Errors that say the server cannot be reached at all: the rest of the batch would only wait for the same timeout.
const UNREACHABLE = new Set(['ECONNECTION', 'ECONNREFUSED', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ENOTFOUND', 'EHOSTUNREACH'])

/**
 * One pass: enqueue the reminders and escalations due at `now`, claim a batch of due messages (a claim two passes at
 * once never share), send each and record the outcome. A failed send is recorded as such (the database retries it
 * later with a growing wait, and gives up visibly); once the server is unreachable, the batch's remaining messages are
 * recorded failed with the same error without waiting for it again.
 */
export async function dispatchNotifications({ rpc, mailer, now, from, appUrl, inviteLink, batchSize = 50 }: DispatchOptions): Promise<DispatchReport> {
  const at = now.toISOString()
  // The campaigns first: a campaign started here leaves the notice of its start, which the schedule below turns into
  // messages due in this same pass.
  const campaigns = await rpc('run_campaign_schedule', { p_now: at })
  if (campaigns.error) throw new Error(`run_campaign_schedule failed: ${campaigns.error.message}`)
  const { created: campaignsCreated = 0, started: campaignsStarted = 0 } = (campaigns.data ?? {}) as { created?: number; started?: number }
  const scheduled = await rpc('run_notification_schedule', { p_now: at })
  if (scheduled.error) throw new Error(`run_notification_schedule failed: ${scheduled.error.message}`)
  const { reminders = 0, escalations = 0 } = (scheduled.data ?? {}) as { reminders?: number; escalations?: number }

  const claimed = await rpc('claim_notifications', { p_limit: batchSize, p_now: at })
  if (claimed.error) throw new Error(`claim_notifications failed: ${claimed.error.message}`)
  const batch = (claimed.data ?? []) as OutboxMessage[]

  const report: DispatchReport = { campaignsCreated, campaignsStarted, reminders, escalations, claimed: batch.length, sent: 0, failed: 0 }
  let unreachable: string | undefined
  for (const message of batch) {
    let error = unreachable
    let link: string | undefined
    if (!error && message.kind === 'invitation') {
      try {
        link = await inviteLink(message.recipient_email, `${appUrl.replace(/\/+$/, '')}/mot-de-passe`)
      } catch (caught) {
        error = `Échec de la création du lien d'invitation (${caught instanceof Error ? caught.message : String(caught)})`
      }
    }
    if (!error) {
      try {
        const mail = renderNotification(message, appUrl, link)
        await mailer.sendMail({ from, to: message.recipient_email, subject: mail.subject, text: mail.text, html: mail.html })
      } catch (caught) {
        error = `Échec de l'envoi SMTP (${describeSmtpError(caught)})`
        if (UNREACHABLE.has(String((caught as { code?: unknown }).code))) unreachable = error
      }
    }
    const finished = await rpc('finish_notification', { p_id: message.id, p_ok: !error, p_error: error ?? null, p_now: at })
    if (finished.error) throw new Error(`finish_notification failed: ${finished.error.message}`)
    if (error) report.failed += 1
    else report.sent += 1
  }
  return report
}
