import { useEffect } from 'react'
import { useAuth } from './auth-context'
import { watchInactivity } from './inactivity'

/** Signs the person out after SPEC §9's five idle minutes, for as long as the calling component is mounted. */
export function useInactivitySignOut(): void {
  const { logout } = useAuth()
  useEffect(() => watchInactivity({ target: document, onIdle: () => void logout('inactivity') }), [logout])
}
