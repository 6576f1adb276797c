/** A slice of the uuid key space: the ids after `after` (all from the start when null), up to and including `last`. */
export interface UuidSlice {
  after: string | null
  last: string
}

const UUID_TAIL = 'fffffff-ffff-ffff-ffff-ffffffffffff'

/**
 * The uuid key space cut into `count` equal slices on the first hex digit, in order, so that one keyset read can run
 * as several at once. Lowercase uuid text sorts as Postgres sorts uuids (by bytes).
 */
export function uuidSlices(count: 1 | 2 | 4 | 8 | 16): UuidSlice[] {
  const width = 16 / count
  return Array.from({ length: count }, (_, index) => ({
    after: index === 0 ? null : `${(index * width - 1).toString(16)}${UUID_TAIL}`,
    last: `${((index + 1) * width - 1).toString(16)}${UUID_TAIL}`,
  }))
}

/** The rows of `page` that fall in the slice, and whether the slice has been read to its end. */
export function withinSlice<T>(page: readonly T[], idOf: (row: T) => string, slice: UuidSlice, pageSize: number) {
  const rows = page.filter((row) => idOf(row) <= slice.last)
  return { rows, done: page.length < pageSize || rows.length < page.length }
}
