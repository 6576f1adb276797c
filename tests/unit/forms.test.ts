import { CONTACT_ENDPOINT, ContactSendError, sendContactMessage } from '@/features/contact/api'
import { validateContactMessage } from '@/features/contact/model'
import { validateLogin } from '@/pages/login/login-schema'
import { oauthErrorMessage, readOAuthCallback } from '@/pages/oauth-errors'

const message = { name: 'Marc', email: 'marc@example.com', subject: 'Démo', message: 'Bonjour', website: '' }

describe('login validation', () => {
  it('gives one French message per field', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({
      ok: false,
      errors: { email: "L'adresse e-mail est obligatoire.", password: 'Le mot de passe est obligatoire.' },
    })
    expect(validateLogin({ email: 'marc@', password: 'x' })).toEqual({
      ok: false,
      errors: { email: 'Veuillez saisir une adresse e-mail valide.' },
    })
  })

  it('trims the e-mail', () => {
    expect(validateLogin({ email: ' marc@example.com ', password: 'x' })).toEqual({ ok: true, values: { email: 'marc@example.com', password: 'x' } })
  })
})

describe('contact validation', () => {
  it('requires every field, then an @', () => {
    expect(validateContactMessage({ ...message, subject: ' ' })).toBe('Tous les champs sont obligatoires.')
    expect(validateContactMessage({ ...message, email: 'marc' })).toBe('Veuillez entrer une adresse email valide.')
    expect(validateContactMessage(message)).toBeNull()
  })
})

describe('sendContactMessage', () => {
  it('posts the message as JSON to the contact function', async () => {
    const fetchImpl = vi.fn(async () => new Response('{"ok":true}', { status: 200 }))
    await sendContactMessage(message, fetchImpl)
    expect(fetchImpl).toHaveBeenCalledWith('/.netlify/functions/send-email-contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(message),
    })
    expect(CONTACT_ENDPOINT).toBe('/.netlify/functions/send-email-contact')
  })

  it("rejects with the server's error text, or SPEC's default", async () => {
    const refused = async () => new Response('{"error":"Adresse refusée."}', { status: 400 })
    const silent = async () => new Response('oops', { status: 502 })
    await expect(sendContactMessage(message, refused)).rejects.toThrow(new ContactSendError('Adresse refusée.'))
    await expect(sendContactMessage(message, silent)).rejects.toThrow("Erreur lors de l'envoi du message.")
  })

  it('rejects with the generic message when the request fails', async () => {
    await expect(sendContactMessage(message, async () => Promise.reject(new TypeError('offline')))).rejects.toThrow("Une erreur s'est produite.")
  })
})

describe('OAuth callback', () => {
  it('reads the code, or an error from the query or the fragment', () => {
    expect(readOAuthCallback('?code=abc', '')).toEqual({ code: 'abc', error: null, errorDescription: null })
    expect(readOAuthCallback('', '#error=access_denied&error_description=denied')).toEqual({
      code: null,
      error: 'access_denied',
      errorDescription: 'denied',
    })
  })

  it('words known provider errors in French, naming the provider when known, and others generically', () => {
    expect(oauthErrorMessage('access_denied', 'Google')).toBe('La connexion avec Google a été annulée ou refusée.')
    expect(oauthErrorMessage('access_denied', 'Microsoft')).toBe('La connexion avec Microsoft a été annulée ou refusée.')
    expect(oauthErrorMessage('access_denied', null)).toBe('La connexion a été annulée ou refusée.')
    expect(oauthErrorMessage('something_else', 'Microsoft')).toBe('La connexion avec Microsoft a échoué.')
    expect(oauthErrorMessage('constructor', null)).toBe('La connexion a échoué.')
  })
})
