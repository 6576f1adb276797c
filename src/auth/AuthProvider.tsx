import { useCallback, useMemo, useRef, type ReactNode } from 'react'
import { AuthContext, type AuthContextValue } from './auth-context'
import { hasStoredSession, loginPathAfterLogout, performLogout, type LogoutReason } from './session'
import type { AuthGateway } from './types'
import { useAuthGateway } from './useAuthGateway'
import { useSessionState } from './useSessionState'
import { useSignIn } from './useSignIn'

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

const defaultRedirect = (url: string) => window.location.replace(url)
const defaultStoredSessionExists = () => hasStoredSession(window.localStorage, window.sessionStorage)

export function AuthProvider({
  children,
  loadGateway = loadAppGateway,
  redirect = defaultRedirect,
  storedSessionExists = defaultStoredSessionExists,
}: AuthProviderProps) {
  const gateway = useAuthGateway(loadGateway)
  const { state, setState, beginSignOut } = useSessionState(gateway, storedSessionExists)
  const { prepareSignIn, signInWithPassword, signInWithOAuth, completeOAuthSignIn, adoptSession, enrolSecondFactor, verifySecondFactor } =
    useSignIn(gateway, setState)
  const redirectRef = useRef(redirect)
  const { gatewayIfRequested } = gateway

  const logout = useCallback<AuthContextValue['logout']>(
    async (reason: LogoutReason = 'user') => {
      beginSignOut()
      const loaded = await gatewayIfRequested()
      await performLogout({
        signOut: loaded ? () => loaded.signOut('global') : async () => null,
        localStorage: window.localStorage,
        sessionStorage: window.sessionStorage,
        document,
        redirect: () => redirectRef.current(loginPathAfterLogout(reason)),
      })
    },
    [beginSignOut, gatewayIfRequested],
  )

  const { user } = state
  const verifyStep = useCallback<AuthContextValue['verifySecondFactor']>(
    async (factorId, code) => {
      if (!user) throw new Error('no sign-in in progress')
      await verifySecondFactor(user, factorId, code)
    },
    [user, verifySecondFactor],
  )

  const value = useMemo<AuthContextValue>(
    () => ({
      ...state,
      prepareSignIn,
      signInWithPassword,
      signInWithOAuth,
      completeOAuthSignIn,
      adoptSession,
      enrolSecondFactor,
      verifySecondFactor: verifyStep,
      logout,
    }),
    [state, prepareSignIn, signInWithPassword, signInWithOAuth, completeOAuthSignIn, adoptSession, enrolSecondFactor, verifyStep, logout],
  )

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}
