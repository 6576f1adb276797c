import { createHash } from 'node:crypto'

/** A small seeded generator (mulberry32): the same seed gives the same sequence on every machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T
}

/**
 * A stable id for the n-th thing of a kind: md5 of "seed:kind:n" read as a uuid. The SQL side computes the same
 * (md5(…)::uuid), so rows generated there and here agree.
 */
export function stableUuid(seed: number, kind: string, n: number): string {
  const hex = createHash('md5').update(`${seed}:${kind}:${n}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}
