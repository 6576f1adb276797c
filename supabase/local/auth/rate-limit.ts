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
// How many of the least recently touched records a full table compares to choose the one it forgets.
const EVICTION_SAMPLE = 32

/**
 * Slows down password guessing, against one account and from one address. After `maxFailuresPerEmail` failed
 * sign-ins for an e-mail, or `maxFailuresPerIp` from an address, within `windowSeconds`, further attempts (right
 * password or not) are refused until the oldest failure leaves the window. Unknown e-mails count like known
 * ones, so the limiter does not tell which accounts exist.
 *
 * Memory is bounded: each table holds at most `capacity` records. A full table first forgets the records whose
 * failures have all left the window, then the one with the fewest failures among its least recently failing, and
 * never refuses a newcomer: a flood of made-up e-mails or addresses cannot lock innocent people out. To make it
 * forget an account under attack, a flood must put more failures than that account has on every record it
 * compares, at the price of a full bcrypt comparison each and within each address's own limit.
 *
 * GoTrue limits /token per client IP (a token bucket, request-limits.ts); per e-mail is what the product asks
 * for. Both answer GoTrue's 429 over_request_rate_limit.
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

/** What a bounded table needs to know of its records to choose which one to forget. */
export interface RecordPolicy<V> {
  /** The record says nothing any more: forgetting it changes no answer. */
  expired(value: V, now: number): boolean
  /** How much forgetting it would give back to whoever it limits; the lightest of a sample goes first. */
  weight(value: V, now: number): number
}

/**
 * At most `capacity` records, kept in the order they were last stored. Expired records at the front leave as new
 * ones come; when the table is full and none has expired, the lightest of its EVICTION_SAMPLE least recently
 * stored records makes room (the oldest on a tie), so that storing always succeeds.
 */
export class BoundedRecords<V> {
  private readonly records = new Map<string, V>()

  constructor(
    private readonly capacity: number,
    private readonly policy: RecordPolicy<V>,
  ) {}

  get size(): number {
    return this.records.size
  }

  get(key: string): V | undefined {
    return this.records.get(key)
  }

  /** Stores the record as the most recent, making room for it first if its key is new and the table full. */
  put(key: string, value: V, now: number): void {
    this.records.delete(key)
    this.dropExpired(now)
    if (this.records.size >= this.capacity) this.evictLightest(now)
    this.records.set(key, value)
  }

  delete(key: string): void {
    this.records.delete(key)
  }

  private dropExpired(now: number): void {
    for (const [key, value] of this.records) {
      if (!this.policy.expired(value, now)) break
      this.records.delete(key)
    }
  }

  private evictLightest(now: number): void {
    let lightest: { key: string; weight: number } | undefined
    let seen = 0
    for (const [key, value] of this.records) {
      const weight = this.policy.weight(value, now)
      if (!lightest || weight < lightest.weight) lightest = { key, weight }
      if (++seen >= EVICTION_SAMPLE) break
    }
    if (lightest) this.records.delete(lightest.key)
  }
}

/** Failure times per key within a sliding window, at most `capacity` keys. */
class FailureTable {
  private readonly failures: BoundedRecords<number[]>
  private readonly windowMs: number

  constructor(
    private readonly limit: number,
    windowSeconds: number,
    capacity: number,
  ) {
    this.windowMs = windowSeconds * 1000
    this.failures = new BoundedRecords(capacity, {
      // Times are kept in order: a record has expired once its latest failure has left the window.
      expired: (times, now) => (times.at(-1) ?? 0) <= now - this.windowMs,
      weight: (times, now) => this.inWindow(times, now).length,
    })
  }

  /** Whether one more failure may be recorded for the key: under its limit within the window. */
  admits(key: string, now: number): boolean {
    return this.limit <= 0 || this.recent(key, now).length < this.limit
  }

  add(key: string, now: number): void {
    if (this.limit <= 0) return
    const recent = this.recent(key, now)
    recent.push(now)
    this.failures.put(key, recent.slice(-this.limit), now)
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
    return this.inWindow(this.failures.get(key) ?? [], now)
  }

  private inWindow(times: number[], now: number): number[] {
    const since = now - this.windowMs
    return times.filter((at) => at > since)
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
