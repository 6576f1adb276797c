import { isAuthApiError, type SupabaseClient, type User } from '@supabase/supabase-js'
import { getSupabase, getSupabaseConfig } from '@/lib/supabase'
import { rememberMeStorage, type RememberMeStorage } from '@/lib/remember-me-storage'
import { SecondFactorError, SignInError } from './errors'
import { escapeLikePattern, PROFILE_COLUMNS, splitFullName, toAppUser } from './profile'
import type { AppUser, AuthGateway, AuthIdentity, OAuthProvider, SecondFactorStep } from './types'

function identityOf(user: User): AuthIdentity {
  const metadata = user.user_metadata as { full_name?: unknown; name?: unknown } | undefined
  const fullName = metadata?.full_name ?? metadata?.name
  return { id: user.id, email: user.email ?? '', fullName: typeof fullName === 'string' ? fullName : null }
}

/** Supabase's PostgREST errors are plain objects; an Error keeps the stack and the message readable in logs. */
function asError(error: { message: string }, context: string): Error {
  return new Error(`${context}: ${error.message}`, { cause: error })
}

function classifySignInFailure(error: unknown): SignInError {
  // GoTrue refuses a banned account (a leaver, deactivated in the directory) with its own code.
  if (isAuthApiError(error) && error.code === 'user_banned') return new SignInError('deactivated', { cause: error })
  // 4xx means the server answered and refused these credentials; anything else is the service, not the person.
  const refused = isAuthApiError(error) && error.status >= 400 && error.status < 500
  return new SignInError(refused ? 'credentials' : 'unavailable', { cause: error })
}

async function selectProfileById(client: SupabaseClient, id: string): Promise<AppUser | null> {
  const { data, error } = await client.from('users').select(PROFILE_COLUMNS).eq('id', id).maybeSingle()
  if (error) throw asError(error, 'Profile lookup by id failed')
  return data ? toAppUser(data) : null
}

/**
 * SPEC §7: the profile by id; else the profile an administrator created with this e-mail, relinked to this
 * account through update_user_id; else a new profile with role user.
 */
export async function findOrCreateProfile(client: SupabaseClient, identity: AuthIdentity): Promise<AppUser> {
  const byId = await selectProfileById(client, identity.id)
  if (byId) return byId

  const byEmail = await client.from('users').select('id').ilike('email', escapeLikePattern(identity.email)).maybeSingle()
  if (byEmail.error) throw asError(byEmail.error, 'Profile lookup by e-mail failed')
  if (byEmail.data) {
    const { error } = await client.rpc('update_user_id', {
      old_user_id: (byEmail.data as { id: string }).id,
      new_user_id: identity.id,
    })
    if (error) throw asError(error, 'update_user_id failed')
    const relinked = await selectProfileById(client, identity.id)
    if (!relinked) throw new Error('Profile missing after update_user_id')
    return relinked
  }

  const { firstName, lastName } = splitFullName(identity.fullName)
  const { data, error } = await client
    .from('users')
    .insert({ id: identity.id, email: identity.email, first_name: firstName, last_name: lastName, role: 'user' })
    .select(PROFILE_COLUMNS)
    .single()
  if (error) throw asError(error, 'Profile creation failed')
  return toAppUser(data)
}

/**
 * Whether the project accepts sign-in with this provider. Asked first because a disabled provider answers the
 * browser's redirect with a bare JSON error page on the API's origin, which would strand the person there.
 */
export async function isOAuthSignInEnabled(provider: OAuthProvider, fetchImpl: typeof fetch = fetch): Promise<boolean> {
  const { url, anonKey } = getSupabaseConfig()
  const response = await fetchImpl(`${url}/auth/v1/settings`, { headers: { apikey: anonKey } })
  if (!response.ok) throw new Error(`Auth settings answered ${response.status}`)
  const settings = (await response.json()) as { external?: Partial<Record<OAuthProvider, unknown>> }
  return settings.external?.[provider] === true
}

/** Supabase's azure provider gives no e-mail unless asked for the email scope; the tenant is server configuration. */
function oauthOptions(provider: OAuthProvider, redirectTo: string): { redirectTo: string; scopes?: string } {
  return provider === 'azure' ? { scopes: 'email', redirectTo } : { redirectTo }
}

function classifySecondFactorFailure(error: unknown): SecondFactorError {
  if (isAuthApiError(error) && error.status === 429) return new SecondFactorError('tooMany', { cause: error })
  const refused = isAuthApiError(error) && error.status >= 400 && error.status < 500
  return new SecondFactorError(refused ? 'code' : 'unavailable', { cause: error })
}

/** The database says whether the caller's role needs a second factor (administrators and the RSSI, the RA if set). */
async function secondFactorStep(client: SupabaseClient): Promise<SecondFactorStep | null> {
  const { data: required, error } = await client.rpc('mfa_required')
  if (error) throw asError(error, 'mfa_required failed')
  if (required !== true) return null
  const level = await client.auth.mfa.getAuthenticatorAssuranceLevel()
  if (level.error) throw level.error
  if (level.data.currentLevel === 'aal2') return null
  const factors = await client.auth.mfa.listFactors()
  if (factors.error) throw factors.error
  const verified = factors.data.totp[0]
  return verified ? { kind: 'challenge', factorId: verified.id } : { kind: 'enrol' }
}

interface GatewayDependencies {
  storage: Pick<RememberMeStorage, 'setRemembered'>
  providerEnabled: (provider: OAuthProvider) => Promise<boolean>
}

export function createSupabaseAuthGateway(client: SupabaseClient, { storage, providerEnabled }: GatewayDependencies): AuthGateway {
  return {
    async restoreSession() {
      const { data, error } = await client.auth.getSession()
      if (error) throw error
      return data.session ? identityOf(data.session.user) : null
    },

    onSignedOut(listener) {
      const { data } = client.auth.onAuthStateChange((event) => {
        if (event === 'SIGNED_OUT') listener()
      })
      return () => data.subscription.unsubscribe()
    },

    async signInWithPassword({ email, password, remember }) {
      storage.setRemembered(remember)
      const { data, error } = await client.auth.signInWithPassword({ email, password })
      if (error) throw classifySignInFailure(error)
      return identityOf(data.user)
    },

    async signInWithOAuth({ provider, redirectTo, remember }) {
      let enabled: boolean
      try {
        enabled = await providerEnabled(provider)
      } catch (error) {
        throw new SignInError('unavailable', { cause: error })
      }
      if (!enabled) throw new SignInError(`${provider}Disabled`)
      storage.setRemembered(remember)
      const { error } = await client.auth.signInWithOAuth({ provider, options: oauthOptions(provider, redirectTo) })
      if (error) throw classifySignInFailure(error)
    },

    async exchangeCode(code) {
      const { data, error } = await client.auth.exchangeCodeForSession(code)
      if (error) throw classifySignInFailure(error)
      return identityOf(data.user)
    },

    async signOut(scope) {
      const { error } = await client.auth.signOut({ scope })
      return error ? { status: error.status, code: error.code, message: error.message } : null
    },

    loadProfile: (identity) => findOrCreateProfile(client, identity),

    async recordLogin(userId) {
      const { error } = await client.from('users').update({ last_login: new Date().toISOString() }).eq('id', userId)
      if (error) throw asError(error, 'last_login update failed')
    },

    secondFactorStep: () => secondFactorStep(client),

    async enrolTotp() {
      const listed = await client.auth.mfa.listFactors()
      if (listed.error) throw listed.error
      for (const stale of listed.data.all.filter((factor) => factor.status === 'unverified')) {
        await client.auth.mfa.unenroll({ factorId: stale.id })
      }
      const { data, error } = await client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'Recertif' })
      if (error) throw error
      return { factorId: data.id, qrCode: data.totp.qr_code, secret: data.totp.secret }
    },

    async verifyTotp(factorId, code) {
      const { data, error } = await client.auth.mfa.challengeAndVerify({ factorId, code })
      if (error) throw classifySecondFactorFailure(error)
      // supabase-js hands realtime a new token on sign-in and refresh, not on a verified factor: the live topics of
      // the role would otherwise be joined with the aal1 token, which the database no longer empowers.
      await client.realtime.setAuth(data.access_token)
    },
  }
}

export function createAppAuthGateway(): AuthGateway {
  return createSupabaseAuthGateway(getSupabase(), { storage: rememberMeStorage, providerEnabled: (provider) => isOAuthSignInEnabled(provider) })
}
