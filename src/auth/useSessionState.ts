import { useCallback, useEffect, useRef, useState } from 'react'
import type { SessionStatus } from './auth-context'
import { isLoggedOutFlagSet } from './session'
import type { AppUser, SecondFactorStep } from './types'
import type { AuthGatewayAccess } from './useAuthGateway'

export interface SessionState {
  status: SessionStatus
  user: AppUser | null
  secondFactor?: SecondFactorStep | null
}

export const SIGNED_OUT: SessionState = { status: 'unauthenticated', user: null }

/**
 * Who is signed in: the session the browser kept, restored on start, then kept in step with the backend (a session
 * that ends elsewhere) and with the back/forward cache (a page of a signed-out session).
 */
export function useSessionState({ getGateway, loaded }: AuthGatewayAccess, storedSessionExists: () => boolean) {
  const [state, setState] = useState<SessionState>({ status: 'loading', user: null })
  const stateRef = useRef(state)
  // A ref, not the state: the gateway's signed-out event arrives before React has rendered 'signingOut'.
  const signingOutRef = useRef(false)
  const storedSessionExistsRef = useRef(storedSessionExists)

  useEffect(() => {
    stateRef.current = state
  }, [state])

  useEffect(() => {
    if (!loaded) return
    return loaded.onSignedOut(() => {
      if (!signingOutRef.current) setState(SIGNED_OUT)
    })
  }, [loaded])

  useEffect(() => {
    let active = true
    const settle = (next: SessionState) => {
      if (active) setState(next)
    }

    // After a sign-out nothing is restored until someone signs in again (SPEC §4).
    if (isLoggedOutFlagSet(window.localStorage) || !storedSessionExistsRef.current()) {
      settle(SIGNED_OUT)
      return () => {
        active = false
      }
    }

    void (async () => {
      try {
        const gateway = await getGateway()
        const identity = await gateway.restoreSession()
        if (!identity) return settle(SIGNED_OUT)
        const user = await gateway.loadProfile(identity)
        // A kept session of an administrator that never passed its second factor asks for it again.
        const secondFactor = await gateway.secondFactorStep()
        settle(secondFactor ? { status: 'secondFactor', user, secondFactor } : { status: 'authenticated', user })
      } catch (error) {
        console.error('Session restore failed', error)
        settle(SIGNED_OUT)
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

  /** From here on the backend's signed-out event is ours: the page is about to leave, not to show the login. */
  const beginSignOut = useCallback(() => {
    signingOutRef.current = true
    setState({ status: 'signingOut', user: null })
  }, [])

  return { state, setState, beginSignOut }
}
