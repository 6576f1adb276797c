// GoTrue's request limits as a Supabase project configures them (config.toml's [auth.rate_limit]), through real HTTP:
// a token bucket of 30 per client address for /verify (30 per 5 minutes), for /signup, /recover and /otp (30 per 5
// minutes) and for /token (150 per 5 minutes), and 2 e-mails an hour for the whole project; each answers GoTrue's 429
// with its code. The auth API's clock is this file's, so buckets refill without waiting.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startMailCatcher, type MailCatcher } from '../../supabase/local/mail/catcher'
import { DEMO_PASSWORD } from './support/server'
import { startRestBackend, type RestBackend } from './support/rest'

let catcher: MailCatcher
let backend: RestBackend
let now = new Date()

beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: 0, webPort: 0 })
  backend = await startRestBackend(undefined, { smtpUrl: catcher.smtpUrl, now: () => now })
})
afterAll(async () => {
  await backend.close()
  await catcher.close()
})
// An hour later every bucket is full again: each test starts from Supabase's limits untouched.
beforeEach(() => advance(3600))

const advance = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000)
}

function auth(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${backend.url}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: backend.server.config.anonKey, 'Content-Type': 'application/json', 'X-Supabase-Api-Version': '2024-01-01', ...headers },
    body: JSON.stringify(body),
  })
}

const mailsTo = (to: string) => catcher.messages().filter((message) => message.envelope.to.includes(to))
const lastCode = (to: string) => /code : (\d{6})/.exec(mailsTo(to).at(-1)?.text ?? '')?.[1]

/** `count` requests made one after the other; their statuses. */
async function statuses(count: number, request: (i: number) => Promise<Response>): Promise<number[]> {
  const seen: number[] = []
  for (let i = 0; i < count; i++) seen.push((await request(i)).status)
  return seen
}

describe('code verifications: 30 per 5 minutes per address', () => {
  it('stops guessing a recovery code at the 31st try, the right code included, whatever X-Forwarded-For says', async () => {
    expect((await auth('/recover', { email: 'admin@example.com' })).status).toBe(200)
    const code = lastCode('admin@example.com')!
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0')
    const guesses = await statuses(30, (i) => auth('/verify', { type: 'recovery', email: 'admin@example.com', token: wrong(i) }))
    expect(guesses).toEqual(Array(30).fill(403))

    const blocked = await auth('/verify', { type: 'recovery', email: 'admin@example.com', token: code }, { 'X-Forwarded-For': '203.0.113.9' })
    expect(blocked.status).toBe(429)
    expect(await blocked.json()).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' })
    const link = await fetch(`${backend.url}/auth/v1/verify?type=recovery&token=${'0'.repeat(64)}`, { redirect: 'manual' })
    expect(link.status).toBe(429)

    // 30 per 5 minutes: one more try every 10 seconds, and the code, never consumed, still works.
    advance(15)
    const session = await auth('/verify', { type: 'recovery', email: 'admin@example.com', token: code })
    expect(session.status).toBe(200)
  })

  it('lets an e-mailed code live an hour, as Supabase sets otp_expiry', async () => {
    expect((await auth('/otp', { email: 'rssi@example.com' })).status).toBe(200)
    const code = lastCode('rssi@example.com')!
    advance(3601)
    const late = await auth('/verify', { type: 'email', email: 'rssi@example.com', token: code })
    expect(late.status).toBe(403)
    expect(await late.json()).toMatchObject({ code: 'otp_expired' })
  })
})

describe('sign-ins and token refreshes: a bucket of 30 per address, refilled at 150 per 5 minutes', () => {
  it('answers the 31st /token request at once with 429, then allows one more every 2 seconds', async () => {
    const signIn = () => auth('/token?grant_type=password', { email: 'manager@example.com', password: DEMO_PASSWORD })
    expect(await statuses(30, signIn)).toEqual(Array(30).fill(200))
    const refused = await auth('/token?grant_type=refresh_token', { refresh_token: 'whatever' })
    expect(refused.status).toBe(429)
    expect(await refused.json()).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' })
    advance(3)
    expect((await signIn()).status).toBe(200)
    expect((await signIn()).status).toBe(429)
  })
})

describe('/signup, /recover and /otp: 30 per 5 minutes per address, counted before the address is looked up', () => {
  it('refuses a known e-mail exactly as an unknown one once the address has asked 30 times, and sends nothing', async () => {
    const unknown = await statuses(30, (i) => auth(i % 2 ? '/otp' : '/recover', { email: `inconnu.${i}@example.org`, create_user: false }))
    expect(unknown.filter((status) => status === 429)).toEqual([])
    const before = mailsTo('ra@example.com').length
    for (const email of ['ra@example.com', 'personne@example.org']) {
      const answer = await auth('/recover', { email })
      expect(answer.status).toBe(429)
      expect(await answer.json()).toEqual({ code: 'over_request_rate_limit', message: 'Request rate limit reached' })
    }
    expect(mailsTo('ra@example.com')).toHaveLength(before)
  })

  it('answers a first recovery the same for a known and an unknown e-mail', async () => {
    const known = await auth('/recover', { email: 'bpo@example.com' })
    const unknown = await auth('/recover', { email: 'nobody@example.org' })
    expect([known.status, await known.json()]).toEqual([unknown.status, await unknown.json()])
  })
})

describe('e-mails: 2 an hour for the whole project', () => {
  it('sends two, refuses the third with over_email_send_rate_limit, and sends again once one has been refilled', async () => {
    for (const email of ['user@example.com', 'manager@example.com']) expect((await auth('/recover', { email })).status).toBe(200)
    const before = mailsTo('bpo.groupe@example.com').length
    const third = await auth('/recover', { email: 'bpo.groupe@example.com' })
    expect(third.status).toBe(429)
    expect(await third.json()).toEqual({ code: 'over_email_send_rate_limit', message: 'Email rate limit exceeded' })
    expect(mailsTo('bpo.groupe@example.com')).toHaveLength(before)
    // As GoTrue does, an address without an account costs no e-mail, so it is still answered 200.
    expect((await auth('/recover', { email: 'inconnu@example.org' })).status).toBe(200)

    // One e-mail comes back every 30 minutes.
    advance(45 * 60)
    expect((await auth('/recover', { email: 'bpo.groupe@example.com' })).status).toBe(200)
    expect(mailsTo('bpo.groupe@example.com')).toHaveLength(before + 1)
  })
})
