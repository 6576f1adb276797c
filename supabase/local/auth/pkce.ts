import { createHash, randomUUID, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { ApiContext } from '../context'
import { clock, reloadUser } from './accounts'
import { AuthError, badRequest } from './errors'
import { clientInfo, tokenResponse } from './grants'
import { readParams, stringParam } from './params'
import { startSession } from './sessions'
import type { TokenResponse } from './tokens'
import { isBanned } from './users'

/**
 * GoTrue's flow states for PKCE: a client that sends code_challenge with a request (OAuth's /authorize, or /signup,
 * /recover, /otp, /resend, PUT /user for their e-mailed links) is answered, once the person is known, with a one-time
 * auth code on its redirect instead of tokens; POST /token?grant_type=pkce exchanges it with the code verifier.
 * Kept in memory, as the OAuth flows are: a restart forgets pending flows and their links answer flow_state_not_found.
 */
export type ChallengeMethod = 's256' | 'plain'

export interface Challenge {
  codeChallenge: string
  codeChallengeMethod: ChallengeMethod
}

interface AuthCode extends Challenge {
  userId: string
  method: string
  expiresAt: number
}

interface PendingLink extends Challenge {
  expiresAt: number
}

/** The prefix GoTrue gives an e-mailed token of the PKCE flow, in the link and in the database. */
export const PKCE_PREFIX = 'pkce_'

// GoTrue's FLOW_STATE_EXPIRY_DURATION: an auth code is exchanged within five minutes of its issue.
const CODE_LIFETIME_MS = 5 * 60_000
const MAX_PENDING = 10_000
const CHALLENGE = /^[a-zA-Z._~0-9-]{43,128}$/

/** The session's authentication method (its amr) for each e-mailed link type, as GoTrue's ParseAuthenticationMethod. */
const LINK_METHODS: Record<string, string> = {
  signup: 'email/signup',
  invite: 'invite',
  magiclink: 'magiclink',
  recovery: 'recovery',
  email_change: 'email_change',
}

export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')

/**
 * The request's PKCE challenge, checked as GoTrue's validatePKCEParams: none when both fields are absent, refused
 * when one is missing, the method unknown, or the challenge not 43 to 128 unreserved characters.
 */
export function challengeParams(params: Record<string, unknown>): Challenge | undefined {
  const codeChallenge = stringParam(params, 'code_challenge')
  const rawMethod = stringParam(params, 'code_challenge_method')
  if (codeChallenge === '' && rawMethod === '') return undefined
  if (codeChallenge === '' || rawMethod === '') throw badRequest('validation_failed', 'PKCE flow requires code_challenge_method and code_challenge')
  const method = rawMethod.toLowerCase()
  if (method !== 's256' && method !== 'plain') throw badRequest('validation_failed', `unsupported code_challenge method "${rawMethod}"`)
  if (!CHALLENGE.test(codeChallenge)) {
    throw badRequest('validation_failed', 'code challenge has to be between 43 and 128 characters, of letters, digits, hyphens, periods, underscores and tildes')
  }
  return { codeChallenge, codeChallengeMethod: method }
}

const flowNotFound = () => new AuthError(404, 'flow_state_not_found', 'invalid flow state, no valid flow state found')

export class PkceFlows {
  private readonly codes = new Map<string, AuthCode>()
  private readonly links = new Map<string, PendingLink>()

  private prune(now: number): void {
    // An expired code is kept one more lifetime, so that it is refused as expired rather than unknown.
    for (const [key, code] of this.codes) if (code.expiresAt + CODE_LIFETIME_MS < now) this.codes.delete(key)
    for (const [key, link] of this.links) if (link.expiresAt < now) this.links.delete(key)
    if (this.codes.size > MAX_PENDING || this.links.size > MAX_PENDING) throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached')
  }

  /** A one-time code for the user, bound to the client's challenge; `method` is the session's amr. */
  issueCode(userId: string, challenge: Challenge, method: string, now: number): string {
    this.prune(now)
    const code = randomUUID()
    this.codes.set(code, { ...challenge, userId, method, expiresAt: now + CODE_LIFETIME_MS })
    return code
  }

  /** Remembers the challenge of a link mailed to the user, until the link itself expires; a newer link of the type replaces it. */
  awaitLink(userId: string, type: string, challenge: Challenge, now: number, lifetimeMs: number): void {
    this.prune(now)
    this.links.set(`${userId} ${type}`, { ...challenge, expiresAt: now + lifetimeMs })
  }

  /** The followed link's code: the link's flow state becomes an auth code. */
  codeForLink(userId: string, type: string, now: number): string {
    const key = `${userId} ${type}`
    const link = this.links.get(key)
    if (!link || link.expiresAt < now) throw flowNotFound()
    this.links.delete(key)
    return this.issueCode(userId, { codeChallenge: link.codeChallenge, codeChallengeMethod: link.codeChallengeMethod }, LINK_METHODS[type] ?? 'otp', now)
  }

  /**
   * POST /token?grant_type=pkce, as GoTrue's PKCE grant: an unknown or spent code is 404 flow_state_not_found, an
   * expired one 422 flow_state_expired, a wrong verifier 400 bad_code_verifier (the code stays good until it expires).
   * Returns the user and the session's method, the code spent.
   */
  redeem(authCode: string, verifier: string, now: number): { userId: string; method: string } {
    if (!authCode || !verifier) throw badRequest('validation_failed', 'invalid request: both auth code and code verifier should be non-empty')
    const code = this.codes.get(authCode)
    if (!code) throw flowNotFound()
    if (code.expiresAt < now) throw new AuthError(422, 'flow_state_expired', 'invalid flow state, flow state has expired')
    const expected = Buffer.from(code.codeChallengeMethod === 's256' ? s256(verifier) : verifier)
    const saved = Buffer.from(code.codeChallenge)
    if (expected.length !== saved.length || !timingSafeEqual(expected, saved)) {
      throw badRequest('bad_code_verifier', 'code challenge does not match previously saved code verifier')
    }
    this.codes.delete(authCode)
    return { userId: code.userId, method: code.method }
  }
}

/** POST /token?grant_type=pkce: the one-time code and the app's verifier, for a session. */
export async function pkceGrant(context: ApiContext, flows: PkceFlows, req: IncomingMessage): Promise<TokenResponse> {
  const params = await readParams(req)
  const { userId, method } = flows.redeem(stringParam(params, 'auth_code'), stringParam(params, 'code_verifier'), clock(context.config).getTime())
  const issued = await context.db.transaction(async (tx) => {
    const user = await reloadUser(tx, userId)
    if (!user || user.deleted_at) throw new AuthError(404, 'user_not_found', 'User from flow state does not exist')
    if (isBanned(user)) throw badRequest('user_banned', 'User is banned')
    return startSession(tx, user, clientInfo(req))
  })
  return tokenResponse(context, req, issued, method)
}
