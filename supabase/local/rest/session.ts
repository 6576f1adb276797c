import type { IncomingMessage } from 'node:http'
import type { Database, Sql } from '../database'
import { header, headersForPostgres } from '../http'
import { JwtError, apiKeyClaims, verifyJwt, type ApiRole, type Claims, type TokenKeys } from '../keys'
import type { ServerConfig } from '../context'
import { pgrstError } from './errors'
import { quoteIdent, quoteLiteral } from './identifiers'
import { roleStatementTimeout } from './timeouts'

// Who is calling, and the transaction PostgREST opens for them: the caller's role, and the request
// (claims, method, path, headers, cookies) in transaction-local settings that policies and functions read.

export interface Caller {
  role: ApiRole
  claims: Record<string, unknown>
  /** PostgREST answers 42501 with 403 to a signed-in role and 401 to the anonymous one. */
  authenticated: boolean
}

function jwtError(code: 'PGRST301' | 'PGRST303', message: string) {
  return pgrstError(401, code, message, null, null, {
    'WWW-Authenticate': `Bearer error="invalid_token", error_description=${JSON.stringify(message)}`,
  })
}

/**
 * Tokens that verified, with their claims, as PostgREST's JWT cache keeps them: a client sends the same token with each
 * request, and verifying it (an HMAC through WebCrypto, its key imported anew each time) took a fifth of this server's
 * time per decision with 50 reviewers deciding at once. An entry serves only the keys that verified it and only
 * until the token's exp, which is checked at each use as jose checks it; the oldest entry goes first.
 */
const verifiedTokens = new Map<string, { keys: TokenKeys; claims: Claims }>()
const MAX_VERIFIED_TOKENS = 10_000

/** The role and claims of the request's bearer token; no token is the anonymous role. */
export async function authenticate(req: IncomingMessage, config: ServerConfig): Promise<Caller> {
  const authorization = header(req, 'authorization')
  const match = /^Bearer(?:\s+(.*))?$/i.exec(authorization?.trim() ?? '')
  if (!match) return { role: 'anon', claims: { role: 'anon' }, authenticated: false }
  const token = (match[1] ?? '').trim()
  if (token === '') throw jwtError('PGRST301', 'Empty JWT is sent in Authorization header')
  const apiKey = apiKeyClaims(token, config)
  if (apiKey) return { role: apiKey.role, claims: apiKey, authenticated: apiKey.role !== 'anon' }
  const parts = token.split('.').length
  if (parts !== 3) throw jwtError('PGRST301', `Expected 3 parts in JWT; got ${parts}`)
  const cached = verifiedTokens.get(token)
  if (cached && cached.keys === config && (cached.claims.exp === undefined || cached.claims.exp > Math.floor(Date.now() / 1000))) {
    return { role: cached.claims.role, claims: cached.claims, authenticated: cached.claims.role !== 'anon' }
  }
  try {
    const claims = await verifyJwt(token, config)
    if (verifiedTokens.size >= MAX_VERIFIED_TOKENS) verifiedTokens.delete(verifiedTokens.keys().next().value!)
    verifiedTokens.set(token, { keys: config, claims })
    return { role: claims.role, claims, authenticated: claims.role !== 'anon' }
  } catch (error) {
    if (error instanceof JwtError && error.expired) throw jwtError('PGRST303', 'JWT expired')
    if (error instanceof JwtError && error.message !== 'invalid JWT') throw jwtError('PGRST301', error.message)
    throw jwtError('PGRST301', 'JWT cryptographic operation failed')
  }
}

function cookies(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of (header(req, 'cookie') ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0) out[part.slice(0, eq).trim()] = part.slice(eq + 1).trim()
  }
  return out
}

/** Raised inside the transaction to roll it back while still answering with `response`. */
export class Rollback<T> extends Error {
  constructor(readonly response: T) {
    super('rollback')
  }
}

interface CallerOptions {
  schema: string
  timezone?: string
  /** A called function's own statement_timeout setting, which PostgREST applies in place of its role's. */
  statementTimeout?: string
}

/** The statement timeout of the caller's transaction, for a database that applies it itself (PGlite's thread). */
const statementOptions = (caller: Caller, options: CallerOptions) => ({ statementTimeout: options.statementTimeout ?? roleStatementTimeout(caller.role) })

/** What PostgREST sets before every request, as [setting, value] pairs for set_config(…, true). */
function requestSettings(req: IncomingMessage, path: string, caller: Caller, options: CallerOptions): Array<[string, string]> {
  const settings: Array<[string, string]> = [
    // The request's schema, then Supabase's db-extra-search-path (public, extensions).
    ['search_path', [...new Set([options.schema, 'public', 'extensions'])].map(quoteIdent).join(', ')],
    ['role', caller.role],
    ['request.jwt.claims', JSON.stringify(caller.claims)],
    ['request.method', req.method ?? 'GET'],
    ['request.path', path],
    ['request.headers', JSON.stringify(headersForPostgres(req))],
    ['request.cookies', JSON.stringify(cookies(req))],
    ['statement_timeout', statementOptions(caller, options).statementTimeout],
  ]
  if (options.timezone) settings.push(['timezone', options.timezone])
  return settings
}

/**
 * Runs fn in one transaction as the caller: read only for GET and HEAD, role and request settings
 * transaction-local (set_config(…, true)), as PostgREST does before every request.
 */
export async function asCaller<T>(
  db: Database,
  req: IncomingMessage,
  path: string,
  caller: Caller,
  options: CallerOptions & { readOnly: boolean },
  fn: (tx: Sql) => Promise<T>,
): Promise<T> {
  const settings = requestSettings(req, path, caller, options)
  try {
    return await db.transaction(async (tx) => {
      if (options.readOnly) await tx.exec('set transaction read only')
      await tx.query(`select ${settings.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ')}`, settings.flat())
      return fn(tx)
    }, statementOptions(caller, options))
  } catch (error) {
    if (error instanceof Rollback) return error.response as T
    throw error
  }
}

/**
 * The same as asCaller around one writing statement whose outcome needs no second look (no rollback after it), in
 * one round trip instead of four (begin, settings, statement, commit): the settings and the statement go in one
 * message, which the database commits as soon as the statement ends. Besides the messages saved on both sides, a
 * decision's audit row holds the audit chain's lock until its transaction ends (20261121000300_audit.sql), and the
 * commit no longer waits meanwhile for this process to read the result among the other reviewers' requests.
 * Undefined when a setting cannot be a constant: the caller then takes asCaller.
 */
export async function writeAsCaller<T>(
  db: Database,
  req: IncomingMessage,
  path: string,
  caller: Caller,
  options: CallerOptions,
  statement: string,
): Promise<T[] | undefined> {
  const literals = requestSettings(req, path, caller, options).map(([name, value]) => [quoteLiteral(name), quoteLiteral(value)])
  if (literals.some(([name, value]) => name === undefined || value === undefined)) return undefined
  const settings = literals.map(([name, value]) => `set_config(${name}, ${value}, true)`).join(', ')
  return (await db.script<T>(`select ${settings};\n${statement}`, statementOptions(caller, options))).rows
}
