import nodemailer from 'nodemailer'
import { smtpTransportFromEnv } from '../contact/mail-config'
import { secretKeyFromEnv, supabaseUrlFromEnv } from '../lib/supabase-env'
import { serverClient } from '../lib/supabase-server'
import { dispatchNotifications, type DispatchReport } from './dispatch'
import { restRpc } from './rpc'

export type PassSettings =
  | { ok: true; url: string; serviceKey: string; from: string; appUrl: string; transport: NonNullable<ReturnType<typeof smtpTransportFromEnv>> }
  | { ok: false; problems: string[] }

/**
 * The pass's settings from the environment: SUPABASE_URL and SUPABASE_SECRET_KEY (server side only; the legacy
 * SUPABASE_SERVICE_ROLE_KEY still read), the contact
 * form's SMTP variables, the sender (NOTIFICATIONS_FROM, else CONTACT_FROM) and APP_URL, the app's address for the links
 * (Netlify's URL when unset, else the fallback given). The problems name variables, never their values.
 */
export function passSettingsFromEnv(env: NodeJS.ProcessEnv, appUrlFallback?: string): PassSettings {
  const problems: string[] = []
  const url = supabaseUrlFromEnv(env)
  const serviceKey = secretKeyFromEnv(env)
  const from = (env.NOTIFICATIONS_FROM ?? env.CONTACT_FROM)?.trim()
  const appUrl = (env.APP_URL ?? env.URL ?? appUrlFallback)?.trim()
  if (!url) problems.push('SUPABASE_URL is not set')
  if (!serviceKey) problems.push('SUPABASE_SECRET_KEY is not set')
  if (!from) problems.push('neither NOTIFICATIONS_FROM nor CONTACT_FROM is set')
  if (!appUrl) problems.push('APP_URL is not set')
  const transport = smtpTransportFromEnv(env, problems)
  if (problems.length > 0 || !url || !serviceKey || !from || !appUrl || !transport) return { ok: false, problems }
  return { ok: true, url, serviceKey, from, appUrl, transport }
}

/**
 * One delivery pass with the service role and a fresh SMTP connection, closed afterwards. An invitation's link is
 * Supabase Auth's own (GoTrue's invite: the account is made if needed, the token expires and serves once), asked of
 * the admin API instead of letting GoTrue mail it, so that the mail is ours, in French, and goes through the outbox.
 */
export async function runNotificationPass(settings: Extract<PassSettings, { ok: true }>, now = new Date(), batchSize?: number): Promise<DispatchReport> {
  const mailer = nodemailer.createTransport(settings.transport)
  const admin = serverClient(settings.url, settings.serviceKey)
  const inviteLink = async (email: string, redirectTo: string) => {
    const { data, error } = await admin.auth.admin.generateLink({ type: 'invite', email, options: { redirectTo } })
    if (error) throw new Error(error.code ? `${error.code}: ${error.message}` : error.message)
    return data.properties.action_link
  }
  try {
    return await dispatchNotifications({ rpc: restRpc(settings.url, settings.serviceKey), mailer, now, from: settings.from, appUrl: settings.appUrl, inviteLink, batchSize })
  } finally {
    mailer.close()
  }
}
