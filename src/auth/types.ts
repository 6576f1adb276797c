import type { Role } from '@/domain/labels'

/** The identity providers a person may sign in with, by Supabase's names: azure is Microsoft Entra ID. */
export type OAuthProvider = 'google' | 'azure'

/** The signed-in person's profile, from the users table (SPEC §3, app-side names). */
export interface AppUser {
  id: string
  email: string
  firstName: string
  lastName: string
  role: Role
  position: string | null
  department: string | null
  managerId: string | null
  managerName: string | null
  lastLogin: string | null
  createdAt: string
  updatedAt: string
}

/** What the authentication layer knows about the account, before the profile is looked up. */
export interface AuthIdentity {
  id: string
  email: string
  fullName: string | null
}

/** A sign-out failure as the authentication layer reports it. */
export interface SignOutFailure {
  status?: number
  code?: string
  message: string
}

/** What a person whose role needs a second factor still has to do after the password: enrol one, or give its code. */
export type SecondFactorStep = { kind: 'enrol' } | { kind: 'challenge'; factorId: string }

/** A TOTP factor being enrolled: what the person scans or types into their authenticator app. */
export interface TotpEnrolment {
  factorId: string
  /** The QR code as an SVG data URI. */
  qrCode: string
  secret: string
}

/**
 * Everything the session rules need from the authentication backend. The app uses the Supabase implementation in
 * api.ts; tests hand the AuthProvider a fake.
 */
export interface AuthGateway {
  /** The identity of the session the browser kept, if any. */
  restoreSession(): Promise<AuthIdentity | null>
  /** Called when the session ends without us asking (expired refresh token, sign-out in another tab). */
  onSignedOut(listener: () => void): () => void
  signInWithPassword(input: { email: string; password: string; remember: boolean }): Promise<AuthIdentity>
  /** Leaves for the provider's sign-in page, which comes back to `redirectTo` with a code. */
  signInWithOAuth(input: { provider: OAuthProvider; redirectTo: string; remember: boolean }): Promise<void>
  exchangeCode(code: string): Promise<AuthIdentity>
  /** Resolves with the failure rather than throwing: logout carries on either way. */
  signOut(scope: 'global' | 'local'): Promise<SignOutFailure | null>
  loadProfile(identity: AuthIdentity): Promise<AppUser>
  recordLogin(userId: string): Promise<void>
  /** Null when the session may go on: its role needs no second factor, or the session has passed it (aal2). */
  secondFactorStep(): Promise<SecondFactorStep | null>
  /** A new TOTP factor (earlier unconfirmed ones are dropped). */
  enrolTotp(): Promise<TotpEnrolment>
  /** Checks a code of the factor; the session then holds aal2. Throws a SecondFactorError when refused. */
  verifyTotp(factorId: string, code: string): Promise<void>
}
