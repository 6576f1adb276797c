import type { OAuthProvider } from './types'

/** The name a person knows each provider by. */
export const OAUTH_PROVIDER_NAMES: Record<OAuthProvider, string> = { google: 'Google', azure: 'Microsoft' }

// The provider the tab left for, kept like the return path (its name out of logout's cleanup markers), so that
// /auth/callback can name it in its messages.
export const OAUTH_PROVIDER_KEY = 'recertif.sign-in-provider'

/** The name of the provider this tab left for, or null when the callback was not started here. */
export function pendingOAuthProviderName(storage: Pick<Storage, 'getItem'>): string | null {
  const provider = storage.getItem(OAUTH_PROVIDER_KEY)
  return provider && Object.hasOwn(OAUTH_PROVIDER_NAMES, provider) ? OAUTH_PROVIDER_NAMES[provider as OAuthProvider] : null
}
