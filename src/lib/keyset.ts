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

/**
 * Reads one slice a page at a time, asking for the next page before handing over the current one, so that the server
 * works while the caller makes rows of it; `last` with the slice's last page.
 */
export async function readSliceInPages<T>(
  slice: UuidSlice,
  pageSize: number,
  readPage: (afterId: string | null) => Promise<T[]>,
  idOf: (row: T) => string,
  onPage: (rows: T[], last: boolean) => void,
): Promise<void> {
  for (let request = readPage(slice.after); ; ) {
    const page = withinSlice(await request, idOf, slice, pageSize)
    if (!page.done) request = readPage(idOf(page.rows[page.rows.length - 1]!))
    onPage(page.rows, page.done)
    if (page.done) return
  }
}
