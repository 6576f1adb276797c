import type { SMTPTransportOptions } from 'nodemailer'

export interface MailConfig {
  transport: SMTPTransportOptions
  /** CONTACT_FROM: the sender, an address the SMTP server lets us send as. */
  from: string
  /** CONTACT_TO: the provider's mailbox. */
  to: string
}

export type MailConfigResult = { ok: true; config: MailConfig } | { ok: false; problems: string[] }

// Netlify ends a synchronous function after 10 s by default: give up on a slow server before that and answer.
const TIMEOUTS = { connectionTimeout: 4000, greetingTimeout: 3000, socketTimeout: 6000 } as const

/**
 * Reads the SMTP settings: SMTP_URL (smtp:// or smtps://, credentials included), or SMTP_HOST with SMTP_PORT,
 * SMTP_SECURE, SMTP_USER and SMTP_PASSWORD. The problems name variables, never their values.
 */
export function mailConfigFromEnv(env: NodeJS.ProcessEnv): MailConfigResult {
  const problems: string[] = []
  const from = env.CONTACT_FROM?.trim()
  const to = env.CONTACT_TO?.trim()
  if (!to) problems.push('CONTACT_TO is not set')
  if (!from) problems.push('CONTACT_FROM is not set')
  const transport = smtpTransportFromEnv(env, problems)
  if (problems.length > 0 || !transport || !from || !to) return { ok: false, problems }
  return { ok: true, config: { transport, from, to } }
}

/**
 * The SMTP server alone, with its timeouts, for every function that sends mail (the contact form, the notifications):
 * adds what is wrong to problems.
 */
export function smtpTransportFromEnv(env: NodeJS.ProcessEnv, problems: string[]): SMTPTransportOptions | undefined {
  const transport = transportFromEnv(env, problems)
  return transport && { ...transport, ...TIMEOUTS }
}

function transportFromEnv(env: NodeJS.ProcessEnv, problems: string[]): SMTPTransportOptions | undefined {
  const url = env.SMTP_URL?.trim()
  if (url) {
    if (!/^smtps?:\/\//i.test(url)) problems.push('SMTP_URL must start with smtp:// or smtps://')
    return { url }
  }
  const host = env.SMTP_HOST?.trim()
  if (!host) {
    problems.push('neither SMTP_URL nor SMTP_HOST is set')
    return undefined
  }
  const secure = /^(true|1|yes)$/i.test(env.SMTP_SECURE?.trim() ?? '')
  const port = env.SMTP_PORT?.trim() ? Number(env.SMTP_PORT) : secure ? 465 : 587
  if (!Number.isInteger(port) || port < 1 || port > 65535) problems.push('SMTP_PORT is not a valid port number')
  const user = env.SMTP_USER?.trim()
  if (user && !env.SMTP_PASSWORD) problems.push('SMTP_USER is set without SMTP_PASSWORD')
  return { host, port, secure, ...(user ? { auth: { user, pass: env.SMTP_PASSWORD ?? '' } } : {}) }
}
