import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Database } from './database'

// What the server hands its APIs, apart from the server itself: the APIs depend on these shapes, the server on
// the APIs, and neither on the other's module.

export interface ServerConfig {
  jwtSecret: string
  anonKey: string
  serviceRoleKey: string
  /** The app's origin: where OAuth and e-mail links send people back by default. */
  siteUrl: string
  /** Supabase's max_rows: every read is silently capped here. */
  maxRows: number
  /** Lifetime of an access token, in seconds. */
  jwtExpirySeconds: number
  /** Failed password sign-ins allowed per e-mail within signInFailureWindowSeconds before GoTrue's 429 (0: no limit). */
  signInMaxFailures: number
  /** Failed password sign-ins allowed per client address (an IPv6 /64) within the same window (0: no limit). */
  signInMaxFailuresPerIp: number
  signInFailureWindowSeconds: number
  /** GoTrue's GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL: how long a just-rotated refresh token stays usable. */
  refreshTokenReuseIntervalSeconds: number
  /**
   * Addresses or CIDR blocks of the reverse proxies in front of this server, whose X-Forwarded-For entries are
   * believed (see client-address.ts). Empty: the socket's peer is the client.
   */
  trustedProxies: string[]
}

/** What every API module is built from. */
export interface ApiContext {
  db: Database
  config: ServerConfig
}

/** Handles one request under its API's prefix; `path` is what follows the prefix (for example "/users"). */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, route: { url: URL; path: string }) => Promise<void>
