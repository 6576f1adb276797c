// Remembering every e-mail ever tried would let a stream of random addresses exhaust memory.
const MAX_TRACKED_EMAILS = 10_000

/**
 * Slows down password guessing against one account. After `maxFailures` failed password sign-ins for an
 * e-mail within `windowSeconds`, further attempts for that e-mail (right password or not) are refused until
 * the oldest failure leaves the window. A successful sign-in clears the e-mail's record. Unknown e-mails are
 * counted like known ones, so the limiter does not reveal which accounts exist.
 *
 * GoTrue itself limits /token per client IP (GOTRUE_RATE_LIMIT_TOKEN_REFRESH, a token bucket); per e-mail is
 * what the product asks for, and it answers with the same 429 over_request_rate_limit. A `maxFailures` of 0
 * turns the limiter off.
 */
export class FailedSignInLimiter {
  private readonly failures = new Map<string, number[]>()

  constructor(
    private readonly maxFailures: number,
    private readonly windowSeconds: number,
  ) {}

  /** Whether the e-mail has used up its failures for now. */
  isBlocked(email: string, now = Date.now()): boolean {
    return this.maxFailures > 0 && this.recent(email.toLowerCase(), now).length >= this.maxFailures
  }

  recordFailure(email: string, now = Date.now()): void {
    if (this.maxFailures <= 0) return
    const key = email.toLowerCase()
    const recent = this.recent(key, now)
    recent.push(now)
    this.failures.delete(key)
    this.failures.set(key, recent.slice(-this.maxFailures))
    if (this.failures.size > MAX_TRACKED_EMAILS) {
      const oldestKey = this.failures.keys().next().value
      if (oldestKey !== undefined) this.failures.delete(oldestKey)
    }
  }

  recordSuccess(email: string): void {
    this.failures.delete(email.toLowerCase())
  }

  private recent(key: string, now: number): number[] {
    const since = now - this.windowSeconds * 1000
    return (this.failures.get(key) ?? []).filter((at) => at > since)
  }
}
