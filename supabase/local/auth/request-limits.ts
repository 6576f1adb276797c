import type { ApiContext, AuthRateLimits } from '../context'
import { AuthError } from './errors'
import { BoundedRecords, addressKey } from './rate-limit'
import type { PkceFlows } from './pkce'

export type { AuthRateLimits }

/** The defaults of a Supabase project's config.toml. */
export const SUPABASE_AUTH_RATE_LIMITS: AuthRateLimits = { emailSent: 2, signInSignUps: 30, tokenRefresh: 150, tokenVerifications: 30 }

/** Where `npm run backend` reads each limit from, after config.toml's names. */
export const AUTH_RATE_LIMIT_ENV: Record<keyof AuthRateLimits, string> = {
  emailSent: 'AUTH_RATE_LIMIT_EMAIL_SENT',
  signInSignUps: 'AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS',
  tokenRefresh: 'AUTH_RATE_LIMIT_TOKEN_REFRESH',
  tokenVerifications: 'AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS',
}

export type AddressLimit = Exclude<keyof AuthRateLimits, 'emailSent'>

const FIVE_MINUTES_MS = 5 * 60_000
const HOUR_MS = 60 * 60_000
// GoTrue's burst for its limits per address (tollbooth's SetBurst(30)); a lower limit is its own burst here.
const ADDRESS_BURST = 30
// Addresses on record per limit: about 1 MB each at most.
const DEFAULT_CAPACITY = 20_000

/** The auth API's context with its limiter, which the flows that send e-mail need. */
export interface AuthContext extends ApiContext {
  limits: AuthRateLimiter
  /** The PKCE flow states: OAuth's and the e-mailed links' auth codes. */
  pkce: PkceFlows
}

/** The limits in force: Supabase's defaults, with the server's own values where it sets them. */
export function authRateLimits(configured: Partial<AuthRateLimits> = {}): AuthRateLimits {
  return { ...SUPABASE_AUTH_RATE_LIMITS, ...configured }
}

/** The limits set in the environment (AUTH_RATE_LIMIT_*); a value that is not a whole number stops the start. */
export function authRateLimitsFromEnv(env: Record<string, string | undefined>): Partial<AuthRateLimits> {
  const limits: Partial<AuthRateLimits> = {}
  for (const [key, name] of Object.entries(AUTH_RATE_LIMIT_ENV) as [keyof AuthRateLimits, string][]) {
    const value = env[name]?.trim()
    if (!value) continue
    if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number of requests (0 turns the limit off), not "${value}"`)
    limits[key] = Number(value)
  }
  return limits
}

/**
 * GoTrue's request limits: a token bucket per client address (an IPv6 /64 counts as one) for each limit, and one
 * for the project's e-mails. Requests refused do not count. Each table is bounded and never refuses a newcomer for
 * want of room (BoundedRecords): a flood from many addresses only makes it forget the least drained buckets.
 */
export class AuthRateLimiter {
  private readonly perAddress = new Map<AddressLimit, TokenBuckets>()
  private readonly mail: TokenBuckets | undefined

  constructor(limits: AuthRateLimits, capacity = DEFAULT_CAPACITY) {
    for (const kind of ['signInSignUps', 'tokenRefresh', 'tokenVerifications'] as const) {
      const limit = limits[kind]
      if (limit > 0) this.perAddress.set(kind, new TokenBuckets(Math.min(limit, ADDRESS_BURST), limit / FIVE_MINUTES_MS, capacity))
    }
    if (limits.emailSent > 0) this.mail = new TokenBuckets(limits.emailSent, limits.emailSent / HOUR_MS, 1)
  }

  /** Counts a request of this kind from the address, or refuses it with GoTrue's 429 over_request_rate_limit. */
  admit(kind: AddressLimit, ip: string | null, now: number): void {
    const buckets = this.perAddress.get(kind)
    if (buckets && !buckets.take(ip === null ? '' : addressKey(ip), now)) {
      throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached')
    }
  }

  /** Counts an e-mail about to be sent, or refuses it with GoTrue's 429 over_email_send_rate_limit. */
  admitMail(now: number): void {
    if (this.mail && !this.mail.take('', now)) throw new AuthError(429, 'over_email_send_rate_limit', 'Email rate limit exceeded')
  }
}

interface Bucket {
  tokens: number
  at: number
}

/** A token bucket per key, as tollbooth keeps them for GoTrue: `burst` requests at once, then `perMs` refilled. */
class TokenBuckets {
  private readonly buckets: BoundedRecords<Bucket>

  constructor(
    private readonly burst: number,
    private readonly perMs: number,
    capacity: number,
  ) {
    this.buckets = new BoundedRecords(capacity, {
      // A full bucket is what a new key gets: forgetting it changes nothing.
      expired: (bucket, now) => this.level(bucket, now) >= burst,
      weight: (bucket, now) => burst - this.level(bucket, now),
    })
  }

  /** Takes a token for the key if one is left. */
  take(key: string, now: number): boolean {
    const bucket = this.buckets.get(key)
    const tokens = bucket ? this.level(bucket, now) : this.burst
    if (tokens < 1) return false
    this.buckets.put(key, { tokens: tokens - 1, at: now }, now)
    return true
  }

  /** The tokens in the bucket now; a clock set back (tests) refills nothing. */
  private level(bucket: Bucket, now: number): number {
    return Math.min(this.burst, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs)
  }
}
