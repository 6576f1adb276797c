import { z } from 'zod'

export interface ContactMessage {
  name: string
  email: string
  subject: string
  message: string
}

export const LIMITS = { name: 100, email: 254, subject: 200, message: 5000 } as const

export const MESSAGES = {
  required: 'Tous les champs sont obligatoires.',
  email: 'Veuillez entrer une adresse email valide.',
  lineBreak: "Le nom, l'adresse email et l'objet ne doivent pas contenir de retour à la ligne.",
  name: `Le nom ne doit pas dépasser ${LIMITS.name} caractères.`,
  emailLength: `L'adresse email ne doit pas dépasser ${LIMITS.email} caractères.`,
  subject: `L'objet ne doit pas dépasser ${LIMITS.subject} caractères.`,
  message: `Le message ne doit pas dépasser ${LIMITS.message} caractères.`,
} as const

/** A hidden form field that people leave empty and form-filling robots do not. */
export const HONEYPOT_FIELD = 'website'

const field = (max: number, tooLong: string) => z.string({ error: MESSAGES.required }).trim().min(1, MESSAGES.required).max(max, tooLong)

// A line break in a value that ends up in a mail header would let the sender add headers of their own.
const singleLine = (max: number, tooLong: string) => field(max, tooLong).refine((value) => !/[\r\n]/.test(value), MESSAGES.lineBreak)

const contactSchema = z.object(
  {
    name: singleLine(LIMITS.name, MESSAGES.name),
    email: singleLine(LIMITS.email, MESSAGES.emailLength).pipe(z.email(MESSAGES.email)),
    subject: singleLine(LIMITS.subject, MESSAGES.subject),
    message: field(LIMITS.message, MESSAGES.message),
  },
  { error: MESSAGES.required },
)

// One message is shown, and the contact page checks in this order too: an empty field before a bad address.
const PRIORITY: readonly string[] = [
  MESSAGES.required,
  MESSAGES.lineBreak,
  MESSAGES.email,
  MESSAGES.name,
  MESSAGES.emailLength,
  MESSAGES.subject,
  MESSAGES.message,
]

export type Validation = { ok: true; value: ContactMessage } | { ok: false; error: string }

export function validateContact(input: unknown): Validation {
  const result = contactSchema.safeParse(input)
  if (result.success) return { ok: true, value: result.data }
  const found = new Set(result.error.issues.map((issue) => issue.message))
  return { ok: false, error: PRIORITY.find((message) => found.has(message)) ?? MESSAGES.required }
}

export function isHoneypotFilled(input: unknown): boolean {
  if (typeof input !== 'object' || input === null) return false
  const value: unknown = (input as Record<string, unknown>)[HONEYPOT_FIELD]
  if (value === undefined || value === null) return false
  return typeof value !== 'string' || value.trim() !== ''
}
