import nodemailer from 'nodemailer'
import type { ServerConfig } from '../context'
import { AuthError } from './errors'

/** The e-mails GoTrue's mailer sends, each with the verification type its link carries. */
export type MailKind = 'signup' | 'invite' | 'magiclink' | 'recovery' | 'email_change' | 'email_change_current' | 'reauthentication'

const SENDER = 'Recertif <no-reply@recertif.example>'

// French texts, as the product speaks French; GoTrue's templates are the project's to write.
const TEMPLATES: Record<MailKind, { subject: string; intro: string; action: string }> = {
  signup: {
    subject: 'Confirmez votre adresse e-mail',
    intro: 'Bienvenue sur Recertif. Confirmez votre adresse e-mail pour activer votre compte.',
    action: 'Confirmer mon adresse',
  },
  invite: {
    subject: 'Vous êtes invité sur Recertif',
    intro: 'Vous avez été invité à rejoindre Recertif. Acceptez l’invitation pour créer votre accès.',
    action: 'Accepter l’invitation',
  },
  magiclink: {
    subject: 'Votre lien de connexion',
    intro: 'Voici votre lien de connexion à Recertif.',
    action: 'Me connecter',
  },
  recovery: {
    subject: 'Réinitialisez votre mot de passe',
    intro: 'Une réinitialisation du mot de passe de votre compte Recertif a été demandée.',
    action: 'Choisir un nouveau mot de passe',
  },
  email_change: {
    subject: 'Confirmez votre nouvelle adresse e-mail',
    intro: 'Confirmez cette adresse pour qu’elle remplace l’ancienne sur votre compte Recertif.',
    action: 'Confirmer la nouvelle adresse',
  },
  email_change_current: {
    subject: 'Confirmez le changement de votre adresse e-mail',
    intro: 'Un changement de l’adresse e-mail de votre compte Recertif a été demandé. Confirmez-le depuis cette adresse.',
    action: 'Confirmer le changement',
  },
  // A code alone, as GoTrue's reauthentication mail: it is typed where the password is changed.
  reauthentication: {
    subject: 'Confirmez votre identité',
    intro: 'Pour changer le mot de passe de votre compte Recertif, confirmez qu’il s’agit bien de vous.',
    action: '',
  },
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * Sends one auth e-mail with its link (none for a reauthentication) and its six-digit code; a delivery failure is
 * GoTrue's 500. Without an SMTP server configured, GoTrue's mailer drops its mail, and so does this one, saying so.
 */
export async function sendAuthMail(config: ServerConfig, kind: MailKind, to: string, link: string | undefined, otp: string): Promise<void> {
  if (!config.smtpUrl) {
    console.info(`auth: no SMTP server configured, the ${kind} e-mail to ${to} is not sent`)
    return
  }
  const template = TEMPLATES[kind]
  const ignore = 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message.'
  const codeLabel = link ? 'Ou saisissez ce code' : 'Saisissez ce code'
  const transport = nodemailer.createTransport({ url: config.smtpUrl })
  try {
    await transport.sendMail({
      from: SENDER,
      to,
      subject: template.subject,
      text: `${template.intro}\n\n${link ? `${template.action} : ${link}\n\n` : ''}${codeLabel} : ${otp}\n\n${ignore}\n`,
      html:
        `<p>${escapeHtml(template.intro)}</p>` +
        (link ? `<p><a href="${escapeHtml(link)}">${escapeHtml(template.action)}</a></p>` : '') +
        `<p>${codeLabel} : <strong>${otp}</strong></p><p>${escapeHtml(ignore)}</p>`,
    })
  } catch (error) {
    console.warn(`auth: sending the ${kind} e-mail failed: ${(error as Error).message}`)
    throw new AuthError(500, 'unexpected_failure', `Error sending ${kind === 'signup' ? 'confirmation' : kind} email`)
  } finally {
    transport.close()
  }
}
