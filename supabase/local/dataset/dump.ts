import type { PgliteDatabase } from '../database'

const block = 512
const walSegment = /(^|\/)pg_wal\/([0-9A-F]{24})$/

/**
 * A dump of the data directory without the write-ahead log it no longer needs. Loading the dataset in one transaction
 * leaves about as much log as data (a 1.4 GB dump at full scale instead of 0.5 GB); after a checkpoint only the
 * segments from the checkpoint's redo point on are needed to start, and the others (old ones, or old ones renamed for
 * reuse) are left out of the archive. Not compressed: gunzipping half a gigabyte would double the warm start.
 */
export async function compactDump(db: PgliteDatabase): Promise<Uint8Array> {
  await db.exec('checkpoint')
  const { rows } = await db.query<{ first: string; last: string }>(
    `select pg_walfile_name(redo_lsn) as first, pg_walfile_name(pg_current_wal_insert_lsn()) as last from pg_control_checkpoint()`,
  )
  const { first, last } = rows[0] as { first: string; last: string }
  const tar = new Uint8Array(await (await db.dump()).arrayBuffer())
  return withoutEntries(tar, (name) => {
    const segment = walSegment.exec(name)?.[2]
    return segment !== undefined && (segment < first || segment > last)
  })
}

/** The tar archive without the entries whose name matches `drop` (ustar headers, as PGlite writes them). */
function withoutEntries(tar: Uint8Array, drop: (name: string) => boolean): Uint8Array {
  const decoder = new TextDecoder()
  const field = (offset: number, length: number) => decoder.decode(tar.subarray(offset, offset + length)).replace(/\0.*$/s, '')
  const parts: Uint8Array[] = []
  let offset = 0
  while (offset + block <= tar.length && tar[offset] !== 0) {
    const name = field(offset, 100)
    const prefix = field(offset + 345, 155)
    const size = parseInt(field(offset + 124, 12).trim() || '0', 8)
    const length = block + Math.ceil(size / block) * block
    if (!drop(prefix ? `${prefix}/${name}` : name)) parts.push(tar.subarray(offset, offset + length))
    offset += length
  }
  parts.push(new Uint8Array(block * 2))
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let position = 0
  for (const part of parts) {
    out.set(part, position)
    position += part.length
  }
  return out
}
