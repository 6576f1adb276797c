import { describe, expect, it, vi } from 'vitest'
import { DUMMY_HASH, passwordMatches, type PasswordVerifier } from '../../supabase/local/auth/passwords'
import { DATASET_PASSWORD_HASH } from '../../supabase/local/dataset/options'

// A cost-10 bcrypt hash, as GoTrue and the seed write them.
const STORED = '$2b$10$oUClqpt01RR5sqJqxRyNUex.2MKixRWrBJxhqtufAcA.WubgNk12C'
const cost = (hash: string) => /^\$2[aby]\$(\d\d)\$/.exec(hash)?.[1]

function spy(answer: boolean) {
  return vi.fn<PasswordVerifier>(async () => answer)
}

describe('checking a password', () => {
  it('does the same bcrypt work for a known e-mail, an unknown one and an account without a usable hash', async () => {
    const calls: Array<[string, string]> = []
    for (const stored of [STORED, undefined, null, '', 'plain-text', '$2a$10$short']) {
      const verify = spy(false)
      expect(await passwordMatches(verify, stored, 'guess')).toBe(false)
      expect(verify, String(stored)).toHaveBeenCalledTimes(1)
      calls.push(verify.mock.calls[0]!)
    }
    expect(calls.map(([password]) => password)).toEqual(Array(6).fill('guess'))
    expect(new Set(calls.map(([, hash]) => cost(hash)))).toEqual(new Set([cost(STORED)]))
  })

  it('accepts only the account’s own hash, read as $2a$', async () => {
    const verify = spy(true)
    expect(await passwordMatches(verify, STORED, 'right')).toBe(true)
    expect(verify).toHaveBeenCalledWith('right', `$2a$${STORED.slice(4)}`)
    // Whatever the dummy comparison says, no account means no match.
    expect(await passwordMatches(spy(true), undefined, 'anything')).toBe(false)
    expect(await passwordMatches(spy(true), '', 'anything')).toBe(false)
  })

  it('uses a dummy hash of the cost the generated dataset uses', () => {
    expect(cost(DUMMY_HASH)).toBe(cost(DATASET_PASSWORD_HASH))
  })
})
