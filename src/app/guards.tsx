import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router-dom'
import { useAuth } from '@/auth/auth-context'
import { FullPageSpinner, Spinner } from '@/components/ui/Spinner'

/** Sends visitors without a session to /login, remembering the page they asked for. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth()
  const location = useLocation()
  if (status === 'loading') return <FullPageSpinner />
  if (status === 'signingOut') return <Spinner label="Déconnexion…" className="min-h-[50vh]" />
  if (status !== 'authenticated') {
    const { pathname, search, hash } = location
    return <Navigate to="/login" replace state={{ from: { pathname, search, hash } }} />
  }
  return children
}
