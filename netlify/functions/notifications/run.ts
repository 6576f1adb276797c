import nodemailer from 'nodemailer'
import { smtpTransportFromEnv } from '../contact/mail-config'
import { dispatchNotifications, type DispatchReport } from './dispatch'
import { restRpc } from './rpc'

export type PassSettings =
  | { ok: true; url: string; serviceKey: string; from: string; appUrl: string; transport: NonNullable<ReturnType<typeof smtpTransportFromEnv>> }
  | { ok: false; problems: string[] }

/**
 * The pass's settings from the environment: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (server side only), the contact
 * form's SMTP variables, the sender (NOTIFICATIONS_FROM, else CONTACT_FROM) and APP_URL, the app's address for the links
 * (Netlify's URL when unset, else the fallback given). The problems name variables, never their values.
 */
export function passSettingsFromEnv(env: NodeJS.ProcessEnv, appUrlFallback?: string): PassSettings {
  const problems: string[] = []
  const url = (env.SUPABASE_URL ?? env.VITE_SUPABASE_URL)?.trim()
  const serviceKey = env.SUPABASE_SERVICE_ROLE_KEY?.trim()
  const from = (env.NOTIFICATIONS_FROM ?? env.CONTACT_FROM)?.trim()
  const appUrl = (env.APP_URL ?? env.URL ?? appUrlFallback)?.trim()
  if (!url) problems.push('SUPABASE_URL is not set')
  if (!serviceKey) problems.push('SUPABASE_SERVICE_ROLE_KEY is not set')
  if (!from) problems.push('neither NOTIFICATIONS_FROM nor CONTACT_FROM is set')
  if (!appUrl) problems.push('APP_URL is not set')
  const transport = smtpTransportFromEnv(env, problems)
  if (problems.length > 0 || !url || !serviceKey || !from || !appUrl || !transport) return { ok: false, problems }
  return { ok: true, url, serviceKey, from, appUrl, transport }
}

/** One delivery pass with the service role and a fresh SMTP connection, closed afterwards. */
export async function runNotificationPass(settings: Extract<PassSettings, { ok: true }>, now = new Date()): Promise<DispatchReport> {
  const mailer = nodemailer.createTransport(settings.transport)
  try {
    return await dispatchNotifications({ rpc: restRpc(settings.url, settings.serviceKey), mailer, now, from: settings.from, appUrl: settings.appUrl })
  } finally {
    mailer.close()
  }
}
