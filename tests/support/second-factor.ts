import type { SupabaseClient } from '@supabase/supabase-js'
import { Secret, TOTP } from 'otpauth'
import { DEMO_TOTP_SECRETS } from '../../src/pages/login/demo-accounts'

/** The current code of a demo account's seeded TOTP factor, or null for an account without one. */
export function demoTotpCode(email: string, at = Date.now()): string | null {
  const secret = (DEMO_TOTP_SECRETS as Record<string, string>)[email]
  return secret ? new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at }) : null
}

/** Passes the second factor of a signed-in demo account that has one, as the person would with their app. */
export async function passDemoSecondFactor(client: SupabaseClient<never>, email: string): Promise<void> {
  const code = demoTotpCode(email)
  if (!code) return
  const { data, error } = await client.auth.mfa.listFactors()
  if (error) throw error
  const factor = data.totp[0]
  if (!factor) return
  const verified = await client.auth.mfa.challengeAndVerify({ factorId: factor.id, code })
  if (verified.error) throw verified.error
  // supabase-js hands realtime a new token on sign-in and refresh, not on a verified factor.
  await client.realtime.setAuth(verified.data.access_token)
}

/**
 * The client, its password sign-in followed by the demo second factor where the account has one: tests that sign in
 * an administrator get the aal2 session a person gets from the app, and the answer carries that session.
 */
export function withDemoSecondFactor<C extends SupabaseClient<never>>(client: C): C {
  const auth = client.auth
  const signIn = auth.signInWithPassword.bind(auth)
  auth.signInWithPassword = async (credentials) => {
    const result = await signIn(credentials)
    if (result.error || !('email' in credentials) || !demoTotpCode(credentials.email)) return result
    await passDemoSecondFactor(client, credentials.email)
    const { data } = await auth.getSession()
    return data.session ? { data: { user: data.session.user, session: data.session }, error: null } : result
  }
  return client
}
