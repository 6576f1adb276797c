/**
 * Writes .xlsx workbooks of text cells. A sheet's XML is made about a megabyte at a time and compressed as it goes, so a
 * hundred thousand rows never sit in memory as one document. Each part is compressed as a gzip member, whose trailer
 * carries the CRC-32 and size a zip entry needs: by the platform's native CompressionStream where there is one
 * (browsers, their workers and Node ≥ 18: zlib in native code), by fflate otherwise; the zip container around the
 * deflate data is written here.
 * Every cell is a string of the shared-string table (never a number, a date or a formula: what starts with `=`
 * stays text). Each distinct text is written once, so there is less XML to compress: names, applications and
 * decisions repeat down an export.
 * The workbook's shape mirrors SheetJS's (SheetNames, Sheets, `!cols`) so that callers and tests read alike.
 */
import { Gzip } from 'fflate'

export interface ColumnWidth {
  /** Width in characters. */
  wch: number
}

/**
 * A row: its texts, or the indexes of its texts in the workbook's shared strings (-1 for an empty cell), for a caller
 * that indexes its rows as they are made, while it waits for the next ones, rather than all of them at the end.
 */
export type Row = readonly string[] | Int32Array

export interface Sheet {
  rows: readonly Row[]
  '!cols'?: readonly ColumnWidth[]
  /** Rows kept on screen while scrolling (1 for a header row). */
  frozenRows?: number
  /** A sheet whose rows were compressed as they came (see SheetWriter): `rows` is then empty. */
  written?: SheetWriter
}

export interface Workbook {
  SheetNames: string[]
  Sheets: Record<string, Sheet>
  /** Its table of distinct texts, which a cell refers to by index. */
  strings: SharedStrings
  /** Compresses each part not written ahead, where the thread that writes them has better to do (see bookNew). */
  compressor?: () => PartCompressor
}

/** Excel refuses longer cells (its specifications and limits). */
export const MAX_CELL_LENGTH = 32_767
export const TRUNCATION_NOTE = ' […] (texte tronqué : plus de 32 767 caractères)'

/** Excel refuses sheet names longer than 31 characters or with any of these characters. */
const MAX_SHEET_NAME = 31
const FORBIDDEN_SHEET_NAME = /[[\]:*?/\\]/

export type DeflateLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9

/**
 * Deflate level 1 by default: on 100,000 export rows the file is about a sixth larger than at fflate's default (6)
 * and is written about 15 % faster; speed is what the export's budget asks for (tests/bench/xlsx-writers.ts prints
 * both levels).
 */
const DEFAULT_LEVEL: DeflateLevel = 1
/** XML encoded and compressed at a time: large enough for few calls, small enough for little memory. */
const BATCH_CHARACTERS = 1 << 20
const BATCH_BYTES = 1 << 20

/**
 * An empty workbook. Given a compressor (see compressor-worker.ts), its shared strings are compressed as they are
 * added, and its other parts at the end, all in that compressor's thread: the end of a large workbook is then little
 * more than the zip's assembly.
 */
export function bookNew({ compressor }: { compressor?: () => PartCompressor } = {}): Workbook {
  return { SheetNames: [], Sheets: {}, strings: new SharedStrings(compressor?.()), ...(compressor ? { compressor } : {}) }
}

export function appendSheet(workbook: Workbook, sheet: Sheet, name: string): void {
  if (!name || name.length > MAX_SHEET_NAME || FORBIDDEN_SHEET_NAME.test(name)) throw new Error(`Nom de feuille invalide : « ${name} »`)
  if (workbook.Sheets[name]) throw new Error(`Feuille en double : « ${name} »`)
  workbook.SheetNames.push(name)
  workbook.Sheets[name] = sheet
}

/**
 * A part of the package: its path in the archive and its XML, made a batch at a time, or already compressed (a sheet
 * written ahead, shared strings compressed as they were added).
 */
type Part = { path: string; xml: Iterable<string | Uint8Array> } | { path: string; written: SheetWriter } | { path: string; streamed: SharedStrings }

/** The package's parts in order; the shared strings come last, once the sheets have named every text. */
function* packageParts(workbook: Workbook): Generator<Part> {
  const count = workbook.SheetNames.length
  yield { path: '[Content_Types].xml', xml: [contentTypes(count)] }
  yield { path: '_rels/.rels', xml: [ROOT_RELS] }
  yield { path: 'xl/workbook.xml', xml: [workbookXml(workbook.SheetNames)] }
  yield { path: 'xl/_rels/workbook.xml.rels', xml: [workbookRels(count)] }
  yield { path: 'xl/styles.xml', xml: [STYLES] }
  const { strings } = workbook
  for (const [index, name] of workbook.SheetNames.entries()) {
    const sheet = workbook.Sheets[name]!
    const path = `xl/worksheets/sheet${index + 1}.xml`
    yield sheet.written ? { path, written: sheet.written } : { path, xml: sheetXml(sheet, strings) }
  }
  // The order of a package's parts does not matter to its readers.
  const path = 'xl/sharedStrings.xml'
  yield strings.streaming ? { path, streamed: strings } : { path, xml: strings.xml() }
}

/** One compressed part: its raw deflate data, with the CRC-32 and size of what was compressed. */
interface Entry {
  name: Uint8Array
  data: Uint8Array
  crc: number
  size: number
}

/**
 * The entry of a part compressed as one gzip member (RFC 1952): the deflate data between its header and its trailer,
 * the trailer's CRC-32, and the size we counted, checked against the trailer's.
 */
function entryOf(path: string, gzip: Uint8Array, size: number): Entry {
  return { name: new TextEncoder().encode(path), ...gzipMember(gzip, size) }
}

/** A gzip member's deflate data and CRC-32, its size checked against the one counted. */
function gzipMember(gzip: Uint8Array, size: number): Omit<Entry, 'name'> {
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

/** The .xlsx bytes of the workbook, compressed by fflate in this thread (level 1 unless told). */
export function writeWorkbook(workbook: Workbook, { level = DEFAULT_LEVEL }: { level?: DeflateLevel } = {}): Uint8Array {
  const encoder = new TextEncoder()
  const entries: Entry[] = []
  for (const part of packageParts(workbook)) {
    if ('streamed' in part) throw new Error('Textes compressés à mesure : classeur à écrire par writeWorkbookAsync')
    if ('written' in part) {
      const { gzip, size } = part.written.finishSync()
      entries.push(entryOf(part.path, gzip, size))
      continue
    }
    const chunks: Uint8Array[] = []
    const gzip = new Gzip({ level, mtime: 0 }, (chunk) => chunks.push(chunk))
    let size = 0
    for (const text of part.xml) {
      const bytes = typeof text === 'string' ? encoder.encode(text) : text
      size += bytes.length
      gzip.push(bytes)
    }
    gzip.push(new Uint8Array(0), true)
    entries.push(entryOf(part.path, concat(chunks), size))
  }
  return zipArchive(entries)
}

/**
 * The .xlsx bytes of the workbook, compressed by the platform's CompressionStream where there is one, else as
 * writeWorkbook does. Its zlib level is 6, which we cannot choose: on 100,000 export rows in Node the file is a sixth
 * smaller than fflate's level 1 and is written in about a quarter less processor time. A workbook given a compressor
 * (bookNew) hands it each part's XML as it is made and goes on with the next part meanwhile.
 */
export async function writeWorkbookAsync(workbook: Workbook): Promise<Uint8Array> {
  const { compressor } = workbook
  if (typeof CompressionStream === 'undefined' && !compressor) return writeWorkbook(workbook)
  const encoder = new TextEncoder()
  if (!compressor) {
    const entries: Entry[] = []
    // One part after the other: a sheet's XML names its texts as it is made, before the shared strings are written.
    for (const part of packageParts(workbook)) entries.push(await compressedHere(part, encoder))
    return zipArchive(entries)
  }
  const entries: Promise<Entry>[] = []
  try {
    for (const part of packageParts(workbook)) entries.push(handedOver(part, compressor, encoder))
  } catch (error) {
    // The parts already under way are dropped with the workbook: their failures are this one's.
    for (const entry of entries) entry.catch(() => undefined)
    throw error
  }
  return zipArchive(await Promise.all(entries))
}

/** A part compressed by the platform's CompressionStream in this thread. */
async function compressedHere(part: Part, encoder: TextEncoder): Promise<Entry> {
  if ('streamed' in part) return { name: encoder.encode(part.path), ...(await part.streamed.finishStream()) }
  if ('written' in part) {
    const { gzip, size } = await part.written.finish()
    return entryOf(part.path, gzip, size)
  }
  const batches = part.xml[Symbol.iterator]()
  let size = 0
  // Pulled a batch at a time: the XML is made only as fast as it is compressed.
  const source = new ReadableStream<BufferSource>({
    pull(controller) {
      const next = batches.next()
      if (next.done) {
        controller.close()
        return
      }
      const bytes = typeof next.value === 'string' ? encoder.encode(next.value) : next.value
      size += bytes.length
      controller.enqueue(bytes as BufferSource)
    },
  })
  const gzip = new Uint8Array(await new Response(source.pipeThrough(new CompressionStream('gzip'))).arrayBuffer())
  return entryOf(part.path, gzip, size)
}

/**
 * A part handed to a compressor of its own. Its XML is all made and handed over before this returns its promise, so
 * that the next part is made while this one is compressed, and the shared strings, last, once every sheet has named
 * its texts.
 */
function handedOver(part: Part, compressor: () => PartCompressor, encoder: TextEncoder): Promise<Entry> {
  if ('streamed' in part) return part.streamed.finishStream().then((member) => ({ name: encoder.encode(part.path), ...member }))
  if ('written' in part) return part.written.finish().then(({ gzip, size }) => entryOf(part.path, gzip, size))
  const target = compressor()
  let size = 0
  for (const text of part.xml) {
    const bytes = typeof text === 'string' ? encoder.encode(text) : text
    size += bytes.length
    target.push(bytes)
  }
  return target.finish().then((gzip) => entryOf(part.path, gzip, size))
}

/** 1 January 1980, the earliest date a zip entry holds: the same workbook gives the same bytes. */
const DOS_DATE = (1 << 5) | 1

/** The zip archive of the entries (APPNOTE 6.3: local headers and data, central directory, end record). */
function zipArchive(entries: readonly Entry[]): Uint8Array {
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

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.length
  }
  return bytes
}

/** A, B, … Z, AA, AB, … */
export function columnName(index: number): string {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

/** What XML 1.0 cannot hold (C0 controls but tab and line feed, lone surrogates, U+FFFE/U+FFFF) plus carriage return, which XML readers turn into a line feed. */
// eslint-disable-next-line no-control-regex -- these control characters are exactly what must be escaped
const NOT_XML_TEXT = /[\u0000-\u0008\u000b-\u000d\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
/** Text that a reader would take for one of the escapes below: its underscore is itself escaped. */
const LOOKS_ESCAPED = /_(?=x[0-9a-fA-F]{4}_)/g
// eslint-disable-next-line no-control-regex -- same set as NOT_XML_TEXT, to skip the work on ordinary text
const NEEDS_WORK = /[<>&_\u0000-\u0008\u000b-\u001f\ud800-\udfff\ufffe\uffff]/
const NEEDS_PRESERVE = /^\s|\s$|[\t\n]/

/**
 * The text as an XML element's content. Characters XML cannot carry are written as `_xHHHH_`, the escape of
 * Office Open XML (ECMA-376 ST_Xstring) that Excel, LibreOffice and SheetJS turn back into the character.
 */
function escapeText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text
  return text
    .replace(LOOKS_ESCAPED, '_x005F_')
    .replace(NOT_XML_TEXT, (char) => `_x${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}

/** Excel's longest cell, cut with a note saying so, never in the middle of a surrogate pair. */
function fitCell(text: string): string {
  if (text.length <= MAX_CELL_LENGTH) return text
  let end = MAX_CELL_LENGTH - TRUNCATION_NOTE.length
  if (/[\ud800-\udbff]/.test(text.charAt(end - 1))) end -= 1
  return text.slice(0, end) + TRUNCATION_NOTE
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

/** The text of a `<t>` element, with the attribute that keeps its spaces, tabs and line breaks. */
function textElement(value: string): string {
  const text = escapeText(fitCell(value))
  return NEEDS_PRESERVE.test(text) ? `<t xml:space="preserve">${text}</t>` : `<t>${text}</t>`
}

/**
 * The workbook's table of distinct texts; a cell holds the index of its text there. Given a compressor, each text's
 * element is compressed as the text is added: a pack's hundreds of thousands of texts are written and compressed while
 * its pages are read rather than after the last one. Only the head, whose counts are known at the end, is left for
 * finishStream, which writes it before the compressed elements.
 */
export class SharedStrings {
  private readonly indexes = new Map<string, number>()
  private references = 0
  private readonly stream: { compressor: PartCompressor; batch: string; size: number } | undefined
  private streamed: Promise<Omit<Entry, 'name'>> | undefined

  constructor(compressor?: PartCompressor) {
    if (compressor) this.stream = { compressor, batch: '', size: 0 }
  }

  indexOf(text: string): number {
    this.references += 1
    let index = this.indexes.get(text)
    if (index === undefined) {
      index = this.indexes.size
      this.indexes.set(text, index)
      if (this.stream) this.append(text)
    }
    return index
  }

  get streaming(): boolean {
    return this.stream !== undefined
  }

  private head(): string {
    return `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${this.references}" uniqueCount="${this.indexes.size}">`
  }

  *xml(): Generator<string> {
    yield this.head()
    let batch = ''
    for (const text of this.indexes.keys()) {
      batch += `<si>${textElement(text)}</si>`
      if (batch.length > BATCH_CHARACTERS) {
        yield batch
        batch = ''
      }
    }
    yield `${batch}</sst>`
  }

  private append(text: string): void {
    const stream = this.stream!
    stream.batch += `<si>${textElement(text)}</si>`
    if (stream.batch.length > BATCH_CHARACTERS) this.hand(stream.batch)
  }

  private hand(text: string): void {
    const stream = this.stream!
    const bytes = new TextEncoder().encode(text)
    stream.size += bytes.length
    stream.batch = ''
    stream.compressor.push(bytes)
  }

  /**
   * The part's deflate data once every text has been added: the head as a stored block (RFC 1951 §3.2.4) followed by
   * the elements' compressed data, and the CRC-32 of the whole, from the head's and the elements'.
   */
  finishStream(): Promise<Omit<Entry, 'name'>> {
    this.streamed ??= this.finishOnce()
    return this.streamed
  }

  private async finishOnce(): Promise<Omit<Entry, 'name'>> {
    if (!this.stream) throw new Error('Textes non compressés à mesure')
    this.hand(`${this.stream.batch}</sst>`)
    const body = gzipMember(await this.stream.compressor.finish(), this.stream.size)
    const head = new TextEncoder().encode(this.head())
    const data = new Uint8Array(5 + head.length + body.data.length)
    // Not the last block, stored: its 3 header bits then the rest of the byte, its length and that length's complement.
    data[0] = 0
    new DataView(data.buffer).setUint16(1, head.length, true)
    new DataView(data.buffer).setUint16(3, ~head.length & 0xffff, true)
    data.set(head, 5)
    data.set(body.data, 5 + head.length)
    return { data, crc: crc32Combine(crc32(head), body.crc, body.size), size: head.length + body.size }
  }
}

/** CRC-32 as zip and gzip compute it (reflected polynomial 0xEDB88320), a byte at a time. */
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, byte) => {
  let crc = byte
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1
  return crc
})

function crc32(bytes: Uint8Array): number {
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
function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
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

/** What a sheet's XML says before its rows: its size, frozen rows and column widths. */
interface SheetLayout {
  rows: number
  width: number
  '!cols'?: readonly ColumnWidth[]
  frozenRows?: number
}

function sheetHead({ rows, width, frozenRows = 0, '!cols': widths = [] }: SheetLayout): string {
  const dimension = width > 0 && rows > 0 ? `A1:${columnName(width - 1)}${rows}` : 'A1'
  const view =
    frozenRows > 0
      ? `<sheetView workbookViewId="0"><pane ySplit="${frozenRows}" topLeftCell="A${frozenRows + 1}" activePane="bottomLeft" state="frozen"/></sheetView>`
      : '<sheetView workbookViewId="0"/>'
  const cols =
    widths.length > 0
      ? `<cols>${widths.map(({ wch }, index) => `<col min="${index + 1}" max="${index + 1}" width="${wch}" customWidth="1"/>`).join('')}</cols>`
      : ''
  return `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><dimension ref="${dimension}"/><sheetViews>${view}</sheetViews><sheetFormatPr defaultRowHeight="15"/>${cols}<sheetData>`
}

const SHEET_TAIL = '</sheetData></worksheet>'

const ascii = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0))
const ROW_START = ascii('<row r="')
const TAG_END = ascii('">')
const ROW_END = ascii('</row>')
const CELL = ascii('<c t="s"><v>')
const CELL_AT = ascii('<c r="')
const CELL_AT_END = ascii('" t="s"><v>')
const CELL_END = ascii('</v></c>')
/** The most bytes a cell takes: a reference of three letters and seven digits, an index of ten digits. */
const MAX_CELL_BYTES = CELL_AT.length + 10 + CELL_AT_END.length + 10 + CELL_END.length

/** The ASCII bytes of column letters A, B, … for the widest row seen so far. */
const columnBytes: Uint8Array[] = []
function columnAt(index: number): Uint8Array {
  for (let c = columnBytes.length; c <= index; c += 1) columnBytes.push(ascii(columnName(c)))
  return columnBytes[index]!
}

/**
 * Rows as XML bytes, a batch at a time. Every cell is a shared-string index, so a row is ASCII: it is written byte by
 * byte, with no string made per cell nor encoded afterwards (hundreds of thousands of rows in an evidence pack).
 * An empty text is no cell at all: in an evidence pack most stage columns are empty, and leaving them out is more
 * than half the XML to make and compress. A cell goes without its optional reference (ECMA-376 §18.3.1.4) when it
 * follows the previous one, as Excel, LibreOffice and SheetJS then place it after the last; after a gap it names its
 * column.
 */
class RowBytes {
  private readonly buffer = new Uint8Array(BATCH_BYTES + 4096)
  private length = 0

  constructor(
    private readonly strings: SharedStrings,
    /** Receives each full batch (a copy: the buffer is reused). */
    private readonly emit: (bytes: Uint8Array) => void,
  ) {}

  private put(bytes: Uint8Array): void {
    this.buffer.set(bytes, this.length)
    this.length += bytes.length
  }

  private number(value: number): void {
    const { buffer } = this
    let digits = 1
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits += 1
    let at = this.length + digits
    this.length = at
    let rest = value
    do {
      at -= 1
      buffer[at] = 48 + (rest % 10)
      rest = Math.floor(rest / 10)
    } while (rest > 0)
  }

  private room(bytes: number): void {
    if (this.length + bytes > this.buffer.length) this.flush()
  }

  /** A row, or the `width` cells of `row` from `start` on (rows of indexes one after the other in one array). */
  row(row: Row, rowNumber: number, start = 0, width = row.length): void {
    this.room(ROW_START.length + 10 + TAG_END.length)
    this.put(ROW_START)
    this.number(rowNumber)
    this.put(TAG_END)
    let gap = false
    for (let c = 0; c < width; c += 1) {
      const cell = row[start + c]!
      const index = typeof cell === 'number' ? cell : cell ? this.strings.indexOf(cell) : -1
      if (index < 0) {
        gap = true
        continue
      }
      this.room(MAX_CELL_BYTES)
      if (gap) {
        this.put(CELL_AT)
        this.put(columnAt(c))
        this.number(rowNumber)
        this.put(CELL_AT_END)
      } else {
        this.put(CELL)
      }
      this.number(index)
      this.put(CELL_END)
      gap = false
    }
    this.room(ROW_END.length)
    this.put(ROW_END)
    if (this.length >= BATCH_BYTES) this.flush()
  }

  /** Hands over what is written so far. */
  flush(): void {
    if (this.length === 0) return
    this.emit(this.buffer.slice(0, this.length))
    this.length = 0
  }
}

function* sheetXml(sheet: Sheet, strings: SharedStrings): Generator<string | Uint8Array> {
  const { rows } = sheet
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0)
  yield sheetHead({ rows: rows.length, width, frozenRows: sheet.frozenRows, '!cols': sheet['!cols'] })
  const batches: Uint8Array[] = []
  const writer = new RowBytes(strings, (bytes) => batches.push(bytes))
  for (let r = 0; r < rows.length; r += 1) {
    writer.row(rows[r]!, r + 1)
    if (batches.length > 0) yield* batches.splice(0)
  }
  writer.flush()
  yield* batches
  yield SHEET_TAIL
}

/**
 * Rows of texts indexed in a workbook's shared strings as they come, one after the other in one growing array, for a
 * sheet written ahead that cannot take them yet (SheetWriter.writeIndexed).
 */
export class IndexedRows {
  private cells = new Int32Array(1 << 12)
  private length = 0

  constructor(private readonly strings: SharedStrings) {}

  /** The row's texts as indexes (-1 for an empty text), after the rows pushed before it. */
  push(row: readonly string[]): void {
    if (this.length + row.length > this.cells.length) {
      const grown = new Int32Array(Math.max(2 * this.cells.length, this.length + row.length))
      grown.set(this.cells.subarray(0, this.length))
      this.cells = grown
    }
    for (let c = 0; c < row.length; c += 1) this.cells[this.length + c] = row[c] ? this.strings.indexOf(row[c]!) : -1
    this.length += row.length
  }

  /** The rows pushed since the last take, to be written at once: their array is reused by the next push. */
  take(): Int32Array {
    const taken = this.cells.subarray(0, this.length)
    this.length = 0
    return taken
  }
}

/** A part's deflate data as one gzip member, and the size of what it compressed. */
interface Compressed {
  gzip: Uint8Array
  size: number
}

/**
 * Compresses one part as a gzip member as its bytes are pushed: in this thread by the platform's CompressionStream
 * (nativeCompressor), or in another thread (see compressor-worker.ts), where the thread that makes the rows is busy.
 */
export interface PartCompressor {
  /** The next bytes; the compressor keeps them (their buffer may be transferred). */
  push(bytes: Uint8Array): void
  /** The gzip member, once every byte has been pushed. */
  finish(): Promise<Uint8Array>
}

/** CompressionStream in this thread: it compresses the queued bytes while the caller awaits something else. */
export function nativeCompressor(): PartCompressor {
  const stream = new CompressionStream('gzip')
  const output = new Response(stream.readable).arrayBuffer()
  // Its failure is the output's, which finish() hands on; this one would only go unhandled.
  output.catch(() => undefined)
  const writer = stream.writable.getWriter()
  return {
    push: (bytes) => {
      writer.write(bytes as BufferSource).catch(() => undefined)
    },
    finish: async () => {
      await writer.close()
      return new Uint8Array(await output)
    },
  }
}

/**
 * A sheet written and compressed as its rows arrive, before the rest of the workbook is known: a large export's rows
 * are compressed while its later rows are still being read, rather than all at the end. The rows come in order and
 * their number is declared at the start, since the sheet's dimension precedes them; a sheet given another number of
 * rows is refused when finished, never written wrong. Compressed by the compressor it is given, else by the
 * platform's CompressionStream where there is one, by fflate otherwise, as the rest of the workbook is.
 */
export class SheetWriter {
  private readonly layout: SheetLayout
  private readonly rows: RowBytes
  private written = 0
  private size = 0
  private closed = false
  private readonly compressor: PartCompressor | undefined
  private readonly fflate: { gzip: Gzip; chunks: Uint8Array[] } | undefined
  private result: Promise<Compressed> | undefined
  private fflateResult: Compressed | undefined

  constructor(
    strings: SharedStrings,
    layout: SheetLayout,
    { level = DEFAULT_LEVEL, compressor }: { level?: DeflateLevel; compressor?: PartCompressor } = {},
  ) {
    this.layout = layout
    this.rows = new RowBytes(strings, (bytes) => this.push(bytes))
    if (compressor) {
      this.compressor = compressor
    } else if (typeof CompressionStream === 'undefined') {
      const chunks: Uint8Array[] = []
      this.fflate = { gzip: new Gzip({ level, mtime: 0 }, (chunk) => chunks.push(chunk)), chunks }
    } else {
      this.compressor = nativeCompressor()
    }
    this.push(new TextEncoder().encode(sheetHead(layout)))
  }

  /** The next rows, in order. */
  write(rows: readonly Row[]): void {
    if (this.closed) throw new Error('Feuille déjà terminée')
    for (const row of rows) {
      this.written += 1
      this.rows.row(row, this.written)
    }
  }

  /**
   * The next rows, in order, as indexes in the shared strings (-1 for an empty cell), `width` to a row one after the
   * other in `cells`: a pack's rows waiting for an earlier slice are kept so, in a few large arrays rather than in
   * hundreds of thousands of small ones for the garbage collector to move about.
   */
  writeIndexed(cells: Int32Array, width: number): void {
    if (this.closed) throw new Error('Feuille déjà terminée')
    for (let start = 0; start < cells.length; start += width) {
      this.written += 1
      this.rows.row(cells, this.written, start, width)
    }
  }

  private push(bytes: Uint8Array): void {
    this.size += bytes.length
    if (this.fflate) this.fflate.gzip.push(bytes)
    // Not awaited: the batches are compressed while the caller reads its next rows.
    else this.compressor!.push(bytes)
  }

  private close(): void {
    if (this.closed) return
    this.closed = true
    if (this.written !== this.layout.rows) {
      throw new Error(`Feuille incomplète : ${this.written} lignes écrites sur ${this.layout.rows} annoncées`)
    }
    this.rows.flush()
    this.push(new TextEncoder().encode(SHEET_TAIL))
  }

  /** The compressed sheet, once every declared row has been written. */
  finish(): Promise<Compressed> {
    if (this.fflate) return new Promise((resolve) => resolve(this.finishSync()))
    this.result ??= new Promise<void>((resolve) => resolve(this.close()))
      .then(() => this.compressor!.finish())
      .then((gzip) => ({ gzip, size: this.size }))
    return this.result
  }

  /** As finish(), where the sheet was compressed by fflate (there was no CompressionStream). */
  finishSync(): Compressed {
    if (!this.fflate) throw new Error('Feuille compressée par la plateforme : à terminer par finish()')
    if (!this.fflateResult) {
      this.close()
      this.fflate.gzip.push(new Uint8Array(0), true)
      this.fflateResult = { gzip: concat(this.fflate.chunks), size: this.size }
    }
    return this.fflateResult
  }
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PACKAGE_RELS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships'

function contentTypes(sheets: number): string {
  const overrides = Array.from(
    { length: sheets },
    (_, index) =>
      `<Override PartName="/xl/worksheets/sheet${index + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
  ).join('')
  return (
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
    `${overrides}</Types>`
  )
}

const ROOT_RELS =
  `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELS_NS}">` +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
  '</Relationships>'

function workbookXml(names: readonly string[]): string {
  const sheets = names.map((name, index) => `<sheet name="${escapeAttribute(name)}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`).join('')
  return `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`
}

function workbookRels(sheets: number): string {
  const worksheets = Array.from(
    { length: sheets },
    (_, index) =>
      `<Relationship Id="rId${index + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`,
  ).join('')
  return `${XML_HEAD}<Relationships xmlns="${PACKAGE_RELS_NS}">${worksheets}<Relationship Id="rId${sheets + 1}" Type="${REL_NS}/styles" Target="styles.xml"/><Relationship Id="rId${sheets + 2}" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`
}

/** The least a stylesheet holds for Excel to open the file without repairing it: one font, the two required fills, one border, one format. */
const STYLES =
  `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">` +
  '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>'
