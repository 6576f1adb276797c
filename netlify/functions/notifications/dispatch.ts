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
export async function dispatchNotifications({ rpc, mailer, now, from, appUrl, batchSize = 50 }: DispatchOptions): Promise<DispatchReport> {
  const at = now.toISOString()
  // The campaigns first: a campaign started here writes its start's messages, which this same pass then sends.
  const campaigns = await rpc('run_campaign_schedule', { p_now: at })
  if (campaigns.error) throw new Error(`run_campaign_schedule failed: ${campaigns.error.message}`)
  const { created: campaignsCreated = 0, started: campaignsStarted = 0 } = (campaigns.data ?? {}) as { created?: number; started?: number }
  const scheduled = await rpc('run_notification_schedule', { p_now: at })
  if (scheduled.error) throw new Error(`run_notification_schedule failed: ${scheduled.error.message}`)
  const { reminders = 0, escalations = 0 } = (scheduled.data ?? {}) as { reminders?: number; escalations?: number }

  // A campaign started above wrote its messages at the database's present, a moment after `now`: they are due too.
  const claimAt = campaignsStarted > 0 ? new Date(Math.max(now.getTime(), Date.now())).toISOString() : at
  const claimed = await rpc('claim_notifications', { p_limit: batchSize, p_now: claimAt })
  if (claimed.error) throw new Error(`claim_notifications failed: ${claimed.error.message}`)
  const batch = (claimed.data ?? []) as OutboxMessage[]

  const report: DispatchReport = { campaignsCreated, campaignsStarted, reminders, escalations, claimed: batch.length, sent: 0, failed: 0 }
  let unreachable: string | undefined
  for (const message of batch) {
    let error = unreachable
    if (!error) {
      try {
        const mail = renderNotification(message, appUrl)
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
