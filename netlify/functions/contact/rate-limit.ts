import { isIPv6 } from 'node:net'

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number }

/**
 * A sliding-window count of requests per key, held in this process's memory. Only requests that are let
 * through are counted, so a client that keeps knocking while refused is free again one window after its
 * last accepted request.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>()

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxKeys = 10_000,
  ) {}

  hit(key: string, now = Date.now()): RateLimitDecision {
    const recent = (this.hits.get(key) ?? []).filter((time) => time > now - this.windowMs)
    const oldest = recent[0]
    if (oldest !== undefined && recent.length >= this.limit) {
      this.hits.set(key, recent)
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) }
    }
    recent.push(now)
    this.hits.delete(key)
    this.hits.set(key, recent)
    this.evict(now)
    return { allowed: true }
  }

  // Keeps memory bounded under a flood of distinct addresses: expired keys go first, then the least recently used.
  private evict(now: number): void {
    if (this.hits.size <= this.maxKeys) return
    for (const [key, times] of this.hits) {
      if ((times.at(-1) ?? 0) <= now - this.windowMs) this.hits.delete(key)
    }
    for (const key of this.hits.keys()) {
      if (this.hits.size <= this.maxKeys) break
      this.hits.delete(key)
    }
  }
}

/**
 * The visitor's address as Netlify gives it. The headers are a fallback for runtimes without `context.ip`;
 * on Netlify `x-nf-client-connection-ip` is set by the platform itself.
 */
export function clientIp(request: Request, contextIp: string | undefined): string {
  const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]
  return contextIp || request.headers.get('x-nf-client-connection-ip') || forwarded?.trim() || 'unknown'
}

/** IPv6 clients usually own a whole /64, so they are counted per /64 rather than per address. */
export function rateLimitKey(ip: string): string {
  const mappedIPv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1]
  if (mappedIPv4) return mappedIPv4
  if (!isIPv6(ip)) return ip
  const [head = '', tail] = ip.toLowerCase().split('::')
  const headGroups = head === '' ? [] : head.split(':')
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':')
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, '')).join(':')}::/64`
}
