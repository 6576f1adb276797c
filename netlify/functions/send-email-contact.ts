import type { Context } from '@netlify/functions'
import { describeSmtpError, sendContactMail } from './contact/mail'
import { mailConfigFromEnv } from './contact/mail-config'
import { RateLimiter, clientIp, rateLimitKey } from './contact/rate-limit'
import { isHoneypotFilled, validateContact } from './contact/validation'

/*
 * The contact form's endpoint: POST /.netlify/functions/send-email-contact with JSON {name, email, subject,
 * message}. Logs say what happened in English and never carry what the visitor wrote.
 */

// Per function instance: every warm Netlify instance counts on its own and a cold start forgets, so this
// slows a single abuser down rather than enforcing an exact site-wide quota. (`netlify dev` loads the function
// afresh for every request, so it never limits there; `npm start` and the tests keep one instance.)
const limiter = new RateLimiter(5, 10 * 60 * 1000)

const ERRORS = {
  method: 'Méthode non autorisée.',
  contentType: 'Le contenu doit être envoyé au format JSON.',
  json: "Le contenu de la requête n'est pas un JSON valide.",
  tooMany: 'Trop de messages envoyés. Veuillez réessayer dans quelques minutes.',
  notConfigured: "L'envoi de messages est momentanément indisponible. Veuillez réessayer plus tard.",
  delivery: "Le message n'a pas pu être envoyé. Veuillez réessayer plus tard.",
} as const

export default async (request: Request, context: Context): Promise<Response> => {
  if (request.method !== 'POST') return answer(405, { error: ERRORS.method }, { Allow: 'POST' })

  const decision = limiter.hit(rateLimitKey(clientIp(request, context.ip)))
  if (!decision.allowed) {
    console.warn('contact: rate limit reached, request refused')
    return answer(429, { error: ERRORS.tooMany }, { 'Retry-After': String(decision.retryAfterSeconds) })
  }

  const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase()
  if (mediaType !== 'application/json') return answer(415, { error: ERRORS.contentType })
  let body: unknown
  try {
    body = await request.json()
  } catch {
    return answer(400, { error: ERRORS.json })
  }

  if (isHoneypotFilled(body)) {
    console.info('contact: honeypot field filled, message dropped')
    return answer(200, { success: true })
  }
  const validation = validateContact(body)
  if (!validation.ok) return answer(400, { error: validation.error })

  const mail = mailConfigFromEnv(process.env)
  if (!mail.ok) {
    console.error(`contact: mail delivery is not configured: ${mail.problems.join('; ')}`)
    return answer(500, { error: ERRORS.notConfigured })
  }
  try {
    await sendContactMail(validation.value, mail.config)
  } catch (error) {
    console.error(`contact: SMTP delivery failed (${describeSmtpError(error)})`)
    return answer(502, { error: ERRORS.delivery })
  }
  return answer(200, { success: true })
}

function answer(status: number, body: { error: string } | { success: true }, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } })
}
