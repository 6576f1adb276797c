export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  // Nearest-rank: the smallest value with at least p % of the samples at or below it.
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1]!
}

export const median = (values: readonly number[]) => percentile(values, 50)

export const round = (value: number, digits = 0) => Number(value.toFixed(digits))

/** Runs `measure` once to warm up, then `times` times, and keeps every sample. */
export async function repeat<T>(times: number, measure: (run: number) => Promise<T>): Promise<T[]> {
  await measure(-1)
  const samples: T[] = []
  for (let run = 0; run < times; run += 1) samples.push(await measure(run))
  return samples
}
