import type { IncomingMessage } from 'node:http'
import { decodeJwt } from 'jose'
import { AuthError, OAuthError, badRequest } from './errors'
import { readParams, stringParam } from './params'

// What Recertif leaves switched off, refused in GoTrue's words: SAML SSO, passkeys, the OAuth 2.1 server, Web3 and
// ID-token sign-in, manual identity linking.

export const samlDisabled = () => new AuthError(404, 'saml_provider_disabled', 'SAML 2.0 is disabled')

export const manualLinkingDisabled = () => new AuthError(404, 'manual_linking_disabled', 'Manual linking is disabled')

const oauthServerDisabled = () => new AuthError(404, 'feature_disabled', 'OAuth server is disabled')

/** A surface GoTrue switches off as a whole, and whom it checks first (the signed-in user, or the service role). */
export interface SwitchedOff {
  caller: 'anyone' | 'user' | 'admin'
  refusal: () => AuthError
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`)

/** The surfaces refused whatever the route under them, as GoTrue's middleware refuses them before routing. */
export function switchedOff(path: string): SwitchedOff | undefined {
  if (under(path, '/sso')) return { caller: 'anyone', refusal: samlDisabled }
  if (under(path, '/passkeys')) return { caller: 'anyone', refusal: () => new AuthError(404, 'passkey_disabled', 'Passkeys are disabled') }
  if (under(path, '/oauth') || path === '/.well-known/oauth-authorization-server') return { caller: 'anyone', refusal: oauthServerDisabled }
  if (under(path, '/user/oauth/grants')) return { caller: 'user', refusal: oauthServerDisabled }
  if (under(path, '/admin/oauth')) return { caller: 'admin', refusal: oauthServerDisabled }
  if (under(path, '/admin/custom-providers')) {
    return { caller: 'admin', refusal: () => new AuthError(404, 'feature_disabled', 'Custom OAuth providers are disabled') }
  }
  return undefined
}

export const web3Disabled = () => new AuthError(422, 'web3_provider_disabled', 'Web3 provider is disabled')

// The providers GoTrue's id_token grant knows by name, with their fixed issuers (Azure's is the tenant's; Keycloak's
// is its configured URL, none here).
const ID_TOKEN_ISSUERS: Record<string, string> = {
  apple: 'https://appleid.apple.com',
  google: 'https://accounts.google.com',
  facebook: 'https://www.facebook.com',
  kakao: 'https://kauth.kakao.com',
  keycloak: '',
}

const AZURE_ISSUER = /^https:\/\/login\.microsoftonline\.com\/[^/]+\/v2\.0$/

function azureIssuer(issuer: string, idToken: string): string {
  if (AZURE_ISSUER.test(issuer)) return issuer
  try {
    const detected = decodeJwt(idToken).iss
    if (typeof detected === 'string' && AZURE_ISSUER.test(detected)) return detected
  } catch {
    // Not a JWT: no issuer to read, as GoTrue finds none.
  }
  throw badRequest('validation_failed', 'Unable to detect issuer in ID token for Azure provider')
}

/**
 * POST /token?grant_type=id_token, as GoTrue answers it with no provider enabled for ID tokens: the request's checks,
 * then 400 provider_disabled naming the provider's issuer, or validation_failed for an issuer it does not know.
 * A provider configured for « Se connecter avec » still signs in through /authorize only.
 */
export async function idTokenGrant(req: IncomingMessage): Promise<never> {
  const params = await readParams(req)
  const idToken = stringParam(params, 'id_token')
  const provider = stringParam(params, 'provider')
  const issuer = stringParam(params, 'issuer')
  if (idToken === '') throw new OAuthError('invalid request', 'id_token required')
  if (provider === '' && (stringParam(params, 'client_id') === '' || issuer === '')) {
    throw new OAuthError('invalid request', 'provider or client_id and issuer required')
  }
  const named = Object.entries(ID_TOKEN_ISSUERS).find(([name, known]) => provider === name || (known !== '' && issuer === known))
  let disabledIssuer: string
  if (named) disabledIssuer = named[1]
  else if (provider === 'azure' || AZURE_ISSUER.test(issuer)) disabledIssuer = azureIssuer(issuer, idToken)
  else throw badRequest('validation_failed', `Custom OIDC provider ${JSON.stringify(provider)} not allowed`)
  throw badRequest('provider_disabled', `Provider (issuer ${JSON.stringify(disabledIssuer)}) is not enabled`)
}
