import { describe, expect, it } from 'vitest'
import { decisionBudget } from '../bench/budgets'
import type { AuthorityResult } from '../bench/measures/authority'

const authority = (share: number): AuthorityResult => ({
  backend: 'pglite',
  decisions: 200,
  databaseMsPerDecision: 5,
  authorityMsPerDecision: 5 * share,
  share,
})

describe('the decision budget with the authority check allowed', () => {
  it('is 150 ms without a measure of the check', () => {
    expect(decisionBudget('p95', 150, undefined)).toMatchObject({ ok: true, limit: '≤ 150 ms' })
    expect(decisionBudget('p95', 151, undefined)).toMatchObject({ ok: false })
  })

  it("gives the p95 the check's share: 150 ms ÷ (1 − share)", () => {
    const line = decisionBudget('p95', 187, authority(0.2))
    expect(line.ok).toBe(true)
    expect(line.limit).toBe("≤ 150 ms + the authority check's 20 % = 187 ms")
    expect(decisionBudget('p95', 188, authority(0.2)).ok).toBe(false)
  })

  it('ignores a share that cannot be one', () => {
    expect(decisionBudget('p95', 160, authority(0)).ok).toBe(false)
    expect(decisionBudget('p95', 160, authority(1)).limit).toBe('≤ 150 ms')
  })

  it('misses when nothing was measured', () => {
    expect(decisionBudget('p95', undefined, authority(0.2))).toMatchObject({ ok: false, value: 'not measured' })
  })
})
