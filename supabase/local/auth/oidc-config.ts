/**
 * The external OpenID Connect providers of the local backend, as a Supabase project configures them
 * (config.toml [auth.external.azure] / [auth.external.google]): a client id, a secret and, for Azure, the tenant's URL
 * (its issuer, e.g. https://login.microsoftonline.com/<tenant>/v2.0, or the tenant's URL without /v2.0 as config.toml's
 * url takes it). Read from AUTH_EXTERNAL_<PROVIDER>_CLIENT_ID, _SECRET and _URL; a provider without client id and
 * secret stays disabled, as in GoTrue.
 */
export const OIDC_PROVIDERS = ['azure', 'google'] as const
export type OidcProviderName = (typeof OIDC_PROVIDERS)[number]

export interface OidcProviderConfig {
  name: OidcProviderName
  issuer: string
  clientId: string
  clientSecret: string
}

const DEFAULT_ISSUERS: Record<OidcProviderName, string | null> = {
  azure: 'https://login.microsoftonline.com/common/v2.0',
  google: 'https://accounts.google.com',
}

export function oidcProvidersFromEnv(env: NodeJS.ProcessEnv = process.env): Map<OidcProviderName, OidcProviderConfig> {
  const providers = new Map<OidcProviderName, OidcProviderConfig>()
  for (const name of OIDC_PROVIDERS) {
    const prefix = `AUTH_EXTERNAL_${name.toUpperCase()}_`
    const clientId = env[`${prefix}CLIENT_ID`]
    const clientSecret = env[`${prefix}SECRET`]
    const issuer = env[`${prefix}URL`] || DEFAULT_ISSUERS[name]
    if (clientId && clientSecret && issuer) providers.set(name, { name, issuer: issuerOf(name, issuer), clientId, clientSecret })
  }
  return providers
}

/** A Microsoft tenant's URL as Supabase's Azure Tenant URL gives it (without /v2.0) names the same issuer as GoTrue's. */
function issuerOf(name: OidcProviderName, url: string): string {
  const trimmed = url.replace(/\/+$/, '')
  const microsoft = name === 'azure' && /^https:\/\/login\.microsoftonline\.com\/[^/]+$/i.test(trimmed)
  return microsoft ? `${trimmed}/v2.0` : trimmed
}
