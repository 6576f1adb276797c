import { vi } from 'vitest'
import type { Role } from '@/domain/labels'
import { SignInError } from '@/auth/errors'
import type { AppUser, AuthGateway, AuthIdentity, SignOutFailure } from '@/auth/types'

export function makeUser(role: Role, overrides: Partial<AppUser> = {}): AppUser {
  return {
    id: `id-${role}`,
    email: `${role}@example.com`,
    firstName: 'Camille',
    lastName: 'Durand',
    role,
    position: null,
    department: null,
    managerId: null,
    managerName: null,
    lastLogin: null,
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-01-01T00:00:00Z',
    ...overrides,
  }
}

export const DEMO_PASSWORD = 'Demo1234!'

interface FakeGatewayOptions {
  /** The profile of the session the browser kept, if any. */
  sessionUser?: AppUser | null
  /** Accounts that sign in with DEMO_PASSWORD, by e-mail. */
  accounts?: AppUser[]
  signOutFailure?: SignOutFailure | null
}

export type FakeGateway = AuthGateway & {
  /** Every call, in order, for tests about sequencing. */
  calls: string[]
  emitSignedOut(): void
  hasSession(): boolean
  signInWithPassword: ReturnType<typeof vi.fn<AuthGateway['signInWithPassword']>>
  signInWithOAuth: ReturnType<typeof vi.fn<AuthGateway['signInWithOAuth']>>
  exchangeCode: ReturnType<typeof vi.fn<AuthGateway['exchangeCode']>>
  signOut: ReturnType<typeof vi.fn<AuthGateway['signOut']>>
  restoreSession: ReturnType<typeof vi.fn<AuthGateway['restoreSession']>>
  recordLogin: ReturnType<typeof vi.fn<AuthGateway['recordLogin']>>
  loadProfile: ReturnType<typeof vi.fn<AuthGateway['loadProfile']>>
  secondFactorStep: ReturnType<typeof vi.fn<AuthGateway['secondFactorStep']>>
  enrolTotp: ReturnType<typeof vi.fn<AuthGateway['enrolTotp']>>
  verifyTotp: ReturnType<typeof vi.fn<AuthGateway['verifyTotp']>>
}

/** An in-memory authentication backend with the behaviour the session rules rely on. */
export function createFakeGateway({ sessionUser = null, accounts = [], signOutFailure = null }: FakeGatewayOptions = {}): FakeGateway {
  const calls: string[] = []
  const listeners = new Set<() => void>()
  const profiles = new Map<string, AppUser>([...accounts, ...(sessionUser ? [sessionUser] : [])].map((user) => [user.id, user]))
  let current: AuthIdentity | null = sessionUser
    ? { id: sessionUser.id, email: sessionUser.email, fullName: `${sessionUser.firstName} ${sessionUser.lastName}` }
    : null

  const gateway: FakeGateway = {
    calls,
    emitSignedOut: () => listeners.forEach((listener) => listener()),
    hasSession: () => current !== null,
    restoreSession: vi.fn(async () => {
      calls.push('restoreSession')
      return current
    }),
    onSignedOut(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    signInWithPassword: vi.fn(async ({ email, password }) => {
      calls.push(`signInWithPassword:${email}`)
      const account = accounts.find((candidate) => candidate.email === email)
      if (!account || password !== DEMO_PASSWORD) throw new SignInError('credentials')
      current = { id: account.id, email: account.email, fullName: null }
      return current
    }),
    signInWithOAuth: vi.fn(async ({ provider }) => {
      calls.push(`signInWithOAuth:${provider}`)
    }),
    exchangeCode: vi.fn(async (code: string) => {
      calls.push(`exchangeCode:${code}`)
      const account = accounts[0]
      if (!account) throw new SignInError('credentials')
      current = { id: account.id, email: account.email, fullName: null }
      return current
    }),
    signOut: vi.fn(async (scope: 'global' | 'local') => {
      calls.push(`signOut:${scope}`)
      current = null
      return signOutFailure
    }),
    loadProfile: vi.fn(async (identity: AuthIdentity) => {
      calls.push(`loadProfile:${identity.id}`)
      const profile = profiles.get(identity.id)
      if (!profile) throw new Error('no profile')
      return profile
    }),
    recordLogin: vi.fn(async (userId: string) => {
      calls.push(`recordLogin:${userId}`)
    }),
    // The second factor has its own tests against the real server (tests/e2e/second-factor.e2e.ts).
    secondFactorStep: vi.fn(async () => null),
    enrolTotp: vi.fn(async () => ({ factorId: 'factor', qrCode: 'data:image/svg+xml;utf-8,<svg/>', secret: 'JBSWY3DPEHPK3PXP' })),
    verifyTotp: vi.fn(async () => undefined),
  }
  return gateway
}
