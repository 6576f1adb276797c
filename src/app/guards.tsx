import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router-dom'
import { useAuth } from '@/auth/auth-context'
import { FullPageSpinner, Spinner } from '@/components/ui/Spinner'

/** Sends visitors without a session to /login, and those owing a second factor to /verification, remembering the page. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth()
  const location = useLocation()
  if (status === 'loading') return <FullPageSpinner />
  if (status === 'signingOut') return <Spinner label="Déconnexion…" className="min-h-[50vh]" />
  if (status !== 'authenticated') {
    const { pathname, search, hash } = location
    // A password alone does not open the app to a role that needs a second factor.
    const to = status === 'secondFactor' ? '/verification' : '/login'
    return <Navigate to={to} replace state={{ from: { pathname, search, hash } }} />
  }
  return children
}
