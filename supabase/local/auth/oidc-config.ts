/**
 * The external OpenID Connect providers of the local backend, as a Supabase project configures them
 * (config.toml [auth.external.azure] / [auth.external.google]): a client id, a secret and, for Azure, the tenant's URL
 * (its issuer, e.g. https://login.microsoftonline.com/<tenant>/v2.0). Read from AUTH_EXTERNAL_<PROVIDER>_CLIENT_ID,
 * _SECRET and _URL; a provider without client id and secret stays disabled, as in GoTrue.
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
    if (clientId && clientSecret && issuer) providers.set(name, { name, issuer: issuer.replace(/\/+$/, ''), clientId, clientSecret })
  }
  return providers
}
