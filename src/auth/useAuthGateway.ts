import { useCallback, useRef, useState } from 'react'
import type { AuthGateway } from './types'

/**
 * The authentication backend, loaded on first use and once only; a failed load is forgotten so that the next use
 * tries again. `loaded` is set once it is there, for what must listen to it.
 */
export function useAuthGateway(loadGateway: () => Promise<AuthGateway>) {
  const loadRef = useRef(loadGateway)
  const gatewayRef = useRef<Promise<AuthGateway> | null>(null)
  const [loaded, setLoaded] = useState<AuthGateway | null>(null)

  const getGateway = useCallback(() => {
    gatewayRef.current ??= loadRef.current().then(
      (gateway) => {
        setLoaded(gateway)
        return gateway
      },
      (error: unknown) => {
        gatewayRef.current = null
        throw error
      },
    )
    return gatewayRef.current
  }, [])

  /** The gateway if something already asked for it, without loading it for nothing (a sign-out of no session). */
  const gatewayIfRequested = useCallback(async () => (await gatewayRef.current?.catch(() => null)) ?? null, [])

  return { getGateway, gatewayIfRequested, loaded }
}

export type AuthGatewayAccess = ReturnType<typeof useAuthGateway>
