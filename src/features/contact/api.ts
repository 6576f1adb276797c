import { CONTACT_MESSAGES, type ContactMessage } from './model'

/** The serverless function that delivers contact messages, at its path on the hosting platform. */
export const CONTACT_ENDPOINT = '/.netlify/functions/send-email-contact'

/** A failure whose message can be shown as it is. */
export class ContactSendError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'ContactSendError'
  }
}

async function serverErrorText(response: Response): Promise<string | null> {
  try {
    const body: unknown = await response.json()
    const error = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined
    return typeof error === 'string' && error.trim() !== '' ? error : null
  } catch {
    return null
  }
}

/** Posts the message as JSON; a refusal carries the server's text or SPEC §8's default, anything else the generic one. */
export async function sendContactMessage(message: ContactMessage, fetchImpl: typeof fetch = fetch): Promise<void> {
  let response: Response
  try {
    response = await fetchImpl(CONTACT_ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(message),
    })
  } catch (error) {
    throw new ContactSendError(CONTACT_MESSAGES.unexpected, { cause: error })
  }
  if (!response.ok) throw new ContactSendError((await serverErrorText(response)) ?? CONTACT_MESSAGES.sendFailed)
}
