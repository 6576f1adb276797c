// "Perhaps you meant …" hints. PostgREST ranks candidates with Data.FuzzySet, whose final score is one minus
// the Levenshtein distance relative to the longer name.

function levenshtein(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}

/** Between 0 (nothing alike) and 1 (equal, ignoring case). */
function similarity(a: string, b: string): number {
  const left = a.toLowerCase()
  const right = b.toLowerCase()
  const longest = Math.max(left.length, right.length)
  return longest === 0 ? 1 : 1 - levenshtein(left, right) / longest
}

/** The candidate most similar to `name`, if at least `minimum` similar. */
export function closest(name: string, candidates: string[], minimum: number): string | undefined {
  let best: string | undefined
  let bestScore = minimum
  for (const candidate of candidates) {
    // Names far longer than the one given cannot be close; skipping them bounds the work on hostile input.
    if (candidate.length > 4 * name.length + 8 || name.length > 4 * candidate.length + 8) continue
    const score = similarity(name, candidate)
    if (score >= bestScore) {
      best = candidate
      bestScore = score
    }
  }
  return best
}
