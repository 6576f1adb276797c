/** SPEC §9's rates: how a percentage is written and coloured wherever one is shown. */

export type Level = 'green' | 'orange' | 'red'

/** SPEC §9: 90 % or more green, 75 % or more orange, otherwise red; no rate (no rights) has no colour. */
export function levelOf(rate: number | null | undefined): Level | null {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return null
  if (rate >= 90) return 'green'
  if (rate >= 75) return 'orange'
  return 'red'
}

export const formatRate = (rate: number | null | undefined) => (rate === null || rate === undefined ? '-' : `${rate}%`)
