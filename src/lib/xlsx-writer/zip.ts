/** The zip container around parts compressed as gzip members (APPNOTE 6.3), and the CRC-32 arithmetic it needs. */

/** One compressed part: its raw deflate data, with the CRC-32 and size of what was compressed. */
export interface Entry {
  name: Uint8Array
  data: Uint8Array
  crc: number
  size: number
}

/**
 * The entry of a part compressed as one gzip member (RFC 1952): the deflate data between its header and its trailer,
 * the trailer's CRC-32, and the size we counted, checked against the trailer's.
 */
export function entryOf(path: string, gzip: Uint8Array, size: number): Entry {
  return { name: new TextEncoder().encode(path), ...gzipMember(gzip, size) }
}

/** A gzip member's deflate data and CRC-32, its size checked against the one counted. */
export function gzipMember(gzip: Uint8Array, size: number): Omit<Entry, 'name'> {
  if (gzip[0] !== 0x1f || gzip[1] !== 0x8b || gzip[2] !== 8) throw new Error('Compression gzip inattendue')
  const view = new DataView(gzip.buffer, gzip.byteOffset, gzip.byteLength)
  const flags = gzip[3]!
  let start = 10
  if (flags & 4) start += 2 + view.getUint16(start, true)
  // A file name, then a comment, each ended by a zero byte.
  for (const flag of [8, 16]) {
    if (flags & flag) start = gzip.indexOf(0, start) + 1
  }
  if (flags & 2) start += 2
  const end = gzip.length - 8
  if (view.getUint32(end + 4, true) !== size >>> 0) throw new Error('Compression gzip incomplète')
  return { data: gzip.subarray(start, end), crc: view.getUint32(end, true), size }
}

/** 1 January 1980, the earliest date a zip entry holds: the same workbook gives the same bytes. */
const DOS_DATE = (1 << 5) | 1

/** The zip archive of the entries (APPNOTE 6.3: local headers and data, central directory, end record). */
export function zipArchive(entries: readonly Entry[]): Uint8Array {
  const localSize = entries.reduce((total, entry) => total + 30 + entry.name.length + entry.data.length, 0)
  const centralSize = entries.reduce((total, entry) => total + 46 + entry.name.length, 0)
  const bytes = new Uint8Array(localSize + centralSize + 22)
  const view = new DataView(bytes.buffer)
  const common = (at: number, entry: Entry) => {
    view.setUint16(at, 20, true) // version needed: deflate
    view.setUint16(at + 2, 0, true) // flags
    view.setUint16(at + 4, 8, true) // deflate
    view.setUint16(at + 6, 0, true) // time
    view.setUint16(at + 8, DOS_DATE, true)
    view.setUint32(at + 10, entry.crc, true)
    view.setUint32(at + 14, entry.data.length, true)
    view.setUint32(at + 18, entry.size, true)
    view.setUint16(at + 22, entry.name.length, true)
    view.setUint16(at + 24, 0, true) // extra field
  }
  const offsets: number[] = []
  let at = 0
  for (const entry of entries) {
    offsets.push(at)
    view.setUint32(at, 0x04034b50, true)
    common(at + 4, entry)
    bytes.set(entry.name, at + 30)
    bytes.set(entry.data, at + 30 + entry.name.length)
    at += 30 + entry.name.length + entry.data.length
  }
  entries.forEach((entry, index) => {
    view.setUint32(at, 0x02014b50, true)
    view.setUint16(at + 4, 20, true) // version made by
    common(at + 6, entry)
    // Comment length, disk, internal and external attributes stay zero.
    view.setUint32(at + 42, offsets[index]!, true)
    bytes.set(entry.name, at + 46)
    at += 46 + entry.name.length
  })
  view.setUint32(at, 0x06054b50, true)
  view.setUint16(at + 8, entries.length, true)
  view.setUint16(at + 10, entries.length, true)
  view.setUint32(at + 12, centralSize, true)
  view.setUint32(at + 16, localSize, true)
  return bytes
}

export function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return bytes
}

/** CRC-32 as zip and gzip compute it (reflected polynomial 0xEDB88320), a byte at a time. */
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, byte) => {
  let crc = byte
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1
  return crc
})

export function crc32(bytes: Uint8Array): number {
  let crc = ~0
  for (let i = 0; i < bytes.length; i += 1) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8)
  return ~crc >>> 0
}

/** The image of `vector` by the linear map over GF(2) whose images of the 32 bits are `matrix`. */
function gf2Times(matrix: Uint32Array, vector: number): number {
  let sum = 0
  for (let bit = 0; vector !== 0; bit += 1, vector >>>= 1) if (vector & 1) sum ^= matrix[bit]!
  return sum >>> 0
}

function gf2Square(matrix: Uint32Array): Uint32Array<ArrayBuffer> {
  return matrix.map((image) => gf2Times(matrix, image))
}

/**
 * The CRC-32 of A followed by B, from the CRC-32 of each and B's length. The CRC of A followed by B is A's CRC run
 * through B's length of zero bytes, plus B's CRC; running it through zero bytes is linear, so it is the map of one
 * zero bit squared to one zero byte, then to 2, 4, 8… bytes as B's length has those bits: a few dozen steps rather
 * than one per byte of B.
 */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  // One zero bit: each bit moves down one, and the lowest comes back in as the polynomial.
  let power = Uint32Array.from({ length: 32 }, (_, bit) => (bit === 0 ? 0xedb88320 : 1 << (bit - 1)))
  power = gf2Square(gf2Square(gf2Square(power)))
  let crc = crcA
  for (let rest = lengthB; rest > 0; rest = Math.floor(rest / 2)) {
    if (rest % 2 === 1) crc = gf2Times(power, crc)
    power = gf2Square(power)
  }
  return (crc ^ crcB) >>> 0
}
