import type { Config } from '@netlify/functions'
import { passSettingsFromEnv, runNotificationPass } from './notifications/run'

/*
 * The scheduled pass (Netlify Scheduled Function, every 10 minutes): makes the recurring campaigns' next occurrences
 * and starts the drafts whose date has come (run_campaign_schedule), enqueues the reminders and
 * escalations due, then sends a batch of due messages from the outbox by SMTP and records each outcome
 * (netlify/functions/notifications/dispatch.ts). Netlify invokes it on the schedule only; "Envoyer maintenant" goes
 * through notifications-send, which checks the caller. Logs give counts, never addresses or contents.
 */
export default async (): Promise<Response> => {
  const settings = passSettingsFromEnv(process.env)
  if (!settings.ok) {
    console.error(`notifications: not configured: ${settings.problems.join('; ')}`)
    return new Response(null, { status: 500 })
  }
  try {
    const report = await runNotificationPass(settings)
    console.info(`notifications: ${JSON.stringify(report)}`)
    return new Response(null, { status: 204 })
  } catch (error) {
    // The database could not be reached or refused a call: the messages stay queued for the next run.
    console.error(`notifications: the pass failed: ${error instanceof Error ? error.message : String(error)}`)
    return new Response(null, { status: 500 })
  }
}

export const config: Config = { schedule: '*/10 * * * *' }
