import { describe, expect, it } from 'vitest'
import { postgresPoolSize } from '../../supabase/local/pool-size'

describe('the local server’s PostgreSQL pool', () => {
  it('keeps two connections per core and one more, at most ten, when DB_POOL is not set', () => {
    expect(postgresPoolSize(undefined, 2)).toBe(5)
    expect(postgresPoolSize('', 1)).toBe(3)
    expect(postgresPoolSize(undefined, 8)).toBe(10)
  })

  it('takes DB_POOL as it is', () => {
    expect(postgresPoolSize('10', 2)).toBe(10)
    expect(postgresPoolSize(' 3 ', 16)).toBe(3)
  })

  it('refuses a DB_POOL that is not a number of connections, saying what it expected', () => {
    for (const setting of ['0', '-2', '2.5', 'dix', '101']) {
      expect(() => postgresPoolSize(setting, 2), setting).toThrow(`DB_POOL: expected a whole number of connections from 1 to 100, got "${setting}"`)
    }
  })
})
