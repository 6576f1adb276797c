// TOTP factors as Supabase Auth serves them, through supabase-js's auth.mfa API against the real local server: enrol
// (secret, otpauth:// URI, SVG QR code), challenge, verify (aal2 and a totp AMR entry in the token), list, unenrol,
// the admin API's list and delete, and the refusals GoTrue gives (wrong code, expired challenge, insufficient aal,
// too many attempts).
import type { SupabaseClient } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { Secret, TOTP } from 'otpauth'
import { beforeAll, describe, expect, it } from 'vitest'
import { startLocalServer, type LocalServer } from '../../supabase/local/server'
import { freshDatabase } from '../support/database'
import { DEMO_PASSWORD, testBackendForFile, type TestBackend } from './support/server'

const backend = testBackendForFile()

const codeFor = (secret: string, at = Date.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at })
const wrongCode = (secret: string) => String((Number(codeFor(secret)) + 500_000) % 1_000_000).padStart(6, '0')

async function signedIn(email: string, client: SupabaseClient = backend.client()): Promise<SupabaseClient> {
  const { error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  if (error) throw error
  return client
}

async function enrolled(client: SupabaseClient, friendlyName?: string) {
  const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', ...(friendlyName ? { friendlyName } : {}) })
  if (error) throw error
  return data
}

describe('TOTP factors', () => {
  it('enrols with a secret, an otpauth:// URI and an SVG QR code, then verifies to aal2', async () => {
    const client = await signedIn('manager@example.com')
    const factor = await enrolled(client, 'Téléphone')
    expect(factor.type).toBe('totp')
    expect(factor.totp.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(factor.totp.uri).toMatch(/^otpauth:\/\/totp\/127\.0\.0\.1%3A5173:manager%40example\.com\?/)
    expect(factor.totp.uri).toContain(`secret=${factor.totp.secret}`)
    expect(factor.totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg[^#]*<\/svg>$/)
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal1' })

    const verified = await client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: codeFor(factor.totp.secret) })
    expect(verified.error).toBeNull()
    const claims = decodeJwt(verified.data!.access_token)
    expect(claims.aal).toBe('aal2')
    expect((claims.amr as Array<{ method: string }>).map((entry) => entry.method)).toEqual(['totp', 'password'])
    expect((await client.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal2', nextLevel: 'aal2' })
    const listed = await client.auth.mfa.listFactors()
    expect(listed.data?.totp.map((entry) => entry.id)).toEqual([factor.id])

    // The refreshed token keeps aal2; a new sign-in starts at aal1 and must pass the factor again.
    const refreshed = await client.auth.refreshSession()
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe('aal2')
    const again = await signedIn('manager@example.com')
    expect((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({ currentLevel: 'aal1', nextLevel: 'aal2' })
    expect((await again.auth.mfa.enroll({ factorType: 'totp' })).error).toMatchObject({ status: 422, code: 'insufficient_aal' })
    expect((await again.auth.mfa.unenroll({ factorId: factor.id })).error).toMatchObject({ status: 422, code: 'insufficient_aal' })

    const unenrolled = await client.auth.mfa.unenroll({ factorId: factor.id })
    expect(unenrolled.error).toBeNull()
    expect((await client.auth.mfa.listFactors()).data?.all).toEqual([])
  })

  it("refuses a wrong code, another person's factor, an unknown challenge and an expired one", async () => {
    const client = await signedIn('bpo@example.com')
    const factor = await enrolled(client)
    const challenge = await client.auth.mfa.challenge({ factorId: factor.id })
    expect(challenge.data?.expires_at).toBeGreaterThan(Date.now() / 1000 + 240)
    const wrong = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: wrongCode(factor.totp.secret) })
    expect(wrong.error).toMatchObject({ status: 422, code: 'mfa_verification_failed' })
    const other = await signedIn('user@example.com')
    expect((await other.auth.mfa.challenge({ factorId: factor.id })).error).toMatchObject({ status: 404, code: 'mfa_factor_not_found' })

    await backend.db.query(`update auth.mfa_challenges set created_at = now() - interval '6 minutes' where id = $1`, [challenge.data!.id])
    const late = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: codeFor(factor.totp.secret) })
    expect(late.error).toMatchObject({ status: 422, code: 'mfa_challenge_expired' })
    const gone = await client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge.data!.id, code: codeFor(factor.totp.secret) })
    expect(gone.error).toMatchObject({ status: 404 })
  })

  it('lists and deletes a person\'s factors through the admin API, service role only', async () => {
    const client = await signedIn('bpo.groupe@example.com')
    const factor = await enrolled(client)
    await client.auth.mfa.challengeAndVerify({ factorId: factor.id, code: codeFor(factor.totp.secret) })
    const { data: me } = await client.auth.getUser()
    const admin = backend.serviceClient().auth.admin.mfa
    const listed = await admin.listFactors({ userId: me.user!.id })
    expect(listed.data?.factors).toMatchObject([{ id: factor.id, status: 'verified', factor_type: 'totp' }])
    expect(JSON.stringify(listed.data)).not.toContain(factor.totp.secret)
    expect((await backend.client().auth.admin.mfa.listFactors({ userId: me.user!.id })).error).toMatchObject({ status: 403 })

    expect((await admin.deleteFactor({ userId: me.user!.id, id: factor.id })).error).toBeNull()
    expect((await admin.listFactors({ userId: me.user!.id })).data?.factors).toEqual([])
    // The session it raised is back at aal1.
    const refreshed = await client.auth.refreshSession()
    expect(decodeJwt(refreshed.data.session!.access_token).aal).toBe('aal1')
  })
})

describe('guessing codes', () => {
  let server: LocalServer
  let limited: TestBackend['client']
  beforeAll(async () => {
    const db = await freshDatabase()
    server = await startLocalServer({ db, port: 0, config: { authRateLimits: { tokenVerifications: 5 } } })
    const { createClient } = await import('@supabase/supabase-js')
    const WebSocket = (await import('ws')).default
    limited = () =>
      createClient(server.url, server.config.publishableKey, {
        auth: { persistSession: false, autoRefreshToken: false },
        realtime: { transport: WebSocket as never },
      })
    return async () => {
      await server.close()
      await db.close()
    }
  })

  it('counts factor verifications with the other codes: past the limit, 429 even for the right code', async () => {
    const client = await signedIn('ra@example.com', limited())
    const factor = await enrolled(client)
    const { data: challenge } = await client.auth.mfa.challenge({ factorId: factor.id })
    const attempt = (code: string) => client.auth.mfa.verify({ factorId: factor.id, challengeId: challenge!.id, code })
    for (let i = 0; i < 5; i++) expect((await attempt(wrongCode(factor.totp.secret))).error).toMatchObject({ status: 422 })
    expect((await attempt(codeFor(factor.totp.secret))).error).toMatchObject({ status: 429, code: 'over_request_rate_limit' })
  })
})
