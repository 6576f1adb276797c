import type { IncomingMessage } from 'node:http'
import type { Database, Sql } from '../database'
import { header, headersForPostgres } from '../http'
import { JwtError, verifyJwt, type ApiRole } from '../keys'
import type { ServerConfig } from '../context'
import { pgrstError } from './errors'
import { quoteIdent } from './identifiers'

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

/** The role and claims of the request's bearer token; no token is the anonymous role. */
export async function authenticate(req: IncomingMessage, config: ServerConfig): Promise<Caller> {
  const authorization = header(req, 'authorization')
  const match = /^Bearer(?:\s+(.*))?$/i.exec(authorization?.trim() ?? '')
  if (!match) return { role: 'anon', claims: { role: 'anon' }, authenticated: false }
  const token = (match[1] ?? '').trim()
  if (token === '') throw jwtError('PGRST301', 'Empty JWT is sent in Authorization header')
  const parts = token.split('.').length
  if (parts !== 3) throw jwtError('PGRST301', `Expected 3 parts in JWT; got ${parts}`)
  try {
    const claims = await verifyJwt(token, config.jwtSecret)
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

/**
 * Runs fn in one transaction as the caller: read only for GET and HEAD, role and request settings
 * transaction-local (set_config(…, true)), as PostgREST does before every request.
 */
export async function asCaller<T>(
  db: Database,
  req: IncomingMessage,
  path: string,
  caller: Caller,
  options: { readOnly: boolean; schema: string; timezone?: string },
  fn: (tx: Sql) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction(async (tx) => {
      if (options.readOnly) await tx.exec('set transaction read only')
      await tx.query(
        `select set_config('search_path', $1, true), set_config('role', $2, true), set_config('request.jwt.claims', $3, true),
                set_config('request.method', $4, true), set_config('request.path', $5, true),
                set_config('request.headers', $6, true), set_config('request.cookies', $7, true)`,
        [
          // The request's schema, then Supabase's db-extra-search-path (public, extensions).
          [...new Set([options.schema, 'public', 'extensions'])].map(quoteIdent).join(', '),
          caller.role,
          JSON.stringify(caller.claims),
          req.method ?? 'GET',
          path,
          JSON.stringify(headersForPostgres(req)),
          JSON.stringify(cookies(req)),
        ],
      )
      if (options.timezone) await tx.query(`select set_config('timezone', $1, true)`, [options.timezone])
      return fn(tx)
    })
  } catch (error) {
    if (error instanceof Rollback) return error.response as T
    throw error
  }
}
