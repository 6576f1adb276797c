import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ApiContext, RouteHandler } from '../context'
import { clientAddress } from '../client-address'
import { send, sendJson } from '../http'
import { publicJwk } from '../keys'
import { authenticate } from './authenticate'
import { AuthError, OAuthError, badRequest, toHttpError } from './errors'
import { passwordGrant, refreshTokenGrant } from './grants'
import { adminCreateUser, adminDeleteUser, adminUpdateUser, generateLink, getUser, listUsers, requireAdmin } from './admin'
import { invite, otp, recover, signup, updateUser, verifyGet, verifyPost } from './flows'
import { idTokenGrant, manualLinkingDisabled, switchedOff, web3Disabled } from './disabled'
import { reauthenticate } from './reauthentication'
import { resend } from './resend'
import { adminDeleteFactor, adminListFactors, challenge, enroll, unenroll, verify as verifyFactor } from './mfa'
import { clock } from './accounts'
import { authorize, health, settings } from './instance'
import { OidcFlows } from './oidc'
import { pgcryptoVerifier } from './passwords'
import { PkceFlows, pkceGrant } from './pkce'
import { FailedSignInLimiter } from './rate-limit'
import { AuthRateLimiter, authRateLimits, type AddressLimit, type AuthContext } from './request-limits'
import { endSessions, type LogoutScope } from './sessions'
import { userJson } from './users'

type Route = (req: IncomingMessage, res: ServerResponse, url: URL, id: string, subId: string) => Promise<void>

// Paths with ids, matched to their pattern: the ids are handed to the route.
const PATH_PATTERNS: Array<[RegExp, string]> = [
  [/^\/admin\/users\/([^/]+)$/, '/admin/users/:id'],
  [/^\/admin\/users\/([^/]+)\/factors$/, '/admin/users/:id/factors'],
  [/^\/admin\/users\/([^/]+)\/factors\/([^/]+)$/, '/admin/users/:id/factors/:factorId'],
  [/^\/factors\/([^/]+)$/, '/factors/:id'],
  [/^\/factors\/([^/]+)\/challenge$/, '/factors/:id/challenge'],
  [/^\/factors\/([^/]+)\/verify$/, '/factors/:id/verify'],
  [/^\/user\/identities\/(?!authorize$)([^/]+)$/, '/user/identities/:id'],
]

// The grants GoTrue answers, all counted by its token_refresh limit before the body is read.
const TOKEN_GRANTS = new Set(['password', 'refresh_token', 'pkce', 'id_token', 'web3'])

const LOGOUT_SCOPES: Record<string, LogoutScope> = { '': 'global', global: 'global', local: 'local', others: 'others' }

/** The GoTrue-compatible /auth/v1 API, over the database's auth schema. */
export function createAuthHandler(context: ApiContext): RouteHandler {
  const { db, config } = context
  const limiter = new FailedSignInLimiter({
    maxFailuresPerEmail: config.signInMaxFailures,
    maxFailuresPerIp: config.signInMaxFailuresPerIp,
    windowSeconds: config.signInFailureWindowSeconds,
  })
  const verify = pgcryptoVerifier(db)
  const auth: AuthContext = { ...context, limits: new AuthRateLimiter(authRateLimits(config.authRateLimits)), pkce: new PkceFlows() }
  // Counts the request against the client address's bucket of this kind, or answers GoTrue's 429.
  const admit = (kind: AddressLimit, req: IncomingMessage) => auth.limits.admit(kind, clientAddress(req), clock(config).getTime())
  // Sign-in with the OpenID Connect providers configured by AUTH_EXTERNAL_* (oidc-config.ts).
  const oidc = new OidcFlows(context, auth.pkce)

  const routes: Record<string, Route> = {
    'POST /token': async (req, res, url) => {
      const grantType = url.searchParams.get('grant_type')
      if (grantType && TOKEN_GRANTS.has(grantType)) admit('tokenRefresh', req)
      if (grantType === 'password') return sendJson(res, 200, await passwordGrant(context, limiter, verify, req))
      if (grantType === 'refresh_token') return sendJson(res, 200, await refreshTokenGrant(context, req))
      if (grantType === 'pkce') return sendJson(res, 200, await pkceGrant(context, auth.pkce, req))
      if (grantType === 'web3') throw web3Disabled()
      if (grantType === 'id_token') return idTokenGrant(req)
      throw badRequest('invalid_credentials', 'unsupported_grant_type')
    },
    'GET /user': async (req, res) => {
      const { user } = await authenticate(db, config, req)
      sendJson(res, 200, await userJson(db, user))
    },
    'PUT /user': async (req, res, url) => {
      const who = await authenticate(db, config, req)
      admit('signInSignUps', req)
      sendJson(res, 200, await updateUser(auth, req, url, who))
    },
    'GET /reauthenticate': async (req, res) => {
      sendJson(res, 200, await reauthenticate(auth, await authenticate(db, config, req)))
    },
    // GoTrue checks the signed-in user first, then refuses: manual linking is off.
    'GET /user/identities/authorize': async (req) => {
      await authenticate(db, config, req)
      throw manualLinkingDisabled()
    },
    'DELETE /user/identities/:id': async (req) => {
      await authenticate(db, config, req)
      throw manualLinkingDisabled()
    },
    'POST /logout': async (req, res, url) => {
      const requested = url.searchParams.get('scope') ?? ''
      const scope = LOGOUT_SCOPES[requested]
      if (!scope) throw badRequest('validation_failed', `Unsupported logout scope ${JSON.stringify(requested)}`)
      const { user, sessionId } = await authenticate(db, config, req)
      await endSessions(db, scope, user.id, sessionId)
      send(res, 204, '')
    },
    'GET /settings': async (_req, res) => sendJson(res, 200, oidc.withEnabledProviders(settings(config))),
    // The keys that verify access tokens, for servers that check them without the secret (supabase.auth.getClaims()).
    'GET /.well-known/jwks.json': async (_req, res) => sendJson(res, 200, { keys: [publicJwk(config.signingKey)] }),
    'GET /health': async (_req, res) => sendJson(res, 200, health()),
    'GET /authorize': async (req, res, url) => {
      if (!oidc.handles(url)) authorize(url)
      send(res, 302, '', { Location: await oidc.authorize(url, req) })
    },
    // Counted before the address is looked up, so that known and unknown e-mails meet the same limit.
    'POST /signup': async (req, res, url) => {
      admit('signInSignUps', req)
      sendJson(res, 200, await signup(auth, req, url))
    },
    'POST /recover': async (req, res, url) => {
      admit('signInSignUps', req)
      sendJson(res, 200, await recover(auth, req, url))
    },
    'POST /resend': async (req, res, url) => {
      admit('signInSignUps', req)
      sendJson(res, 200, await resend(auth, req, url))
    },
    'POST /otp': async (req, res, url) => {
      admit('signInSignUps', req)
      sendJson(res, 200, await otp(auth, req, url))
    },
    'POST /verify': async (req, res) => {
      admit('tokenVerifications', req)
      sendJson(res, 200, await verifyPost(auth, req))
    },
    // GoTrue answers a followed link with 303 See Other to the redirect, the outcome in the fragment.
    'GET /verify': async (req, res, url) => {
      admit('tokenVerifications', req)
      send(res, 303, '', { Location: await verifyGet(auth, req, url) })
    },
    'POST /invite': async (req, res, url) => {
      await requireAdmin(context, req)
      sendJson(res, 200, await invite(auth, req, url))
    },
    'GET /admin/users': async (req, res, url) => {
      await requireAdmin(context, req)
      const { body, headers } = await listUsers(context, url)
      sendJson(res, 200, body, headers)
    },
    'POST /admin/users': async (req, res) => {
      await requireAdmin(context, req)
      sendJson(res, 200, await adminCreateUser(context, req))
    },
    'GET /admin/users/:id': async (req, res, _url, id) => {
      await requireAdmin(context, req)
      sendJson(res, 200, await getUser(context, id))
    },
    'PUT /admin/users/:id': async (req, res, _url, id) => {
      await requireAdmin(context, req)
      sendJson(res, 200, await adminUpdateUser(context, req, id))
    },
    'DELETE /admin/users/:id': async (req, res, _url, id) => {
      await requireAdmin(context, req)
      sendJson(res, 200, await adminDeleteUser(context, req, id))
    },
    'POST /admin/generate_link': async (req, res) => {
      await requireAdmin(context, req)
      sendJson(res, 200, await generateLink(context, req))
    },
    'POST /factors': async (req, res) => {
      sendJson(res, 200, await enroll(context, req, await authenticate(db, config, req)))
    },
    'POST /factors/:id/challenge': async (req, res, _url, id) => {
      sendJson(res, 200, await challenge(context, req, await authenticate(db, config, req), id))
    },
    // Counted with the other codes' verifications, before the code is looked at.
    'POST /factors/:id/verify': async (req, res, _url, id) => {
      const who = await authenticate(db, config, req)
      admit('tokenVerifications', req)
      sendJson(res, 200, await verifyFactor(context, req, who, id))
    },
    'DELETE /factors/:id': async (req, res, _url, id) => {
      sendJson(res, 200, await unenroll(context, await authenticate(db, config, req), id))
    },
    'GET /admin/users/:id/factors': async (req, res, _url, id) => {
      await requireAdmin(context, req)
      sendJson(res, 200, await adminListFactors(context, id))
    },
    'DELETE /admin/users/:id/factors/:factorId': async (req, res, _url, id, factorId) => {
      await requireAdmin(context, req)
      sendJson(res, 200, await adminDeleteFactor(context, id, factorId))
    },
    'GET /callback': async (req, res, url) => send(res, 302, '', { Location: await oidc.callback(url, req) }),
  }
  const knownPaths = new Set(Object.keys(routes).map((key) => key.slice(key.indexOf(' ') + 1)))

  return async (req, res, { url, path }) => {
    try {
      const off = switchedOff(path)
      if (off) {
        if (off.caller === 'user') await authenticate(db, config, req)
        if (off.caller === 'admin') await requireAdmin(context, req)
        throw off.refusal()
      }
      let pattern = path
      let ids: string[] = []
      for (const [regex, name] of PATH_PATTERNS) {
        const match = regex.exec(path)
        if (match) [pattern, ids] = [name, match.slice(1)]
      }
      const route = routes[`${req.method} ${pattern}`]
      if (!route) {
        if (knownPaths.has(pattern)) throw new AuthError(405, 'method_not_allowed', 'Method Not Allowed')
        throw new AuthError(404, 'not_found', 'Not Found')
      }
      await route(req, res, url, ids[0] ?? '', ids[1] ?? '')
    } catch (error) {
      if (error instanceof AuthError || error instanceof OAuthError) throw toHttpError(req, error)
      throw error
    }
  }
}
