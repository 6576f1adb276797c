import { useCallback } from 'react'
import type { AuthContextValue } from './auth-context'
import { SignInError } from './errors'
import { OAUTH_PROVIDER_KEY } from './oauth-provider'
import { DEFAULT_AFTER_SIGN_IN, isSafeReturnPath, OAUTH_RETURN_KEY } from './return-path'
import { clearLoggedOutFlag } from './session'
import type { AppUser, AuthGateway, AuthIdentity, SecondFactorStep } from './types'
import type { AuthGatewayAccess } from './useAuthGateway'
import { SIGNED_OUT, type SessionState } from './useSessionState'

/** A sign-in failure the gateway already classified stays as it is; anything else is the service, not the person. */
function unavailable(error: unknown): SignInError {
  return error instanceof SignInError ? error : new SignInError('unavailable', { cause: error })
}

/** The ways in (password, Google or Microsoft, the provider's return, a session set by a public page) and the profile each ends with. */
export function useSignIn({ getGateway }: AuthGatewayAccess, setState: (state: SessionState) => void) {
  const signedIn = useCallback(
    async (gateway: AuthGateway, user: AppUser) => {
      try {
        await gateway.recordLogin(user.id)
      } catch (error) {
        console.error('Recording the sign-in time failed', error)
      }
      setState({ status: 'authenticated', user })
    },
    [setState],
  )

  // The profile is what makes a session usable: without it the account is signed out again at once.
  const establish = useCallback(
    async (gateway: AuthGateway, identity: AuthIdentity) => {
      clearLoggedOutFlag(window.localStorage)
      let user: AppUser
      try {
        user = await gateway.loadProfile(identity)
      } catch (error) {
        console.error('Profile lookup failed after sign-in', error)
        await gateway.signOut('local').catch(() => null)
        setState(SIGNED_OUT)
        throw new SignInError('profile', { cause: error })
      }
      let secondFactor: SecondFactorStep | null
      try {
        secondFactor = await gateway.secondFactorStep()
      } catch (error) {
        console.error('Reading the second factor failed after sign-in', error)
        await gateway.signOut('local').catch(() => null)
        setState(SIGNED_OUT)
        throw new SignInError('unavailable', { cause: error })
      }
      if (secondFactor) {
        setState({ status: 'secondFactor', user, secondFactor })
        return
      }
      await signedIn(gateway, user)
    },
    [setState, signedIn],
  )

  const withGateway = useCallback(async () => {
    try {
      return await getGateway()
    } catch (error) {
      console.error('Authentication client failed to load', error)
      throw new SignInError('unavailable', { cause: error })
    }
  }, [getGateway])

  const prepareSignIn = useCallback(() => {
    // A failure here resurfaces, reported, when the sign-in itself asks for the gateway.
    getGateway().catch(() => undefined)
  }, [getGateway])

  const signInWithPassword = useCallback<AuthContextValue['signInWithPassword']>(
    async (input) => {
      const gateway = await withGateway()
      let identity: AuthIdentity
      try {
        identity = await gateway.signInWithPassword(input)
      } catch (error) {
        if (error instanceof SignInError && error.kind === 'credentials') throw error
        console.error('Password sign-in failed', error)
        throw unavailable(error)
      }
      await establish(gateway, identity)
    },
    [withGateway, establish],
  )

  const signInWithOAuth = useCallback<AuthContextValue['signInWithOAuth']>(
    async ({ provider, remember, returnTo }) => {
      const gateway = await withGateway()
      window.sessionStorage.setItem(OAUTH_RETURN_KEY, returnTo)
      window.sessionStorage.setItem(OAUTH_PROVIDER_KEY, provider)
      try {
        await gateway.signInWithOAuth({ provider, redirectTo: `${window.location.origin}/auth/callback`, remember })
      } catch (error) {
        window.sessionStorage.removeItem(OAUTH_RETURN_KEY)
        window.sessionStorage.removeItem(OAUTH_PROVIDER_KEY)
        if (error instanceof SignInError && error.kind === `${provider}Disabled`) throw error
        console.error(`Sign-in with ${provider} failed`, error)
        throw unavailable(error)
      }
    },
    [withGateway],
  )

  const completeOAuthSignIn = useCallback<AuthContextValue['completeOAuthSignIn']>(
    async (code) => {
      const gateway = await withGateway()
      let identity: AuthIdentity
      try {
        identity = await gateway.exchangeCode(code)
      } catch (error) {
        console.error('OAuth sign-in code exchange failed', error)
        throw unavailable(error)
      }
      await establish(gateway, identity)
      const returnTo = window.sessionStorage.getItem(OAUTH_RETURN_KEY)
      window.sessionStorage.removeItem(OAUTH_RETURN_KEY)
      window.sessionStorage.removeItem(OAUTH_PROVIDER_KEY)
      return isSafeReturnPath(returnTo) ? returnTo : DEFAULT_AFTER_SIGN_IN
    },
    [withGateway, establish],
  )

  const adoptSession = useCallback<AuthContextValue['adoptSession']>(async () => {
    const gateway = await withGateway()
    let identity: AuthIdentity | null
    try {
      identity = await gateway.restoreSession()
    } catch (error) {
      console.error('Reading the new session failed', error)
      throw unavailable(error)
    }
    if (!identity) throw new SignInError('unavailable')
    await establish(gateway, identity)
  }, [withGateway, establish])

  const enrolSecondFactor = useCallback(async () => (await withGateway()).enrolTotp(), [withGateway])

  /** The code of the step in progress: once accepted, the person of that step is signed in. */
  const verifySecondFactor = useCallback(
    async (user: AppUser, factorId: string, code: string) => {
      const gateway = await withGateway()
      await gateway.verifyTotp(factorId, code)
      await signedIn(gateway, user)
    },
    [withGateway, signedIn],
  )

  return { prepareSignIn, signInWithPassword, signInWithOAuth, completeOAuthSignIn, adoptSession, enrolSecondFactor, verifySecondFactor }
}
