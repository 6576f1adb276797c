import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

/** The client the journeys' backend is registered as at the provider; test values, no real secret. */
const CLIENT = { id: 'recertif-e2e', secret: 'a-secret-for-browser-tests-only' }

export interface OpenIdProvider {
  /** The backend's settings for Supabase's azure provider: AUTH_EXTERNAL_AZURE_URL (the issuer), _CLIENT_ID, _SECRET. */
  azureEnv: Record<string, string>
  close(): Promise<void>
}

/**
 * A real OpenID provider (oidc-provider, certified) on a free loopback port, standing in for a Microsoft Entra tenant.
 * Its own login page takes any login as the person's e-mail and any password; its consent page follows.
 */
export async function startOpenIdProvider(backendCallbackUrl: string): Promise<OpenIdProvider> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const provider = new Provider(issuer, {
    clients: [
      { client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [backendCallbackUrl], token_endpoint_auth_method: 'client_secret_post' },
    ],
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, email: sub, email_verified: true, name: `Personne ${sub}` }) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    cookies: { keys: ['cookie-key-for-browser-tests'] },
  })
  server.on('request', provider.callback())
  return {
    azureEnv: { AUTH_EXTERNAL_AZURE_URL: issuer, AUTH_EXTERNAL_AZURE_CLIENT_ID: CLIENT.id, AUTH_EXTERNAL_AZURE_SECRET: CLIENT.secret },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
