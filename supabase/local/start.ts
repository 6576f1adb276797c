/**
 * `npm start`: the local backend (in-memory demo data) on 127.0.0.1:54321, the mail catcher that receives the contact
 * form's messages and the notifications (page on 54324), the notifications' pass every 30 seconds, and Vite on
 * 127.0.0.1:5173 pointed at the backend. Needs no .env and no network. One Ctrl-C stops them all.
 */
import type { ViteDevServer } from 'vite'
import { startNotificationInterval } from '../../netlify/functions/notifications/interval'
import { passSettingsFromEnv } from '../../netlify/functions/notifications/run'
import { startDevApp } from './dev-app'
import { DEMO_TOTP_SECRETS } from '../../src/pages/login/demo-accounts'
import { DEV_SECRET_KEY } from './keys'
import { DEFAULT_SMTP_PORT } from './mail/catcher'
import { startLocalBackend, startMailCatcher, type LocalBackend } from './processes'

const BACKEND_PORT = 54321
const APP_PORT = 5173
const APP_URL = `http://127.0.0.1:${APP_PORT}`
const MAIL_URL = 'http://127.0.0.1:54324'
// Netlify runs the pass every 10 minutes; locally a short interval shows a campaign's mails soon after it starts.
const NOTIFICATION_INTERVAL_MS = 30_000
const DEMO_ACCOUNTS = [
  ['user@example.com', 'Utilisateur'],
  ['manager@example.com', 'Manager'],
  ['bpo@example.com', 'BPO Métier'],
  ['bpo.groupe@example.com', 'BPO Groupe'],
  ['ra@example.com', "Responsable d'Application"],
  ['admin@example.com', 'Administrateur'],
  ['rssi@example.com', 'RSSI'],
] as const

async function main(): Promise<void> {
  console.info('Starting the local backend and the mail catcher…')
  // The auth API's e-mails (invitations, password recovery) land in the mail catcher, as the contact form's do.
  process.env.AUTH_SMTP_URL ??= `smtp://127.0.0.1:${DEFAULT_SMTP_PORT}`
  // They only reach the catcher: config.toml's email_sent (2 an hour) applies only with a custom SMTP server, so the
  // Supabase CLI's stack keeps GoTrue's own default, 30 an hour, and so does this one.
  process.env.AUTH_RATE_LIMIT_EMAIL_SENT ??= '30'
  const [backendStart, mailStart] = await Promise.allSettled([
    startLocalBackend({ port: BACKEND_PORT, onLine: (line) => console.info(`  [backend] ${line}`) }),
    startMailCatcher({ onLine: (line) => console.info(`  [mail] ${line}`) }),
  ])
  if (backendStart.status === 'rejected' || mailStart.status === 'rejected') {
    await Promise.allSettled([backendStart, mailStart].map((start) => (start.status === 'fulfilled' ? start.value.stop() : null)))
    throw [backendStart, mailStart].map((start) => (start.status === 'rejected' ? start.reason : null)).find(Boolean)
  }
  const backend = backendStart.value
  const mail = mailStart.value

  let vite: ViteDevServer
  try {
    vite = await startDevApp({ backendUrl: backend.url, port: APP_PORT })
  } catch (error) {
    await Promise.allSettled([backend.stop(), mail.stop()])
    throw error
  }

  // The scheduled function's pass, in this process, against this backend with its development service key, into the
  // mail catcher. Real SMTP_URL, NOTIFICATIONS_FROM or APP_URL variables win.
  const notificationSettings = passSettingsFromEnv({
    SMTP_URL: `smtp://127.0.0.1:${DEFAULT_SMTP_PORT}`,
    NOTIFICATIONS_FROM: 'Recertif <no-reply@recertif.local>',
    APP_URL,
    ...process.env,
    SUPABASE_URL: backend.url,
    SUPABASE_SECRET_KEY: DEV_SECRET_KEY,
  })
  if (!notificationSettings.ok) throw new Error(`Notifications: ${notificationSettings.problems.join('; ')}`)
  const notifications = startNotificationInterval(notificationSettings, NOTIFICATION_INTERVAL_MS, (outcome) => {
    if ('error' in outcome) console.error(`  [notifications] pass failed: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}`)
    else if (outcome.report.claimed > 0) console.info(`  [notifications] ${outcome.report.sent} sent, ${outcome.report.failed} failed`)
  })

  printBanner(backend)
  let stopping = false
  const shutdown = async (code: number) => {
    if (stopping) return
    stopping = true
    console.info('\nStopping…')
    // The pass first: it talks to the backend and the mail catcher.
    await notifications.stop()
    await Promise.allSettled([vite.close(), backend.stop(), mail.stop()])
    process.exit(code)
  }
  // Ctrl-C reaches the children too (same process group); they stop themselves, and this waits for them.
  process.on('SIGINT', () => void shutdown(0))
  process.on('SIGTERM', () => void shutdown(0))
  for (const [name, child] of [['local backend', backend], ['mail catcher', mail]] as const) {
    void child.exited.then((code) => {
      if (stopping) return
      // Code 0 is a child that was told to stop: Ctrl-C may reach it before tsx relays it here.
      if (code !== 0) console.error(`The ${name} stopped unexpectedly (code ${code}).`)
      void shutdown(code === 0 ? 0 : 1)
    })
  }
}

function totpHint(email: string): string {
  const secret = (DEMO_TOTP_SECRETS as Record<string, string>)[email]
  return secret ? `  (TOTP secret ${secret})` : ''
}

function printBanner(backend: LocalBackend): void {
  console.info(`
Recertif is running.
  App:      ${APP_URL}
  Backend:  ${backend.url} (in-memory demo data, reset at each start)
  E-mails:  ${MAIL_URL} (messages sent by the contact form, the auth API and the notifications, every ${NOTIFICATION_INTERVAL_MS / 1000} s)

Demo accounts, all with the password Demo1234!
${DEMO_ACCOUNTS.map(([email, role]) => `  ${email.padEnd(24)} ${role}${totpHint(email)}`).join('\n')}
The administrator and the RSSI confirm each sign-in with a TOTP code: add their secret to any authenticator app,
or read the current code on the login page's demo panel.

Press Ctrl-C to stop.`)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
