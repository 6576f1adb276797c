import type { ServerConfig } from '../context'
import { badRequest } from './errors'

// The external providers GoTrue knows. None is configured here: Recertif signs people in by e-mail and password,
// and Google sign-in needs a hosted project's client id and secret.
const OAUTH_PROVIDERS = [
  'apple',
  'azure',
  'bitbucket',
  'discord',
  'facebook',
  'figma',
  'fly',
  'github',
  'gitlab',
  'google',
  'keycloak',
  'kakao',
  'linkedin',
  'linkedin_oidc',
  'notion',
  'spotify',
  'slack',
  'slack_oidc',
  'workos',
  'twitch',
  'twitter',
  'zoom',
]

/** GET /settings: e-mail sign-in only; self sign-up is not part of the product unless the server enables it. */
export function settings(config: ServerConfig): Record<string, unknown> {
  const external: Record<string, boolean> = { anonymous_users: false }
  for (const provider of OAUTH_PROVIDERS) external[provider] = false
  Object.assign(external, { email: true, phone: false })
  return {
    external,
    disable_signup: !config.enableSignup,
    mailer_autoconfirm: config.mailerAutoconfirm === true,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
    mfa_enabled: true,
  }
}

export function health(): Record<string, string> {
  return { version: 'recertif-local', name: 'GoTrue', description: 'GoTrue is a user registration and authentication API' }
}

/** GET /authorize: what GoTrue answers for a provider that is known but not enabled, or not known at all. */
export function authorize(url: URL): never {
  const provider = url.searchParams.get('provider') ?? ''
  const reason = OAUTH_PROVIDERS.includes(provider.toLowerCase()) ? 'provider is not enabled' : `Provider ${provider} could not be found`
  throw badRequest('validation_failed', `Unsupported provider: ${reason}`)
}
