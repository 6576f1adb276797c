import type { SignOutFailure } from './types'

/** Set by a sign-out; while present the browser's stored session is not restored (SPEC §4). */
export const LOGGED_OUT_FLAG_KEY = 'recertif.logged-out'

const LOGIN_AFTER_LOGOUT_PATH = '/login?logged_out=true'

export type LogoutReason = 'user' | 'inactivity'

export function loginPathAfterLogout(reason: LogoutReason): string {
  return reason === 'inactivity' ? `${LOGIN_AFTER_LOGOUT_PATH}&reason=inactivity` : LOGIN_AFTER_LOGOUT_PATH
}

export interface BrowserStorage {
  readonly length: number
  key(index: number): string | null
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
  clear(): void
}

export const isLoggedOutFlagSet = (storage: Pick<BrowserStorage, 'getItem'>) => storage.getItem(LOGGED_OUT_FLAG_KEY) === 'true'

export const clearLoggedOutFlag = (storage: Pick<BrowserStorage, 'removeItem'>) => storage.removeItem(LOGGED_OUT_FLAG_KEY)

/** Supabase answers 403 session_not_found when the session is already gone: the sign-out has nothing left to do. */
export function isSessionNotFound(failure: SignOutFailure): boolean {
  return (
    failure.code === 'session_not_found' || (failure.status === 403 && failure.message.includes('session_not_found'))
  )
}

const AUTH_KEY_MARKERS = ['sb-', 'supabase', 'auth']

/** Removes every key that may hold a token or a PKCE verifier (SPEC §9). */
export function clearAuthKeys(storage: BrowserStorage): void {
  const keys = Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter(
    (key): key is string => key !== null && AUTH_KEY_MARKERS.some((marker) => key.includes(marker)),
  )
  for (const key of keys) storage.removeItem(key)
}

/** Expires every cookie visible to the page, at the current path and at the root. */
export function clearCookies(doc: Pick<Document, 'cookie'>): void {
  for (const cookie of doc.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim()
    if (!name) continue
    doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
    doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`
  }
}

/** True when some storage holds a Supabase session token, i.e. there is something to restore. */
export function hasStoredSession(...storages: BrowserStorage[]): boolean {
  return storages.some((storage) =>
    Array.from({ length: storage.length }, (_, index) => storage.key(index)).some(
      (key) => key !== null && key.startsWith('sb-') && key.endsWith('-auth-token'),
    ),
  )
}

export interface LogoutSteps {
  signOut: () => Promise<SignOutFailure | null>
  localStorage: BrowserStorage
  sessionStorage: BrowserStorage
  document: Pick<Document, 'cookie'>
  redirect: () => void
}

/**
 * Logout in this order: global sign-out (session_not_found is normal, other failures are logged
 * and the local state is cleared anyway), storage and cookies, the logged-out flag, then the redirect.
 */
export async function performLogout(steps: LogoutSteps): Promise<void> {
  try {
    const failure = await steps.signOut()
    if (failure && !isSessionNotFound(failure)) console.error('Sign-out failed; clearing the local session anyway', failure)
  } catch (error) {
    console.error('Sign-out failed; clearing the local session anyway', error)
  }
  clearAuthKeys(steps.localStorage)
  steps.sessionStorage.clear()
  clearCookies(steps.document)
  steps.localStorage.setItem(LOGGED_OUT_FLAG_KEY, 'true')
  steps.redirect()
}
