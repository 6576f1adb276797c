import http, { type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { format } from 'node:util'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createFunctionsMiddleware } from '../../netlify/dev/functions-middleware'
import { RateLimiter, rateLimitKey } from '../../netlify/functions/contact/rate-limit'
import { LIMITS, MESSAGES } from '../../netlify/functions/contact/validation'
import { startMailCatcher, type MailCatcher } from '../../supabase/local/mail/catcher'

// The function runs behind the same Node-to-WHATWG bridge as under `npm start`, over real HTTP, and delivers
// over real SMTP to the local mail catcher. Every request comes from its own loopback address (127.0.0.x), so
// the per-IP rate limit only meets the tests that aim at it.

const ENDPOINT = '/.netlify/functions/send-email-contact'
const CONTACT_TO = 'support@prestataire.example'
const CONTACT_FROM = 'Recertif <no-reply@recertif.example>'
const SECRET_TEXT = 'corps-confidentiel-5c1e'

let catcher: MailCatcher
let server: http.Server
let baseUrl: string
let logs: string[] = []
let nextClient = 10

function visitor(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Élodie Durand',
    email: 'elodie.durand@client.example',
    subject: 'Question sur la campagne de revue',
    message: `Bonjour,\nPouvez-vous me rappeler ? ${SECRET_TEXT}\nMerci, ça presse.`,
    ...overrides,
  }
}

interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: unknown
}

function call(options: { method?: string; body?: string; contentType?: string | null; from?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const { method = 'POST', body, contentType = 'application/json', from = `127.0.0.${nextClient++}` } = options
  const url = new URL(ENDPOINT, baseUrl)
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, localAddress: from, headers: { ...(contentType ? { 'Content-Type': contentType } : {}), ...options.headers } },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text ? JSON.parse(text) : undefined }))
      },
    )
    request.on('error', reject)
    request.end(body)
  })
}

const post = (payload: unknown, from?: string) => call({ body: JSON.stringify(payload), from })

function setEnv(values: Record<string, string | undefined>): void {
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
}

async function withEnv<T>(overrides: Record<string, string | undefined>, run: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(overrides).map((key) => [key, process.env[key]]))
  setEnv(overrides)
  try {
    return await run()
  } finally {
    setEnv(before)
  }
}

let savedEnv: Record<string, string | undefined>

beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: 0, webPort: 0 })
  const testEnv = {
    SMTP_URL: catcher.smtpUrl,
    CONTACT_TO,
    CONTACT_FROM,
    ...Object.fromEntries(['SMTP_HOST', 'SMTP_PORT', 'SMTP_USER', 'SMTP_PASSWORD', 'SMTP_SECURE'].map((key) => [key, undefined])),
  }
  savedEnv = Object.fromEntries(Object.keys(testEnv).map((key) => [key, process.env[key]]))
  setEnv(testEnv)

  const middleware = createFunctionsMiddleware({ directory: path.resolve('netlify/functions'), load: (file) => import(file) })
  server = http.createServer((req, res) => middleware(req, res, () => res.writeHead(404).end()))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logs.push(format(...args)))
  }
})

afterAll(async () => {
  vi.restoreAllMocks()
  setEnv(savedEnv)
  await new Promise((resolve) => server.close(resolve))
  await catcher.close()
})

afterEach(() => {
  // Whatever a test did, no log line carries what the visitor wrote.
  for (const line of logs) {
    expect(line).not.toContain(SECRET_TEXT)
    expect(line).not.toContain('Élodie')
    expect(line).not.toContain('campagne de revue')
  }
  logs = []
})

describe('a valid message', () => {
  it('is delivered over SMTP with the visitor as Reply-To', async () => {
    const answer = await post(visitor())
    expect(answer).toMatchObject({ status: 200, body: { success: true } })
    expect(answer.headers['content-type']).toContain('application/json')

    const delivered = catcher.messages().at(-1)
    expect(delivered).toMatchObject({
      envelope: { from: 'no-reply@recertif.example', to: [CONTACT_TO] },
      from: [{ name: 'Recertif', address: 'no-reply@recertif.example' }],
      to: [{ address: CONTACT_TO }],
      replyTo: [{ name: 'Élodie Durand', address: 'elodie.durand@client.example' }],
      subject: '[Recertif] Contact : Question sur la campagne de revue',
    })
    expect(delivered?.text).toContain(`Bonjour,\nPouvez-vous me rappeler ? ${SECRET_TEXT}\nMerci, ça presse.`)
    expect(delivered?.text).toContain('Nom : Élodie Durand')
    expect(delivered?.html).toBeNull()
  })

  it('is trimmed and accepted at the exact length limits', async () => {
    const before = catcher.messages().length
    const answer = await post(
      visitor({ name: ` ${'n'.repeat(LIMITS.name)} `, subject: 's'.repeat(LIMITS.subject), message: 'm'.repeat(LIMITS.message) }),
    )
    expect(answer.status).toBe(200)
    expect(catcher.messages()).toHaveLength(before + 1)
    expect(catcher.messages().at(-1)?.replyTo[0]?.name).toBe('n'.repeat(LIMITS.name))
  })

  it('is delivered with SMTP_HOST, SMTP_PORT and credentials instead of SMTP_URL', async () => {
    const { port } = new URL(catcher.smtpUrl)
    const answer = await withEnv(
      { SMTP_URL: undefined, SMTP_HOST: '127.0.0.1', SMTP_PORT: port, SMTP_SECURE: 'false', SMTP_USER: 'recertif', SMTP_PASSWORD: 'secret' },
      () => post(visitor({ subject: 'Par SMTP_HOST' })),
    )
    expect(answer.status).toBe(200)
    expect(catcher.messages().at(-1)?.subject).toBe('[Recertif] Contact : Par SMTP_HOST')
  })
})

describe('validation', () => {
  const cases: Array<[string, unknown, string]> = [
    ['a missing name', visitor({ name: undefined }), MESSAGES.required],
    ['a subject of spaces only', visitor({ subject: '   ' }), MESSAGES.required],
    ['an empty message', visitor({ message: '' }), MESSAGES.required],
    ['a message that is not text', visitor({ message: 42 }), MESSAGES.required],
    ['a JSON array', [], MESSAGES.required],
    ['JSON null', null, MESSAGES.required],
    ['an e-mail without @', visitor({ email: 'elodie.example' }), MESSAGES.email],
    ['an e-mail without domain', visitor({ email: 'elodie@' }), MESSAGES.email],
    ['an empty field before a bad e-mail', visitor({ email: 'pas-une-adresse', name: '' }), MESSAGES.required],
    ['a name over 100 characters', visitor({ name: 'n'.repeat(LIMITS.name + 1) }), MESSAGES.name],
    ['an e-mail over 254 characters', visitor({ email: `${'a'.repeat(64)}@${'d'.repeat(190)}.example` }), MESSAGES.emailLength],
    ['a subject over 200 characters', visitor({ subject: 's'.repeat(LIMITS.subject + 1) }), MESSAGES.subject],
    ['a message over 5000 characters', visitor({ message: 'm'.repeat(LIMITS.message + 1) }), MESSAGES.message],
  ]

  it.each(cases)('refuses %s with 400 and its French message, sending nothing', async (_label, payload, message) => {
    const before = catcher.messages().length
    const answer = await post(payload)
    expect(answer).toMatchObject({ status: 400, body: { error: message } })
    expect(catcher.messages()).toHaveLength(before)
  })

  it.each([
    ['subject', { subject: 'Bonjour\r\nBcc: cible@victime.example' }],
    ['email', { email: 'elodie@client.example\r\nBcc: cible@victime.example' }],
    ['name', { name: 'Élodie\nBcc: cible@victime.example' }],
  ])('refuses a line break in the %s (header injection) and sends nothing', async (_field, overrides) => {
    const before = catcher.messages().length
    const answer = await post(visitor(overrides))
    expect(answer).toMatchObject({ status: 400, body: { error: MESSAGES.lineBreak } })
    expect(catcher.messages()).toHaveLength(before)
  })
})

describe('abuse', () => {
  it('answers a filled honeypot like a success and sends nothing', async () => {
    const before = catcher.messages().length
    const answer = await post(visitor({ website: 'http://promo.example' }))
    expect(answer).toMatchObject({ status: 200, body: { success: true } })
    expect(catcher.messages()).toHaveLength(before)
    expect(logs.join('\n')).toContain('honeypot')
  })

  it('refuses the sixth request from one address within ten minutes with 429 and Retry-After', async () => {
    const from = '127.0.0.250'
    const answers = []
    for (let i = 0; i < 5; i++) answers.push(await post(visitor({ message: '' }), from))
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400])

    const before = catcher.messages().length
    const limited = await post(visitor(), from)
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ error: 'Trop de messages envoyés. Veuillez réessayer dans quelques minutes.' })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(590)
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(600)
    expect(catcher.messages()).toHaveLength(before)

    const spoofed = await call({ body: JSON.stringify(visitor()), from, headers: { 'X-Forwarded-For': '203.0.113.7' } })
    expect(spoofed.status).toBe(429)
    expect((await post(visitor(), '127.0.0.251')).status).toBe(200)
  })
})

describe('HTTP', () => {
  it.each(['GET', 'PUT', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
    const answer = await call({ method, contentType: null })
    expect(answer).toMatchObject({ status: 405, body: { error: 'Méthode non autorisée.' } })
    expect(answer.headers.allow).toBe('POST')
  })

  it('answers a body that is not JSON with 400', async () => {
    const answer = await call({ body: 'name=Élodie&email=x' })
    expect(answer).toMatchObject({ status: 400, body: { error: "Le contenu de la requête n'est pas un JSON valide." } })
  })

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], [null]])('answers Content-Type %s with 415', async (contentType) => {
    const answer = await call({ body: JSON.stringify(visitor()), contentType })
    expect(answer).toMatchObject({ status: 415, body: { error: 'Le contenu doit être envoyé au format JSON.' } })
  })

  it('accepts application/json with a charset', async () => {
    const answer = await call({ body: JSON.stringify(visitor()), contentType: 'application/json; charset=utf-8' })
    expect(answer.status).toBe(200)
  })
})

describe('delivery failures', () => {
  it('answers 502 with a French message when the SMTP server is down, and logs no visitor text', async () => {
    const closed = http.createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))

    const answer = await withEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` }, () => post(visitor()))
    expect(answer).toMatchObject({ status: 502, body: { error: "Le message n'a pas pu être envoyé. Veuillez réessayer plus tard." } })
    expect(logs.join('\n')).toMatch(/contact: SMTP delivery failed \(code=\w+/)
  })

  it('answers 500 with a French message when SMTP is not configured, and logs which variables are missing', async () => {
    const answer = await withEnv({ SMTP_URL: undefined, CONTACT_TO: undefined }, () => post(visitor()))
    expect(answer).toMatchObject({ status: 500, body: { error: "L'envoi de messages est momentanément indisponible. Veuillez réessayer plus tard." } })
    const log = logs.join('\n')
    expect(log).toContain('contact: mail delivery is not configured')
    expect(log).toContain('CONTACT_TO is not set')
    expect(log).toContain('neither SMTP_URL nor SMTP_HOST is set')
  })
})

describe('rate limiter', () => {
  it('lets a client through again once its oldest request leaves the window', () => {
    const limiter = new RateLimiter(2, 60_000)
    expect(limiter.hit('a', 0)).toEqual({ allowed: true })
    expect(limiter.hit('a', 10_000)).toEqual({ allowed: true })
    expect(limiter.hit('a', 20_000)).toEqual({ allowed: false, retryAfterSeconds: 40 })
    expect(limiter.hit('b', 20_000)).toEqual({ allowed: true })
    expect(limiter.hit('a', 60_001)).toEqual({ allowed: true })
  })

  it('forgets the least recently seen clients beyond its size bound', () => {
    const limiter = new RateLimiter(1, 60_000, 2)
    limiter.hit('a', 0)
    limiter.hit('b', 0)
    limiter.hit('c', 0)
    expect(limiter.hit('a', 1)).toEqual({ allowed: true })
    expect(limiter.hit('c', 1).allowed).toBe(false)
  })

  it('counts IPv6 clients per /64 and IPv4-mapped addresses as IPv4', () => {
    expect(rateLimitKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64')
    expect(rateLimitKey('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64')
    expect(rateLimitKey('2001:db8::5')).toBe('2001:db8:0:0::/64')
    expect(rateLimitKey('::ffff:192.0.2.4')).toBe('192.0.2.4')
    expect(rateLimitKey('192.0.2.4')).toBe('192.0.2.4')
  })
})
