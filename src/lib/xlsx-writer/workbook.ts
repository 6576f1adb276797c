/** A workbook of sheets and its .xlsx bytes: the package's parts, each compressed, in a zip archive. */
import { Gzip } from 'fflate'
import { DEFAULT_LEVEL, type DeflateLevel, type PartCompressor } from './compressor'
import { SharedStrings } from './shared-strings'
import { sheetXml, type Sheet, type SheetWriter } from './sheet'
import { escapeAttribute, MAIN_NS, PACKAGE_RELS_NS, REL_NS, XML_HEAD } from './xml'
import { concat, entryOf, zipArchive, type Entry } from './zip'

export interface Workbook {
  SheetNames: string[]
  Sheets: Record<string, Sheet>
  /** Its table of distinct texts, which a cell refers to by index. */
  strings: SharedStrings
  /** Compresses each part not written ahead, where the thread that writes them has better to do (see bookNew). */
  compressor?: () => PartCompressor
}

/** Excel refuses sheet names longer than 31 characters or with any of these characters. */
const MAX_SHEET_NAME = 31
const FORBIDDEN_SHEET_NAME = /[[\]:*?/\\]/

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
