import { describe, expect, it } from 'vitest'
import { FailedSignInLimiter, addressKey } from '../../supabase/local/auth/rate-limit'
import { AuthRateLimiter, SUPABASE_AUTH_RATE_LIMITS, authRateLimitsFromEnv } from '../../supabase/local/auth/request-limits'

const WINDOW_SECONDS = 300
const T0 = Date.UTC(2026, 0, 1)
const later = (seconds: number) => T0 + seconds * 1000

function limiter(overrides: Partial<ConstructorParameters<typeof FailedSignInLimiter>[0]> = {}) {
  return new FailedSignInLimiter({ maxFailuresPerEmail: 10, maxFailuresPerIp: 30, windowSeconds: WINDOW_SECONDS, ...overrides })
}

/** `count` failed attempts (begun, never succeeded); how many the limiter admitted. */
function fail(target: FailedSignInLimiter, email: string, ip: string | null, count: number, now = T0): number {
  let admitted = 0
  for (let i = 0; i < count; i++) if (target.begin(email, ip, now)) admitted++
  return admitted
}

describe('the failed sign-in limiter', () => {
  it('blocks an e-mail after its failures, right password or not, whatever the case of the address', () => {
    const limits = limiter()
    expect(fail(limits, 'victim@example.com', '198.51.100.1', 10)).toBe(10)
    expect(limits.begin('VICTIM@example.com', '198.51.100.2', later(1))).toBe(false)
    expect(limits.begin('other@example.com', '198.51.100.2', later(1))).toBe(true)
  })

  it('stays blocked through a flood of 10,001 made-up e-mails from many addresses', () => {
    const limits = limiter()
    fail(limits, 'victim@example.com', '198.51.100.1', 10)
    for (let i = 0; i <= 10_000; i++) limits.begin(`made-up-${i}@example.com`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, later(1))
    expect(limits.begin('victim@example.com', '198.51.100.9', later(2))).toBe(false)
  })

  it('never refuses a newcomer when its e-mail table is full: the lightest old record makes room, not the victim', () => {
    const limits = limiter({ capacity: 100, maxFailuresPerIp: 0 })
    fail(limits, 'victim@example.com', null, 10)
    let refused = 0
    for (let i = 0; i < 200; i++) if (!limits.begin(`made-up-${i}@example.com`, null, later(1))) refused++
    expect(refused).toBe(0)
    expect(limits.begin('newcomer@example.com', null, later(2))).toBe(true)
    // The flood's records, one failure each, went before the victim's ten.
    expect(limits.begin('victim@example.com', null, later(2))).toBe(false)
    expect(limits.begin('victim@example.com', null, later(WINDOW_SECONDS + 1))).toBe(true)
  })

  it('never refuses an innocent address when its address table is full, and keeps the flooding ones blocked', () => {
    const limits = limiter({ capacity: 100, maxFailuresPerEmail: 0, maxFailuresPerIp: 30 })
    expect(fail(limits, 'admin@example.com', '203.0.113.5', 40)).toBe(30)
    for (let i = 0; i < 500; i++) limits.begin('admin@example.com', `10.0.${i >> 8}.${i & 255}`, later(1))
    expect(limits.begin('admin@example.com', '198.51.100.7', later(2))).toBe(true)
    expect(limits.begin('admin@example.com', '203.0.113.5', later(2))).toBe(false)
  })

  it('forgets expired records first when full, whatever they weighed', () => {
    const limits = limiter({ capacity: 2, maxFailuresPerIp: 0, maxFailuresPerEmail: 3 })
    fail(limits, 'old@example.com', null, 3)
    fail(limits, 'recent@example.com', null, 1, later(WINDOW_SECONDS - 10))
    expect(limits.begin('newcomer@example.com', null, later(WINDOW_SECONDS + 1))).toBe(true)
    // The recent record, lighter but alive, was kept; the expired heavy one went.
    expect(fail(limits, 'recent@example.com', null, 3, later(WINDOW_SECONDS + 2))).toBe(2)
  })

  it('limits failures per address across e-mails, so one address cannot fill the table', () => {
    const limits = limiter({ maxFailuresPerIp: 30 })
    let admitted = 0
    for (let i = 0; i < 1000; i++) if (limits.begin(`made-up-${i}@example.com`, '203.0.113.5', T0)) admitted++
    expect(admitted).toBe(30)
    expect(limits.begin('admin@example.com', '203.0.113.5', later(1))).toBe(false)
    expect(limits.begin('admin@example.com', '203.0.113.6', later(1))).toBe(true)
  })

  it('counts an IPv6 /64 as one address', () => {
    const limits = limiter({ maxFailuresPerIp: 3 })
    expect(fail(limits, 'a@example.com', '2001:db8:1:2::1', 2)).toBe(2)
    expect(limits.begin('b@example.com', '2001:db8:1:2:ffff::7', T0)).toBe(true)
    expect(limits.begin('c@example.com', '2001:0db8:0001:0002:abcd::', T0)).toBe(false)
    expect(limits.begin('c@example.com', '2001:db8:1:3::1', T0)).toBe(true)
  })

  it('frees an e-mail and an address once the window has passed since their failures', () => {
    const limits = limiter({ maxFailuresPerEmail: 3, maxFailuresPerIp: 5 })
    fail(limits, 'victim@example.com', '198.51.100.1', 3)
    fail(limits, 'someone@example.com', '198.51.100.1', 2, later(10))
    expect(limits.begin('victim@example.com', '198.51.100.2', later(WINDOW_SECONDS - 1))).toBe(false)
    expect(limits.begin('fresh@example.com', '198.51.100.1', later(WINDOW_SECONDS - 1))).toBe(false)
    expect(limits.begin('victim@example.com', '198.51.100.2', later(WINDOW_SECONDS))).toBe(true)
    // Three of the address's failures left the window at T0 + window; the two of T0 + 10 have not yet.
    expect(fail(limits, 'fresh@example.com', '198.51.100.1', 5, later(WINDOW_SECONDS))).toBe(3)
  })

  it("clears the e-mail's record on success, and takes the attempt back from the address's count", () => {
    const limits = limiter({ maxFailuresPerEmail: 3, maxFailuresPerIp: 4 })
    fail(limits, 'user@example.com', '198.51.100.1', 2)
    expect(limits.begin('user@example.com', '198.51.100.1', later(1))).toBe(true)
    limits.succeeded('user@example.com', '198.51.100.1', later(1))
    // The e-mail starts again from zero; the address still carries its two failures.
    expect(fail(limits, 'user@example.com', '198.51.100.2', 3, later(2))).toBe(3)
    expect(fail(limits, 'other@example.com', '198.51.100.1', 3, later(2))).toBe(2)
  })

  it('counts concurrent attempts as they begin, so a burst cannot outrun the limit', () => {
    const limits = limiter({ maxFailuresPerEmail: 3 })
    const begun = Array.from({ length: 20 }, () => limits.begin('victim@example.com', '198.51.100.1', T0))
    expect(begun.filter(Boolean)).toHaveLength(3)
  })

  it('does nothing with limits of 0', () => {
    const limits = limiter({ maxFailuresPerEmail: 0, maxFailuresPerIp: 0, capacity: 1 })
    expect(fail(limits, 'victim@example.com', '198.51.100.1', 100)).toBe(100)
    expect(fail(limits, 'other@example.com', '198.51.100.2', 100)).toBe(100)
  })
})

describe("GoTrue's request limits", () => {
  /** How many of `count` requests of a kind from the address the limiter admitted. */
  function admitted(limits: AuthRateLimiter, ip: string, count: number, now = T0): number {
    let passed = 0
    for (let i = 0; i < count; i++) {
      try {
        limits.admit('tokenVerifications', ip, now)
        passed++
      } catch {
        // Refused: GoTrue's 429.
      }
    }
    return passed
  }

  it('never refuses an innocent address when its table is full, and keeps the drained address refused', () => {
    const limits = new AuthRateLimiter(SUPABASE_AUTH_RATE_LIMITS, 100)
    expect(admitted(limits, '203.0.113.5', 40)).toBe(30)
    for (let i = 0; i < 500; i++) admitted(limits, `10.0.${i >> 8}.${i & 255}`, 1, later(1))
    expect(admitted(limits, '198.51.100.7', 1, later(2))).toBe(1)
    expect(admitted(limits, '203.0.113.5', 1, later(2))).toBe(0)
  })

  it('refuses with GoTrue\'s 429 and its code', () => {
    const limits = new AuthRateLimiter({ ...SUPABASE_AUTH_RATE_LIMITS, emailSent: 1 })
    limits.admitMail(T0)
    expect(() => limits.admitMail(T0)).toThrow(expect.objectContaining({ status: 429, code: 'over_email_send_rate_limit' }))
    admitted(limits, '192.0.2.1', 30)
    expect(() => limits.admit('tokenVerifications', '192.0.2.1', T0)).toThrow(expect.objectContaining({ status: 429, code: 'over_request_rate_limit' }))
  })

  it('reads whole numbers from the environment and refuses anything else', () => {
    expect(authRateLimitsFromEnv({ AUTH_RATE_LIMIT_EMAIL_SENT: '30', AUTH_RATE_LIMIT_TOKEN_REFRESH: '0' })).toEqual({ emailSent: 30, tokenRefresh: 0 })
    expect(() => authRateLimitsFromEnv({ AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: '-1' })).toThrow(/AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS/)
  })
})

describe('addressKey', () => {
  it('keeps IPv4 addresses and reduces IPv6 ones to their /64', () => {
    expect(addressKey('192.0.2.1')).toBe('192.0.2.1')
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(addressKey('2001:DB8:0:0:1:2:3:4')).toBe('2001:db8:0:0::/64')
    expect(addressKey('::1')).toBe('0:0:0:0::/64')
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64')
  })
})
