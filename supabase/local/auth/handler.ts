import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ApiContext, RouteHandler } from '../context'
import { send, sendJson } from '../http'
import { authenticate } from './authenticate'
import { AuthError, OAuthError, badRequest, toHttpError } from './errors'
import { passwordGrant, pkceGrant, refreshTokenGrant } from './grants'
import { authorize, health, settings, signup } from './instance'
import { pgcryptoVerifier } from './passwords'
import { FailedSignInLimiter } from './rate-limit'
import { endSessions, type LogoutScope } from './sessions'
import { userJson } from './users'

type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>

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

  const routes: Record<string, Route> = {
    'POST /token': async (req, res, url) => {
      const grantType = url.searchParams.get('grant_type')
      if (grantType === 'password') return sendJson(res, 200, await passwordGrant(context, limiter, verify, req))
      if (grantType === 'refresh_token') return sendJson(res, 200, await refreshTokenGrant(context, req))
      if (grantType === 'pkce') return pkceGrant(req)
      throw badRequest('invalid_credentials', 'unsupported_grant_type')
    },
    'GET /user': async (req, res) => {
      const { user } = await authenticate(db, config, req)
      sendJson(res, 200, await userJson(db, user))
    },
    // Changing e-mail or password needs GoTrue's mailer and re-authentication flows, which the product does not use.
    'PUT /user': async (req) => {
      await authenticate(db, config, req)
      throw new AuthError(422, 'validation_failed', 'Updating the user is not supported by the local server')
    },
    'POST /logout': async (req, res, url) => {
      const requested = url.searchParams.get('scope') ?? ''
      const scope = LOGOUT_SCOPES[requested]
      if (!scope) throw badRequest('validation_failed', `Unsupported logout scope ${JSON.stringify(requested)}`)
      const { user, sessionId } = await authenticate(db, config, req)
      await endSessions(db, scope, user.id, sessionId)
      send(res, 204, '')
    },
    'GET /settings': async (_req, res) => sendJson(res, 200, settings()),
    'GET /health': async (_req, res) => sendJson(res, 200, health()),
    'GET /authorize': async (_req, _res, url) => authorize(url),
    'POST /signup': async () => signup(),
    'GET /callback': async (_req, _res, url) => {
      if (!url.searchParams.get('state')) throw badRequest('bad_oauth_callback', 'OAuth state parameter missing')
      throw badRequest('bad_oauth_state', 'OAuth callback with invalid state')
    },
  }
  const knownPaths = new Set(Object.keys(routes).map((key) => key.slice(key.indexOf(' ') + 1)))

  return async (req, res, { url, path }) => {
    try {
      const route = routes[`${req.method} ${path}`]
      if (!route) {
        if (knownPaths.has(path)) throw new AuthError(405, 'method_not_allowed', 'Method Not Allowed')
        throw new AuthError(404, 'not_found', 'Not Found')
      }
      await route(req, res, url)
    } catch (error) {
      if (error instanceof AuthError || error instanceof OAuthError) throw toHttpError(req, error)
      throw error
    }
  }
}
