import { createContext, useContext } from 'react'
import type { LogoutReason } from './session'
import type { AppUser } from './types'

export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated' | 'signingOut'

export interface AuthContextValue {
  status: SessionStatus
  user: AppUser | null
  /** Starts loading the authentication client ahead of a sign-in, e.g. while the person types. */
  prepareSignIn(): void
  signInWithPassword(input: { email: string; password: string; remember: boolean }): Promise<void>
  /** Leaves for Google; `returnTo` is where /auth/callback sends the person afterwards. */
  signInWithGoogle(input: { remember: boolean; returnTo: string }): Promise<void>
  /** Completes the Google sign-in and returns the path to go back to. */
  completeOAuthSignIn(code: string): Promise<string>
  /**
   * Makes the session a public page has just set on the client (an invitation's link, /mot-de-passe) the signed-in
   * one: without it the provider, settled as signed out when the page loaded, would send the dashboard to /login.
   */
  adoptSession(): Promise<void>
  logout(reason?: LogoutReason): Promise<void>
}

export const AuthContext = createContext<AuthContextValue | null>(null)

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext)
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>')
  return value
}

/** The signed-in user, for screens that only render inside the authenticated area. */
export function useCurrentUser(): AppUser {
  const { user } = useAuth()
  if (!user) throw new Error('useCurrentUser called without a signed-in user')
  return user
}
