import nodemailer, { type SendMailOptions } from 'nodemailer'
import type { MailConfig } from './mail-config'
import type { ContactMessage } from './validation'

/** The provider's copy: plain text only, so nothing the visitor typed is ever rendered as markup. */
export function buildContactMail(message: ContactMessage, config: Pick<MailConfig, 'from' | 'to'>): SendMailOptions {
  return {
    from: config.from,
    to: config.to,
    replyTo: { name: message.name, address: message.email },
    subject: `[Recertif] Contact : ${message.subject}`,
    text: [
      'Nouveau message envoyé depuis le formulaire de contact de Recertif.',
      '',
      `Nom : ${message.name}`,
      `Email : ${message.email}`,
      `Objet : ${message.subject}`,
      '',
      message.message,
      '',
    ].join('\n'),
  }
}

export async function sendContactMail(message: ContactMessage, config: MailConfig): Promise<void> {
  const transporter = nodemailer.createTransport(config.transport)
  try {
    await transporter.sendMail(buildContactMail(message, config))
  } finally {
    transporter.close()
  }
}

/**
 * What a log line may say about a failed delivery: the error's code and the SMTP command and reply code,
 * never the server's reply text, which can quote the message.
 */
export function describeSmtpError(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'unknown error'
  const { code, command, responseCode } = error as { code?: unknown; command?: unknown; responseCode?: unknown }
  const parts = [`code=${String(code ?? 'none')}`]
  if (command !== undefined) parts.push(`command=${String(command)}`)
  if (responseCode !== undefined) parts.push(`responseCode=${String(responseCode)}`)
  return parts.join(' ')
}
