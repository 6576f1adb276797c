/** The contact form's data and SPEC §5's rules, with SPEC §8's messages. */
export interface ContactMessage {
  name: string
  email: string
  subject: string
  message: string
  /** The honeypot: hidden from people, so only a robot fills it in, and the function then sends nothing. */
  website: string
}

export const EMPTY_CONTACT_MESSAGE: ContactMessage = { name: '', email: '', subject: '', message: '', website: '' }

export const CONTACT_MESSAGES = {
  required: 'Tous les champs sont obligatoires.',
  invalidEmail: 'Veuillez entrer une adresse email valide.',
  sendFailed: "Erreur lors de l'envoi du message.",
  unexpected: "Une erreur s'est produite.",
} as const

/** The message to show, or null when the form may be sent. */
export function validateContactMessage(input: ContactMessage): string | null {
  const values = [input.name, input.email, input.subject, input.message]
  if (values.some((value) => value.trim() === '')) return CONTACT_MESSAGES.required
  if (!input.email.includes('@')) return CONTACT_MESSAGES.invalidEmail
  return null
}
