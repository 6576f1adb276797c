import { createContext, useContext } from 'react'
import type { LogoutReason } from './session'
import type { AppUser, OAuthProvider, SecondFactorStep, TotpEnrolment } from './types'

/** secondFactor: the password was right, but the role needs a second factor that this session has not passed yet. */
export type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated' | 'signingOut' | 'secondFactor'

export interface AuthContextValue {
  status: SessionStatus
  user: AppUser | null
  /** With status secondFactor: what the person still has to do. */
  secondFactor?: SecondFactorStep | null
  /** A new TOTP factor to scan, during the secondFactor step of someone who has none yet. */
  enrolSecondFactor(): Promise<TotpEnrolment>
  /** Checks the code; the person is then signed in. */
  verifySecondFactor(factorId: string, code: string): Promise<void>
  /** Starts loading the authentication client ahead of a sign-in, e.g. while the person types. */
  prepareSignIn(): void
  signInWithPassword(input: { email: string; password: string; remember: boolean }): Promise<void>
  /** Leaves for Google or Microsoft; `returnTo` is where /auth/callback sends the person afterwards. */
  signInWithOAuth(input: { provider: OAuthProvider; remember: boolean; returnTo: string }): Promise<void>
  /** Completes the provider's sign-in and returns the path to go back to. */
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
