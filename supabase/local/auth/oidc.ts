import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose'
import type { ApiContext } from '../context'
import type { Sql } from '../database'
import { clock, createUser, findUserByEmail, redirectTarget, reloadUser } from './accounts'
import { AuthError, badRequest } from './errors'
import { oidcProvidersFromEnv, type OidcProviderConfig, type OidcProviderName } from './oidc-config'
import { s256, type PkceFlows } from './pkce'
import { issuer } from './tokens'
import { isBanned, type UserRow } from './users'

/**
 * Supabase Auth's OAuth sign-in with PKCE against an OpenID Connect provider (Azure, Google): GET /authorize sends the
 * browser to the provider, GET /callback takes its code back, checks the ID token and answers the app's redirect with
 * a one-time code, which POST /token?grant_type=pkce exchanges, with the app's code verifier, for a session.
 * Recertif signs up nobody this way: an e-mail must be an active person of the directory (public.users), or the app
 * hears why not, in French, in error_description.
 */
interface Discovery {
  issuer: string
  authorization_endpoint: string
  token_endpoint: string
  jwks_uri: string
}

interface FlowState {
  provider: OidcProviderConfig
  redirectTo: string
  codeChallenge: string
  codeChallengeMethod: 's256' | 'plain'
  nonce: string
  providerVerifier: string
  expiresAt: number
}

// GoTrue's flow state lives five minutes; the provider's page may take longer to fill in: ten.
const FLOW_LIFETIME_MS = 10 * 60_000
const MAX_PENDING = 10_000

const token = () => randomBytes(32).toString('base64url')

export class OidcFlows {
  private readonly providers: Map<OidcProviderName, OidcProviderConfig>
  private readonly discoveries = new Map<string, Promise<Discovery>>()
  private readonly flows = new Map<string, FlowState>()

  constructor(
    private readonly context: ApiContext,
    private readonly pkce: PkceFlows,
    env: NodeJS.ProcessEnv = process.env,
  ) {
    this.providers = oidcProvidersFromEnv(env)
  }

  /** GoTrue's /settings external flags, true for the providers configured here. */
  withEnabledProviders(settings: Record<string, unknown>): Record<string, unknown> {
    const external = { ...(settings.external as Record<string, boolean> | undefined) }
    for (const name of this.providers.keys()) external[name] = true
    return { ...settings, external }
  }

  /** Whether this /authorize names a provider configured here. */
  handles(url: URL): boolean {
    return this.providers.has((url.searchParams.get('provider') ?? '').toLowerCase() as OidcProviderName)
  }

  private discover(provider: OidcProviderConfig): Promise<Discovery> {
    let discovery = this.discoveries.get(provider.issuer)
    if (!discovery) {
      discovery = fetch(`${provider.issuer}/.well-known/openid-configuration`).then(async (response) => {
        if (!response.ok) throw new Error(`discovery answered ${response.status}`)
        return (await response.json()) as Discovery
      })
      discovery.catch(() => this.discoveries.delete(provider.issuer))
      this.discoveries.set(provider.issuer, discovery)
    }
    return discovery
  }

  private prune(now: number): void {
    for (const [key, flow] of this.flows) if (flow.expiresAt < now) this.flows.delete(key)
    if (this.flows.size > MAX_PENDING) throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached')
  }

  /** GET /authorize: where to send the browser, at the provider. */
  async authorize(url: URL, req: IncomingMessage): Promise<string> {
    const provider = this.providers.get((url.searchParams.get('provider') ?? '').toLowerCase() as OidcProviderName)!
    const codeChallenge = url.searchParams.get('code_challenge') ?? ''
    const method = (url.searchParams.get('code_challenge_method') ?? 'plain').toLowerCase()
    if (!codeChallenge || (method !== 's256' && method !== 'plain')) {
      throw badRequest('validation_failed', 'PKCE flow only: code_challenge and code_challenge_method are required')
    }
    const now = clock(this.context.config).getTime()
    this.prune(now)
    let discovery: Discovery
    try {
      discovery = await this.discover(provider)
    } catch {
      throw new AuthError(500, 'unexpected_failure', `The ${provider.name} provider could not be reached`)
    }
    const state = token()
    const flow: FlowState = {
      provider,
      redirectTo: redirectTarget(this.context.config, url.searchParams.get('redirect_to')),
      codeChallenge,
      codeChallengeMethod: method,
      nonce: token(),
      providerVerifier: token(),
      expiresAt: now + FLOW_LIFETIME_MS,
    }
    this.flows.set(state, flow)
    const target = new URL(discovery.authorization_endpoint)
    const scopes = new Set(['openid', 'email', 'profile', ...(url.searchParams.get('scopes') ?? '').split(/\s+/).filter(Boolean)])
    target.search = new URLSearchParams({
      client_id: provider.clientId,
      redirect_uri: callbackUrl(req),
      response_type: 'code',
      scope: [...scopes].join(' '),
      state,
      nonce: flow.nonce,
      code_challenge: s256(flow.providerVerifier),
      code_challenge_method: 'S256',
    }).toString()
    return target.toString()
  }

  /** GET /callback: the app's redirect, with a one-time code or the reason for refusing, in French. */
  async callback(url: URL, req: IncomingMessage): Promise<string> {
    const state = url.searchParams.get('state')
    if (!state) throw badRequest('bad_oauth_callback', 'OAuth state parameter missing')
    const flow = this.flows.get(state)
    this.flows.delete(state)
    if (!flow || flow.expiresAt < clock(this.context.config).getTime()) throw badRequest('bad_oauth_state', 'OAuth callback with invalid state')
    const providerError = url.searchParams.get('error')
    if (providerError) {
      return withParams(flow.redirectTo, { error: providerError, error_description: url.searchParams.get('error_description') ?? '' })
    }
    let claims: JWTPayload
    try {
      claims = await this.verifiedClaims(flow, url.searchParams.get('code') ?? '', req)
    } catch (error) {
      return withParams(flow.redirectTo, { error: 'server_error', error_description: `La réponse du fournisseur d'identité est refusée : ${(error as Error).message}` })
    }
    const email = emailOf(claims)
    if (!email) {
      return withParams(flow.redirectTo, { error: 'access_denied', error_description: "Le fournisseur d'identité n'a pas donné d'adresse e-mail." })
    }
    const outcome = await this.context.db.transaction((tx) => this.signInPerson(tx, flow.provider, claims, email))
    if ('refusal' in outcome) return withParams(flow.redirectTo, { error: 'access_denied', error_description: outcome.refusal })
    const challenge = { codeChallenge: flow.codeChallenge, codeChallengeMethod: flow.codeChallengeMethod }
    const code = this.pkce.issueCode(outcome.user.id, challenge, 'oauth', clock(this.context.config).getTime())
    return withParams(flow.redirectTo, { code })
  }

  private async verifiedClaims(flow: FlowState, code: string, req: IncomingMessage): Promise<JWTPayload> {
    const discovery = await this.discover(flow.provider)
    const response = await fetch(discovery.token_endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: callbackUrl(req),
        client_id: flow.provider.clientId,
        client_secret: flow.provider.clientSecret,
        code_verifier: flow.providerVerifier,
      }),
    })
    const body = (await response.json().catch(() => ({}))) as { id_token?: string; error?: string; error_description?: string }
    if (!response.ok || !body.id_token) throw new Error(body.error_description ?? body.error ?? `HTTP ${response.status}`)
    const { payload } = await jwtVerify(body.id_token, createRemoteJWKSet(new URL(discovery.jwks_uri)), {
      issuer: discovery.issuer,
      audience: flow.provider.clientId,
    })
    if (payload.nonce !== flow.nonce) throw new Error('nonce')
    return payload
  }

  /** The account of an active person of the directory, created or linked to this provider; nobody else. */
  private async signInPerson(tx: Sql, provider: OidcProviderConfig, claims: JWTPayload, email: string): Promise<{ user: UserRow } | { refusal: string }> {
    const { rows } = await tx.query<{ active: boolean }>(`select active from public.users where lower(email) = lower($1)`, [email])
    const person = rows[0]
    if (!person) return { refusal: `Aucun compte Recertif n'existe pour ${email} : la connexion ne crée pas de compte, demandez-le à votre administrateur.` }
    if (!person.active) return { refusal: `Le compte Recertif de ${email} est désactivé.` }
    const now = clock(this.context.config)
    let user = await findUserByEmail(tx, email)
    if (!user) {
      user = await createUser(tx, { email, confirmedAt: now, appMetadata: { provider: provider.name, providers: [provider.name] } }, now)
    }
    if (isBanned(user)) return { refusal: `Le compte Recertif de ${email} est désactivé.` }
    const identity = { sub: claims.sub, email, email_verified: true, name: claims.name ?? null, iss: claims.iss }
    await tx.query(
      `insert into auth.identities (id, provider_id, user_id, identity_data, provider, created_at, updated_at, last_sign_in_at)
       values (gen_random_uuid(), $1, $2::uuid, $3, $4, $5, $5, $5)
       on conflict (provider_id, provider) do update set identity_data = excluded.identity_data, updated_at = $5, last_sign_in_at = $5`,
      [String(claims.sub), user.id, JSON.stringify(identity), provider.name, now],
    )
    await tx.query(
      `update auth.users set raw_app_meta_data = jsonb_set(coalesce(raw_app_meta_data, '{}'::jsonb), '{providers}',
         (select coalesce(jsonb_agg(distinct p), '[]'::jsonb) from (
            select jsonb_array_elements_text(coalesce(raw_app_meta_data -> 'providers', '[]'::jsonb)) as p union select $2) ps))
        where id = $1::uuid`,
      [user.id, provider.name],
    )
    return { user: (await reloadUser(tx, user.id))! }
  }
}

/** The redirect URI registered at the provider: this API's /callback, as GoTrue's. */
const callbackUrl = (req: IncomingMessage) => `${issuer(req)}/callback`

function withParams(target: string, params: Record<string, string>): string {
  const url = new URL(target)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.toString()
}

/** The person's address: the e-mail claim, or Azure's preferred_username when it is one. */
function emailOf(claims: JWTPayload): string | null {
  for (const value of [claims.email, claims.preferred_username, claims.upn]) {
    if (typeof value === 'string' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) return value.toLowerCase()
  }
  return null
}
