/**
 * Reads one sheet of an untrusted .xlsx file as rows of text, and nothing more. SheetJS 0.18.5, the last release on the
 * npm registry, has read-path advisories (CVE-2023-30533 prototype pollution, CVE-2024-22363 ReDoS); this reader is
 * the least that our own workbooks (src/lib/xlsx-writer), and the same files saved again by Excel or LibreOffice,
 * need:
 * - fflate unzips only the parts named below, after checking their declared sizes against a cap; fflate inflates into
 *   a buffer of the declared size, so a part that lies about its size is cut short and then fails to parse;
 * - a strict scanner of the sheet and shared-strings XML: no DTD, no comment, no CDATA (what Excel never writes and
 *   entity-expansion attacks need), only the five XML entities and character references, linear regular expressions;
 * - a cell with a formula is refused (never evaluated, and its cached value is not what the reviewer typed);
 * - rows are arrays of strings and nothing is keyed by a cell's text, so `__proto__` in a cell is only text.
 * Every refusal is an XlsxReadError whose message, in French, can be shown as it is.
 */
import { unzipSync } from 'fflate'

export class XlsxReadError extends Error {
  override name = 'XlsxReadError'
}

export interface XlsxLimits {
  /** The file's size in bytes. */
  maxFileBytes: number
  /** The sum of the declared uncompressed sizes of the parts read (zip bombs). */
  maxUncompressedBytes: number
  /** Rows of the sheet, the header row included. */
  maxRows: number
}

export const DEFAULT_XLSX_LIMITS: XlsxLimits = {
  maxFileBytes: 20 * 1024 * 1024,
  maxUncompressedBytes: 100 * 1024 * 1024,
  maxRows: 50_000,
}

/** Cells beyond this column are not read: our files have at most 18 columns. */
const MAX_COLUMNS = 64
/** Excel's longest cell. */
const MAX_CELL_LENGTH = 32_767

export interface SheetRow {
  /** The row's number in the spreadsheet (1 for the first row), as the reviewer sees it. */
  number: number
  /** The text of each cell, '' for an empty one. */
  cells: string[]
}

const NOT_XLSX = "Ce fichier n'est pas un classeur Excel (.xlsx) lisible."
const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} Mo`

/** The rows of the sheet called sheetName, in order; rows the file leaves out (empty ones) are not returned. */
export function readXlsxSheet(bytes: Uint8Array, sheetName: string, limits: XlsxLimits = DEFAULT_XLSX_LIMITS): SheetRow[] {
  if (bytes.length > limits.maxFileBytes) {
    throw new XlsxReadError(`Le fichier est trop volumineux : au plus ${megabytes(limits.maxFileBytes)}.`)
  }
  if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 0x03 || bytes[3] !== 0x04) {
    throw new XlsxReadError(NOT_XLSX)
  }
  const workbook = unzipParts(bytes, new Set(['xl/workbook.xml', 'xl/_rels/workbook.xml.rels']), limits)
  const workbookXml = text(workbook.get('xl/workbook.xml'))
  const relsXml = text(workbook.get('xl/_rels/workbook.xml.rels'))

  let relationId: string | undefined
  scanTags(workbookXml, (tag) => {
    if (tag.name === 'sheet' && !tag.closing && tag.attribute('name') === sheetName) relationId ??= tag.attribute('r:id')
  })
  if (!relationId) throw new XlsxReadError(`Ce classeur n'a pas de feuille « ${sheetName} ».`)
  let sheetPath: string | undefined
  let sharedStringsPath: string | undefined
  scanTags(relsXml, (tag) => {
    if (tag.name !== 'Relationship' || tag.closing) return
    const target = tag.attribute('Target')
    const type = tag.attribute('Type') ?? ''
    if (!target) return
    if (tag.attribute('Id') === relationId) sheetPath = partPath(target)
    if (type.endsWith('/sharedStrings')) sharedStringsPath = partPath(target)
  })
  if (!sheetPath) throw new XlsxReadError(NOT_XLSX)

  const wanted = new Set([sheetPath, ...(sharedStringsPath ? [sharedStringsPath] : [])])
  const parts = unzipParts(bytes, wanted, limits)
  // No sheet within the caps refers to more distinct texts than it has cells.
  const shared = sharedStringsPath ? readSharedStrings(text(parts.get(sharedStringsPath)), limits.maxRows * MAX_COLUMNS) : []
  return readRows(text(parts.get(sheetPath)), shared, limits.maxRows)
}

/** A relationship's target as a path inside the package: relative to xl/, or absolute from the package's root. */
function partPath(target: string): string {
  if (target.startsWith('/')) return target.slice(1)
  const segments = ['xl']
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop()
    else if (segment !== '.' && segment !== '') segments.push(segment)
  }
  return segments.join('/')
}

function unzipParts(bytes: Uint8Array, names: ReadonlySet<string>, limits: XlsxLimits): Map<string, Uint8Array> {
  let declared = 0
  let files: Record<string, Uint8Array>
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        if (!names.has(file.name)) return false
        declared += file.originalSize
        if (file.originalSize > limits.maxUncompressedBytes || declared > limits.maxUncompressedBytes) {
          throw new XlsxReadError(`Le contenu du fichier, décompressé, dépasse ${megabytes(limits.maxUncompressedBytes)} : il n'est pas lu.`)
        }
        return true
      },
    })
  } catch (error) {
    if (error instanceof XlsxReadError) throw error
    throw new XlsxReadError(NOT_XLSX)
  }
  // Keyed by a Map: a part's name is the file's text, never an object's property name.
  const parts = new Map<string, Uint8Array>()
  for (const name of names) {
    if (Object.prototype.hasOwnProperty.call(files, name)) parts.set(name, files[name]!)
  }
  return parts
}

function text(part: Uint8Array | undefined): string {
  if (!part) throw new XlsxReadError(NOT_XLSX)
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(part)
  } catch {
    throw new XlsxReadError(NOT_XLSX)
  }
}

interface Tag {
  name: string
  closing: boolean
  selfClosing: boolean
  /** An attribute's value, entities decoded; read only when asked for, as most tags' attributes are never needed. */
  attribute(name: string): string | undefined
  /** The text between the previous tag and this one, entities decoded (read only when asked for, likewise). */
  text(): string
}

// Linear expressions only: each character is consumed once (no nested or overlapping quantifiers).
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)([^<>]*)>/g
const ATTRIBUTE = /([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"<]*)"|'([^'<]*)')/g
const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g
const BARE_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});)/
const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const OOXML_ESCAPE = /_x([0-9A-Fa-f]{4})_/g

/** Calls visit for each element tag, in order. Refuses what this reader does not need and would not handle safely. */
function scanTags(xml: string, visit: (tag: Tag) => void): void {
  if (xml.includes('<!')) throw new XlsxReadError("Le fichier contient une construction XML refusée (DTD, commentaire ou CDATA).")
  const body = xml.startsWith('<?xml') ? xml.slice(xml.indexOf('?>') + 2) : xml
  if (body.includes('<?')) throw new XlsxReadError(NOT_XLSX)
  TAG.lastIndex = 0
  let last = 0
  // Open elements: every one must be closed, in order, so that a part cut short (a zip entry that declared less than
  // it holds is inflated only up to what it declared) is refused rather than read in part.
  const open: string[] = []
  for (let match = TAG.exec(body); match; match = TAG.exec(body)) {
    const raw = match[3]!
    const selfClosing = raw.endsWith('/')
    if (match[1] === '/') {
      if (open.pop() !== match[2]) throw new XlsxReadError(NOT_XLSX)
    } else if (!selfClosing) open.push(match[2]!)
    const [textStart, textEnd] = [last, match.index]
    visit({
      name: match[2]!,
      closing: match[1] === '/',
      selfClosing,
      attribute: (name) => attributeOf(raw, name),
      text: () => decodeEntities(body.slice(textStart, textEnd)),
    })
    last = TAG.lastIndex
  }
  if (open.length > 0 || last === 0 || body.slice(last).trim() !== '') throw new XlsxReadError(NOT_XLSX)
}

function attributeOf(raw: string, name: string): string | undefined {
  for (const attribute of raw.matchAll(ATTRIBUTE)) {
    if (attribute[1] === name) return decodeEntities(attribute[2] ?? attribute[3] ?? '')
  }
  return undefined
}

function decodeEntities(value: string): string {
  if (!value.includes('&')) return value
  // An entity other than these (one a DTD would define) is refused rather than left as text or expanded.
  if (BARE_AMPERSAND.test(value)) throw new XlsxReadError(NOT_XLSX)
  return value.replace(ENTITY, (_, name: string | undefined, decimal: string | undefined, hex: string | undefined) => {
    if (name) return NAMED_ENTITIES[name]!
    const code = decimal ? Number(decimal) : parseInt(hex!, 16)
    if (code > 0x10ffff) throw new XlsxReadError(NOT_XLSX)
    return String.fromCodePoint(code)
  })
}

/** Office Open XML's `_xHHHH_` escapes (ECMA-376 ST_Xstring), as src/lib/xlsx-writer.ts writes them. */
function decodeOoxml(value: string): string {
  return value.includes('_x') ? value.replace(OOXML_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : value
}

function readSharedStrings(xml: string, maxStrings: number): string[] {
  const strings: string[] = []
  let current: string | null = null
  let inText = false
  let inPhonetic = false
  scanTags(xml, (tag) => {
    if (tag.name === 't' && inText && tag.closing && current !== null && !inPhonetic) current += tag.text()
    if (tag.name === 't') inText = !tag.closing && !tag.selfClosing
    else if (tag.name === 'rPh') inPhonetic = !tag.closing && !tag.selfClosing
    else if (tag.name === 'si' && !tag.closing) {
      if (strings.length >= maxStrings) throw new XlsxReadError("Le fichier contient plus de textes qu'il n'a de cellules : il n'est pas lu.")
      current = ''
      if (tag.selfClosing) {
        strings.push('')
        current = null
      }
    } else if (tag.name === 'si' && tag.closing && current !== null) {
      strings.push(fit(decodeOoxml(current)))
      current = null
    }
  })
  return strings
}

function fit(value: string): string {
  if (value.length > MAX_CELL_LENGTH) throw new XlsxReadError('Une cellule du fichier dépasse 32 767 caractères, la limite d’Excel.')
  return value
}

/** A1-style reference to a zero-based column index, or null when it is not one. */
function columnOf(reference: string): number | null {
  const letters = /^([A-Z]{1,3})\d*$/.exec(reference)?.[1]
  if (!letters) return null
  let index = 0
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64)
  return index - 1
}

function readRows(xml: string, shared: readonly string[], maxRows: number): SheetRow[] {
  const rows: SheetRow[] = []
  let row: SheetRow | null = null
  let column = -1
  let cell: { type: string; reference: string; value: string; inline: string } | null = null
  let element = ''
  let inPhonetic = false
  let inSheetData = false

  const finishCell = () => {
    if (!row || !cell) return
    let value: string
    if (cell.type === 's') {
      const index = /^\d{1,9}$/.test(cell.value.trim()) ? Number(cell.value.trim()) : -1
      if (index < 0 || index >= shared.length) throw new XlsxReadError(`La cellule ${cell.reference} renvoie à un texte absent du fichier.`)
      value = shared[index]!
    } else if (cell.type === 'inlineStr') value = fit(decodeOoxml(cell.inline))
    else value = fit(cell.value)
    if (column < MAX_COLUMNS) {
      while (row.cells.length < column) row.cells.push('')
      row.cells[column] = value
    }
    cell = null
  }

  scanTags(xml, (tag) => {
    if (tag.name === 'sheetData') {
      inSheetData = !tag.closing && !tag.selfClosing
      return
    }
    if (!inSheetData) return
    if (tag.name === 'row' && !tag.closing) {
      const previous = rows.length > 0 ? rows[rows.length - 1]!.number : 0
      const declared = Number(tag.attribute('r') ?? previous + 1)
      if (!Number.isInteger(declared) || declared <= previous || declared > 1_048_576) throw new XlsxReadError(NOT_XLSX)
      if (rows.length >= maxRows) {
        throw new XlsxReadError(`Le fichier contient plus de ${maxRows.toLocaleString('fr-FR')} lignes : il n'est pas lu.`)
      }
      row = { number: declared, cells: [] }
      rows.push(row)
      column = -1
      if (tag.selfClosing) row = null
    } else if (tag.name === 'row' && tag.closing) {
      row = null
    } else if (tag.name === 'c' && !tag.closing && row) {
      const reference = tag.attribute('r')
      const declared = reference === undefined ? column + 1 : columnOf(reference)
      if (declared === null || declared <= column || declared >= 16_384) throw new XlsxReadError(NOT_XLSX)
      column = declared
      cell = { type: tag.attribute('t') ?? 'n', reference: reference ?? `ligne ${row.number}`, value: '', inline: '' }
      if (tag.selfClosing) finishCell()
    } else if (tag.name === 'c' && tag.closing) {
      finishCell()
    } else if (tag.name === 'f' && cell) {
      throw new XlsxReadError(
        `La cellule ${cell.reference} contient une formule : les formules ne sont pas lues. Saisissez la valeur elle-même.`,
      )
    } else if (tag.name === 'rPh') {
      inPhonetic = !tag.closing && !tag.selfClosing
    } else if (tag.closing && cell && tag.name === element) {
      if (element === 'v') cell.value += tag.text()
      else if (element === 't' && !inPhonetic) cell.inline += tag.text()
      element = ''
    } else if (!tag.closing && !tag.selfClosing && (tag.name === 'v' || tag.name === 't')) {
      element = tag.name
    }
  })
  return rows
}
