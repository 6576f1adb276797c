/** A worksheet's XML: its head, its rows as bytes of shared-string indexes, and the sheet written as its rows arrive. */
import { Gzip } from 'fflate'
import { DEFAULT_LEVEL, nativeCompressor, type Compressed, type DeflateLevel, type PartCompressor } from './compressor'
import type { SharedStrings } from './shared-strings'
import { BATCH_BYTES, columnName, MAIN_NS, REL_NS, XML_HEAD } from './xml'
import { concat } from './zip'

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

/** What a sheet's XML says before its rows: its size, frozen rows and column widths. */
export interface SheetLayout {
  rows: number
  width: number
  '!cols'?: readonly ColumnWidth[]
  frozenRows?: number
}

export function sheetHead({ rows, width, frozenRows = 0, '!cols': widths = [] }: SheetLayout): string {
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

export const SHEET_TAIL = '</sheetData></worksheet>'

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

export function* sheetXml(sheet: Sheet, strings: SharedStrings): Generator<string | Uint8Array> {
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
