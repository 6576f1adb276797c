import type { IncomingMessage, ServerResponse } from 'node:http'
import type { JWK } from 'jose'
import type { Database } from './database'

// What the server hands its APIs, apart from the server itself: the APIs depend on these shapes, the server on
// the APIs, and neither on the other's module.

export interface ServerConfig {
  /** The legacy shared secret: HS256 tokens signed with it still verify, as on a project that migrated to signing keys. */
  jwtSecret: string
  /** The private ES256 key (with its kid) that signs access tokens; its public half is the JWKS. */
  signingKey: JWK
  /** The legacy JWT API keys, still accepted beside the new ones. */
  anonKey: string
  serviceRoleKey: string
  /** The new API keys (sb_publishable_…, sb_secret_…): opaque, standing for anon and service_role. */
  publishableKey: string
  secretKey: string
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
  /**
   * PostgREST's db-schemas: the schemas the REST API exposes, the first by default, another when a request names it
   * in Accept-Profile or Content-Profile. Supabase exposes `public` unless configured otherwise.
   */
  exposedSchemas?: string[]
  /** PostgREST's db-plan-enabled: EXPLAIN plans through `Accept: application/vnd.pgrst.plan`. Off, as on Supabase. */
  planEnabled?: boolean
  /** GoTrue's GOTRUE_DISABLE_SIGNUP inverted: self sign-up (/signup, /otp creating an account) is off unless set. */
  enableSignup?: boolean
  /** Where auth e-mails are sent (GoTrue's SMTP settings, e.g. the mail catcher's smtp://127.0.0.1:54325); none: not sent. */
  smtpUrl?: string
  /** GoTrue's GOTRUE_MAILER_OTP_EXP: how long an e-mailed code or link stays valid, in seconds (default 1 h, Supabase's otp_expiry). */
  mailerOtpExpSeconds?: number
  /** GoTrue's GOTRUE_MAILER_AUTOCONFIRM: sign-ups are confirmed at once and answered with a session (default off). */
  mailerAutoconfirm?: boolean
  /** GoTrue's GOTRUE_SMTP_MAX_FREQUENCY: seconds between two e-mails of a kind to one account (default 60). */
  mailerMaxFrequencySeconds?: number
  /**
   * GoTrue's GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED (config.toml's double_confirm_changes): an e-mail change is
   * confirmed from both the current and the new address (default off: the new one alone).
   */
  mailerSecureEmailChange?: boolean
  /**
   * GoTrue's GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION (config.toml's secure_password_change): a session
   * older than 24 hours changes its password only with the nonce GET /reauthenticate mails (default off).
   */
  securePasswordChange?: boolean
  /** GoTrue's GOTRUE_PASSWORD_MIN_LENGTH: the shortest password sign-ups and password changes take (default 6). */
  passwordMinLength?: number
  /**
   * GoTrue's GOTRUE_PASSWORD_REQUIRED_CHARACTERS: sets of characters a new password takes one of each of (Supabase's
   * « letters and digits » is the letters, then the digits); none by default.
   */
  passwordRequiredCharacters?: string[]
  /** GoTrue's request limits; each one not given is Supabase's default (auth/request-limits.ts). */
  authRateLimits?: Partial<AuthRateLimits>
  /** The auth API's clock, so tests can expire links without waiting. */
  now?: () => Date
}

/**
 * Supabase's auth rate limits, as `supabase/config.toml`'s [auth.rate_limit] names them. GoTrue counts the last three
 * per client address and e-mails for the whole project. 0 turns a limit off.
 */
export interface AuthRateLimits {
  /** E-mails sent per hour, whoever asks (email_sent; GoTrue's RATE_LIMIT_EMAIL_SENT). */
  emailSent: number
  /** /signup, /recover, /otp and PUT /user per address per 5 minutes (sign_in_sign_ups; GoTrue's RATE_LIMIT_OTP). */
  signInSignUps: number
  /** /token requests, every grant, per address per 5 minutes (token_refresh; GoTrue's RATE_LIMIT_TOKEN_REFRESH). */
  tokenRefresh: number
  /** /verify requests (links and six-digit codes) per address per 5 minutes (token_verifications; RATE_LIMIT_VERIFY). */
  tokenVerifications: number
}

/** What every API module is built from. */
export interface ApiContext {
  db: Database
  config: ServerConfig
}

/** Handles one request under its API's prefix; `path` is what follows the prefix (for example "/users"). */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, route: { url: URL; path: string }) => Promise<void>
