import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { AuthContext, type AuthContextValue, type SessionStatus } from './auth-context'
import { SignInError } from './errors'
import { DEFAULT_AFTER_SIGN_IN, isSafeReturnPath, OAUTH_RETURN_KEY } from './return-path'
import {
  clearLoggedOutFlag,
  hasStoredSession,
  isLoggedOutFlagSet,
  loginPathAfterLogout,
  performLogout,
  type LogoutReason,
} from './session'
import type { AppUser, AuthGateway, AuthIdentity } from './types'

// The Supabase client is loaded on demand, so that a visitor with no session never downloads it for the public pages.
const loadAppGateway = () => import('./api').then((module) => module.createAppAuthGateway())

interface AuthProviderProps {
  children: ReactNode
  loadGateway?: () => Promise<AuthGateway>
  /** A full page load, so that nothing of the signed-out session stays in memory. */
  redirect?: (url: string) => void
  /** Whether the browser holds a session worth restoring; without one the gateway is not even loaded. */
  storedSessionExists?: () => boolean
}

interface SessionState {
  status: SessionStatus
  user: AppUser | null
}

const defaultRedirect = (url: string) => window.location.replace(url)
const defaultStoredSessionExists = () => hasStoredSession(window.localStorage, window.sessionStorage)

export function AuthProvider({
  children,
  loadGateway = loadAppGateway,
  redirect = defaultRedirect,
  storedSessionExists = defaultStoredSessionExists,
}: AuthProviderProps) {
  const [state, setState] = useState<SessionState>({ status: 'loading', user: null })
  const stateRef = useRef(state)
  const gatewayRef = useRef<Promise<AuthGateway> | null>(null)
  // A ref, not the state: the gateway's signed-out event arrives before React has rendered 'signingOut'.
  const signingOutRef = useRef(false)
  const optionsRef = useRef({ loadGateway, redirect, storedSessionExists })

  useEffect(() => {
    stateRef.current = state
  }, [state])

  const [loadedGateway, setLoadedGateway] = useState<AuthGateway | null>(null)

  const getGateway = useCallback(() => {
    gatewayRef.current ??= optionsRef.current.loadGateway().then(
      (gateway) => {
        setLoadedGateway(gateway)
        return gateway
      },
      (error: unknown) => {
        gatewayRef.current = null
        throw error
      },
    )
    return gatewayRef.current
  }, [])

  useEffect(() => {
    if (!loadedGateway) return
    return loadedGateway.onSignedOut(() => {
      if (!signingOutRef.current) setState({ status: 'unauthenticated', user: null })
    })
  }, [loadedGateway])

  useEffect(() => {
    let active = true
    const settle = (next: SessionState) => {
      if (active) setState(next)
    }

    // After a sign-out nothing is restored until someone signs in again (SPEC §4).
    if (isLoggedOutFlagSet(window.localStorage) || !optionsRef.current.storedSessionExists()) {
      settle({ status: 'unauthenticated', user: null })
      return () => {
        active = false
      }
    }

    void (async () => {
      try {
        const gateway = await getGateway()
        const identity = await gateway.restoreSession()
        if (!identity) return settle({ status: 'unauthenticated', user: null })
        settle({ status: 'authenticated', user: await gateway.loadProfile(identity) })
      } catch (error) {
        console.error('Session restore failed', error)
        settle({ status: 'unauthenticated', user: null })
      }
    })()

    return () => {
      active = false
    }
  }, [getGateway])

  // A page brought back from the back/forward cache still shows the session that was signed out: reload it.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted && isLoggedOutFlagSet(window.localStorage) && stateRef.current.status === 'authenticated') {
        window.location.reload()
      }
    }
    window.addEventListener('pageshow', onPageShow)
    return () => window.removeEventListener('pageshow', onPageShow)
  }, [])

  const establish = useCallback(
    async (gateway: AuthGateway, identity: AuthIdentity) => {
      clearLoggedOutFlag(window.localStorage)
      let user: AppUser
      try {
        user = await gateway.loadProfile(identity)
      } catch (error) {
        console.error('Profile lookup failed after sign-in', error)
        await gateway.signOut('local').catch(() => null)
        setState({ status: 'unauthenticated', user: null })
        throw new SignInError('profile', { cause: error })
      }
      try {
        await gateway.recordLogin(user.id)
      } catch (error) {
        console.error('Recording the sign-in time failed', error)
      }
      setState({ status: 'authenticated', user })
    },
    [],
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
        throw error instanceof SignInError ? error : new SignInError('unavailable', { cause: error })
      }
      await establish(gateway, identity)
    },
    [withGateway, establish],
  )

  const signInWithGoogle = useCallback<AuthContextValue['signInWithGoogle']>(
    async ({ remember, returnTo }) => {
      const gateway = await withGateway()
      window.sessionStorage.setItem(OAUTH_RETURN_KEY, returnTo)
      try {
        await gateway.signInWithGoogle({ redirectTo: `${window.location.origin}/auth/callback`, remember })
      } catch (error) {
        window.sessionStorage.removeItem(OAUTH_RETURN_KEY)
        if (error instanceof SignInError && error.kind === 'googleDisabled') throw error
        console.error('Google sign-in failed', error)
        throw error instanceof SignInError ? error : new SignInError('unavailable', { cause: error })
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
        console.error('Google sign-in code exchange failed', error)
        throw error instanceof SignInError ? error : new SignInError('unavailable', { cause: error })
      }
      await establish(gateway, identity)
      const returnTo = window.sessionStorage.getItem(OAUTH_RETURN_KEY)
      window.sessionStorage.removeItem(OAUTH_RETURN_KEY)
      return isSafeReturnPath(returnTo) ? returnTo : DEFAULT_AFTER_SIGN_IN
    },
    [withGateway, establish],
  )

  const logout = useCallback<AuthContextValue['logout']>(async (reason: LogoutReason = 'user') => {
    signingOutRef.current = true
    setState({ status: 'signingOut', user: null })
    const gateway = await gatewayRef.current?.catch(() => null)
    await performLogout({
      signOut: gateway ? () => gateway.signOut('global') : async () => null,
      localStorage: window.localStorage,
      sessionStorage: window.sessionStorage,
      document,
      redirect: () => optionsRef.current.redirect(loginPathAfterLogout(reason)),
    })
  }, [])

  const value = useMemo<AuthContextValue>(
    () => ({ ...state, prepareSignIn, signInWithPassword, signInWithGoogle, completeOAuthSignIn, logout }),
    [state, prepareSignIn, signInWithPassword, signInWithGoogle, completeOAuthSignIn, logout],
  )

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}
