export interface SignInLimits {
  /** Failed sign-ins allowed per e-mail within the window (0: no per-e-mail limit). */
  maxFailuresPerEmail: number
  /** Failed sign-ins allowed per client address within the window (0: no per-address limit). */
  maxFailuresPerIp: number
  windowSeconds: number
  /** How many e-mails, and how many addresses, may have failures on record at once. */
  capacity?: number
}

// About 10 MB at most: a few hundred bytes per record.
const DEFAULT_CAPACITY = 20_000

/**
 * Slows down password guessing, against one account and from one address. After `maxFailuresPerEmail` failed
 * sign-ins for an e-mail, or `maxFailuresPerIp` from an address, within `windowSeconds`, further attempts (right
 * password or not) are refused until the oldest failure leaves the window. Unknown e-mails count like known
 * ones, so the limiter does not tell which accounts exist.
 *
 * Nothing an attacker sends can make it forget a record: records leave only when their last failure is older
 * than the window. Memory is bounded without eviction: an address that fails too often is stopped before it
 * can put more than `maxFailuresPerIp` e-mails on record, and when either table is full an attempt that would
 * need a new record is refused until records expire. Under a flood from many addresses that is a refusal for
 * everyone not already on record, which beats letting the flood unblock the account under attack.
 *
 * GoTrue limits /token per client IP (a token bucket of 30, GOTRUE_RATE_LIMIT_TOKEN_REFRESH); per e-mail is
 * what the product asks for. Both answer GoTrue's 429 over_request_rate_limit.
 */
export class FailedSignInLimiter {
  private readonly emails: FailureTable
  private readonly ips: FailureTable

  constructor(limits: SignInLimits) {
    const capacity = limits.capacity ?? DEFAULT_CAPACITY
    this.emails = new FailureTable(limits.maxFailuresPerEmail, limits.windowSeconds, capacity)
    this.ips = new FailureTable(limits.maxFailuresPerIp, limits.windowSeconds, capacity)
  }

  /**
   * Admits a sign-in attempt, counting it as a failure until it proves otherwise (succeeded), or refuses it
   * (false). Counting first means concurrent guesses cannot all pass before the first one is counted.
   */
  begin(email: string, ip: string | null, now: number): boolean {
    const emailKey = email.toLowerCase()
    const ipKey = ip === null ? null : addressKey(ip)
    if (!this.emails.admits(emailKey, now) || (ipKey !== null && !this.ips.admits(ipKey, now))) return false
    this.emails.add(emailKey, now)
    if (ipKey !== null) this.ips.add(ipKey, now)
    return true
  }

  /** The password was right: the e-mail's failures are forgotten, and this attempt no longer counts against the address. */
  succeeded(email: string, ip: string | null, begunAt: number): void {
    this.emails.clear(email.toLowerCase())
    if (ip !== null) this.ips.remove(addressKey(ip), begunAt)
  }
}

/** Failure times per key within a sliding window, at most `capacity` keys; a key leaves only by expiring. */
class FailureTable {
  // Kept in the order of each key's latest failure, so that the expired ones are always at the front.
  private readonly failures = new Map<string, number[]>()
  private readonly windowMs: number

  constructor(
    private readonly limit: number,
    windowSeconds: number,
    private readonly capacity: number,
  ) {
    this.windowMs = windowSeconds * 1000
  }

  /** Whether one more failure may be recorded for the key: under its limit, and on record or with room for it. */
  admits(key: string, now: number): boolean {
    if (this.limit <= 0) return true
    this.expire(now)
    const recent = this.recent(key, now)
    if (recent.length >= this.limit) return false
    return this.failures.has(key) || this.failures.size < this.capacity
  }

  add(key: string, now: number): void {
    if (this.limit <= 0) return
    const recent = this.recent(key, now)
    recent.push(now)
    this.failures.delete(key)
    this.failures.set(key, recent.slice(-this.limit))
  }

  clear(key: string): void {
    this.failures.delete(key)
  }

  /** Takes back one failure recorded at `at`. */
  remove(key: string, at: number): void {
    const times = this.failures.get(key)
    const index = times?.lastIndexOf(at) ?? -1
    if (!times || index < 0) return
    times.splice(index, 1)
    if (times.length === 0) this.failures.delete(key)
  }

  private recent(key: string, now: number): number[] {
    const since = now - this.windowMs
    return (this.failures.get(key) ?? []).filter((at) => at > since)
  }

  private expire(now: number): void {
    const since = now - this.windowMs
    for (const [key, times] of this.failures) {
      if (times.some((at) => at > since)) break
      this.failures.delete(key)
    }
  }
}

/**
 * The unit an address limit counts: an IPv4 address, or an IPv6 /64, since one host is routinely given a whole
 * /64 and could otherwise take a fresh address for each guess.
 */
export function addressKey(address: string): string {
  if (!address.includes(':')) return address
  const [head = '', tail] = address.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  // A trailing dotted IPv4 part fills two groups.
  const written = left.length + right.length + (address.includes('.') ? 1 : 0)
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - written).fill('0'), ...right]
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`
}
