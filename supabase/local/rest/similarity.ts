// "Perhaps you meant …" hints, ranked as PostgREST ranks them with Data.FuzzySet: a candidate must first share a
// trigram (or, failing any, a bigram) with the name, then the shortlist is scored by one minus the Levenshtein
// distance relative to the longer name. Names that share no n-gram are never suggested, however short the edit.

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

/** Between 0 (nothing alike) and 1 (equal); both names already lower-cased. */
function similarity(left: string, right: string): number {
  const longest = Math.max(left.length, right.length)
  return longest === 0 ? 1 : 1 - levenshtein(left, right) / longest
}

/** The n-grams of a name, padded with '-' at both ends, punctuation (underscores included) left out. */
function grams(name: string, size: number): Map<string, number> {
  let padded = `-${name.replace(/[^\p{L}\p{N}, ]/gu, '')}-`
  while (padded.length < size) padded += '-'
  const counts = new Map<string, number>()
  for (let i = 0; i + size <= padded.length; i++) {
    const gram = padded.slice(i, i + size)
    counts.set(gram, (counts.get(gram) ?? 0) + 1)
  }
  return counts
}

/** The score below which Data.FuzzySet's `getOne`, which every PostgREST hint uses, suggests nothing. */
const MINIMUM = 0.33

/** Data.FuzzySet keeps only the 50 best n-gram matches for the Levenshtein ranking. */
const SHORTLIST = 50

/** The candidate most similar to `name`, if any is similar enough (an equal one, ignoring case, first). */
export function closest(name: string, candidates: string[]): string | undefined {
  const wanted = name.toLowerCase()
  // Names far longer than the one given cannot be close; skipping them bounds the work on hostile input.
  const comparable = candidates.filter((candidate) => candidate.length <= 4 * name.length + 8 && name.length <= 4 * candidate.length + 8)
  const equal = comparable.find((candidate) => candidate.toLowerCase() === wanted)
  if (equal !== undefined) return equal
  for (const size of [3, 2]) {
    const own = grams(wanted, size)
    const ownNorm = Math.sqrt([...own.values()].reduce((sum, count) => sum + count * count, 0))
    const shared = comparable
      .map((candidate) => {
        const theirs = grams(candidate.toLowerCase(), size)
        let dot = 0
        for (const [gram, count] of own) dot += count * (theirs.get(gram) ?? 0)
        const norm = Math.sqrt([...theirs.values()].reduce((sum, count) => sum + count * count, 0))
        return { candidate, cosine: dot / (ownNorm * norm) }
      })
      .filter((match) => match.cosine > 0)
      .sort((a, b) => b.cosine - a.cosine)
      .slice(0, SHORTLIST)
      .map(({ candidate }) => ({ candidate, score: similarity(wanted, candidate.toLowerCase()) }))
      .filter((match) => match.score >= MINIMUM)
      .sort((a, b) => b.score - a.score)
    if (shared.length > 0) return shared[0]!.candidate
  }
  return undefined
}
