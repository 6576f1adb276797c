/**
 * Writes .xlsx workbooks of text cells, streamed through fflate's deflate: a sheet's XML is made about a megabyte
 * at a time and compressed at once, so a hundred thousand rows never sit in memory as one document.
 * Every cell is a string of the shared-string table (never a number, a date or a formula: what starts with `=`
 * stays text). Each distinct text is written once, so there is less XML to compress: names, applications and
 * decisions repeat down an export.
 * The workbook's shape mirrors SheetJS's (SheetNames, Sheets, `!cols`) so that callers and tests read alike.
 */
import { Zip, ZipDeflate } from 'fflate'

export interface ColumnWidth {
  /** Width in characters. */
  wch: number
}

export interface Sheet {
  rows: readonly (readonly string[])[]
  '!cols'?: readonly ColumnWidth[]
  /** Rows kept on screen while scrolling (1 for a header row). */
  frozenRows?: number
}

export interface Workbook {
  SheetNames: string[]
  Sheets: Record<string, Sheet>
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

export function bookNew(): Workbook {
  return { SheetNames: [], Sheets: {} }
}

export function appendSheet(workbook: Workbook, sheet: Sheet, name: string): void {
  if (!name || name.length > MAX_SHEET_NAME || FORBIDDEN_SHEET_NAME.test(name)) throw new Error(`Nom de feuille invalide : « ${name} »`)
  if (workbook.Sheets[name]) throw new Error(`Feuille en double : « ${name} »`)
  workbook.SheetNames.push(name)
  workbook.Sheets[name] = sheet
}

/** The .xlsx bytes of the workbook. */
export function writeWorkbook(workbook: Workbook, { level = DEFAULT_LEVEL }: { level?: DeflateLevel } = {}): Uint8Array {
  const chunks: Uint8Array[] = []
  let failure: Error | null = null
  const zip = new Zip((error, chunk) => {
    if (error) failure = error
    else chunks.push(chunk)
  })
  const encoder = new TextEncoder()
  const addFile = (path: string, parts: Iterable<string>) => {
    const file = new ZipDeflate(path, { level })
    zip.add(file)
    for (const part of parts) file.push(encoder.encode(part))
    file.push(new Uint8Array(0), true)
  }
  const count = workbook.SheetNames.length
  addFile('[Content_Types].xml', [contentTypes(count)])
  addFile('_rels/.rels', [ROOT_RELS])
  addFile('xl/workbook.xml', [workbookXml(workbook.SheetNames)])
  addFile('xl/_rels/workbook.xml.rels', [workbookRels(count)])
  addFile('xl/styles.xml', [STYLES])
  const strings = new SharedStrings()
  workbook.SheetNames.forEach((name, index) => addFile(`xl/worksheets/sheet${index + 1}.xml`, sheetXml(workbook.Sheets[name]!, strings)))
  // Written last, once the sheets have named every text: the order of a package's parts does not matter.
  addFile('xl/sharedStrings.xml', strings.xml())
  zip.end()
  if (failure) throw failure
  return concat(chunks)
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

/** The workbook's table of distinct texts; a cell holds the index of its text there. */
class SharedStrings {
  private readonly indexes = new Map<string, number>()
  private references = 0

  indexOf(text: string): number {
    this.references += 1
    let index = this.indexes.get(text)
    if (index === undefined) {
      index = this.indexes.size
      this.indexes.set(text, index)
    }
    return index
  }

  *xml(): Generator<string> {
    yield `${XML_HEAD}<sst xmlns="${MAIN_NS}" count="${this.references}" uniqueCount="${this.indexes.size}">`
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
}

function* sheetXml(sheet: Sheet, strings: SharedStrings): Generator<string> {
  const { rows } = sheet
  const width = rows.reduce((max, row) => Math.max(max, row.length), 0)
  const dimension = width > 0 && rows.length > 0 ? `A1:${columnName(width - 1)}${rows.length}` : 'A1'
  const frozen = sheet.frozenRows ?? 0
  const view =
    frozen > 0
      ? `<sheetView workbookViewId="0"><pane ySplit="${frozen}" topLeftCell="A${frozen + 1}" activePane="bottomLeft" state="frozen"/></sheetView>`
      : '<sheetView workbookViewId="0"/>'
  const widths = sheet['!cols'] ?? []
  const cols =
    widths.length > 0
      ? `<cols>${widths.map(({ wch }, index) => `<col min="${index + 1}" max="${index + 1}" width="${wch}" customWidth="1"/>`).join('')}</cols>`
      : ''
  yield `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><dimension ref="${dimension}"/><sheetViews>${view}</sheetViews><sheetFormatPr defaultRowHeight="15"/>${cols}<sheetData>`
  let batch = ''
  // An empty text is no cell at all: in an evidence pack most stage columns are empty, and leaving them out is more
  // than half the XML to make and compress. A cell goes without its optional reference (ECMA-376 §18.3.1.4) when it
  // follows the previous one, as Excel, LibreOffice and SheetJS then place it after the last; after a gap it names
  // its column.
  const columns = Array.from({ length: width }, (_, c) => columnName(c))
  for (let r = 0; r < rows.length; r += 1) {
    const row = rows[r]!
    const rowNumber = r + 1
    batch += `<row r="${rowNumber}">`
    let gap = false
    for (let c = 0; c < row.length; c += 1) {
      const text = row[c]
      if (!text) {
        gap = true
        continue
      }
      batch += gap ? `<c r="${columns[c]}${rowNumber}" t="s"><v>${strings.indexOf(text)}</v></c>` : `<c t="s"><v>${strings.indexOf(text)}</v></c>`
      gap = false
    }
    batch += '</row>'
    if (batch.length > BATCH_CHARACTERS) {
      yield batch
      batch = ''
    }
  }
  yield `${batch}</sheetData></worksheet>`
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
