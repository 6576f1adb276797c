/** Where to go after signing in: the page the visitor asked for, if it is one of ours, else the dashboard. */
export const DEFAULT_AFTER_SIGN_IN = '/app/dashboard'

// Kept across the round trip to the identity provider, in this tab only; the name avoids the markers logout clears early.
export const OAUTH_RETURN_KEY = 'recertif.return-to'

export interface RequestedLocation {
  pathname: string
  search?: string
  hash?: string
}

export function isSafeReturnPath(path: unknown): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\') && !path.startsWith('/login')
}

export function returnPathFrom(from: RequestedLocation | null | undefined): string {
  if (!from || typeof from.pathname !== 'string') return DEFAULT_AFTER_SIGN_IN
  const path = `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`
  return isSafeReturnPath(path) ? path : DEFAULT_AFTER_SIGN_IN
}
