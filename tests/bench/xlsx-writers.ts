/**
 * `npx tsx tests/bench/xlsx-writers.ts [--modules DIR] [--rows N] [--runs N]`: writes the same workbook with each
 * candidate .xlsx writer and prints time, peak memory and the gzip size of what a browser worker would load.
 * The workbook is the shape of the manager export: N rows (default 100,000) × 12 text columns with a frozen header
 * row and column widths, plus a small second sheet; every cell a string, some of them formula-looking.
 *
 * Only the writer the app uses (src/lib/xlsx-writer over fflate) and xlsx 0.18.5 are dependencies. The others
 * are looked up in --modules (a node_modules folder), so that trying them does not add them to the project:
 *   mkdir -p /tmp/xlsx-trial && cd /tmp/xlsx-trial && npm init -y && npm install @e965/xlsx exceljs write-excel-file
 *   npx tsx tests/bench/xlsx-writers.ts --modules /tmp/xlsx-trial/node_modules
 * Each candidate runs in a process of its own (node --expose-gc), so that one's garbage does not weigh on another.
 * Not part of npm test.
 */
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import type * as SheetJS from 'xlsx'
import { appendSheet, bookNew, writeWorkbook, type DeflateLevel } from '../../src/lib/xlsx-writer'

const { values } = parseArgs({
  options: {
    modules: { type: 'string' },
    rows: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '2' },
    candidate: { type: 'string' },
  },
})
/** Required: an import of xlsx 0.18.5 in Node sees only some names of its CommonJS build, not CFB (its zip reader and writer). */
const XLSX = createRequire(import.meta.url)('xlsx') as typeof SheetJS
const ROWS = Number(values.rows)
const RUNS = Number(values.runs)
const modules = values.modules ? resolve(values.modules) : undefined
const COLUMNS = 12
const WIDTHS = [36, 28, 30, 24, 24, 16, 22, 14, 40, 14, 20, 36]
const HOSTILE = ['=HYPERLINK("http://evil","x")', '+33 1 23', '-2+3', '@SUM(A1)']
const FROZEN_PANE = /<pane [^>]*ySplit="1"[^>]*state="frozen"/

interface Data {
  rows: string[][]
  notes: string[][]
}

/** The same rows for every candidate: a fixed seed, repeated values as in a real export (names, applications). */
function makeData(count: number): Data {
  let seed = 42
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
  const pick = (prefix: string, spread: number) => `${prefix} ${Math.floor(next() * spread)}`
  const header = Array.from({ length: COLUMNS }, (_, c) => `Colonne ${c + 1}`)
  const rows = [header]
  for (let r = 0; r < count; r += 1) {
    rows.push([
      `${r.toString(16).padStart(8, '0')}-4a1b-9c2d-${(r * 7919).toString(16).padStart(12, '0')}`,
      pick('Utilisateur', 10_000),
      `${pick('utilisateur', 10_000).replace(' ', '.')}@example.com`,
      pick('Application', 200),
      pick('Rôle', 40),
      next() < 0.5 ? 'Standard' : 'Privilégié',
      pick('Service', 60),
      '01 novembre 2026',
      next() < 0.02 ? (HOSTILE[r % HOSTILE.length] ?? '') : pick('Justification & accès <urgent>', 500),
      next() < 0.3 ? 'Validé' : '',
      next() < 0.1 ? 'Plus dans le service' : '',
      pick('Manager', 2_000),
    ])
  }
  const notes = [['Campagne', '=Revue T4'], ...Array.from({ length: 9 }, (_, i) => [`Ligne ${i + 1}`, 'Texte des instructions, à lire.'])]
  return { rows, notes }
}

type Writer = (data: Data) => Promise<Uint8Array>

const load = (name: string): unknown => {
  if (!modules) throw new Error(`not installed (pass --modules DIR holding ${name})`)
  return createRequire(join(modules, 'noop.js'))(name)
}

function sheetjsSheet(lib: typeof SheetJS, rows: string[][], widths: number[]): SheetJS.WorkSheet {
  const sheet: SheetJS.WorkSheet = {}
  rows.forEach((row, r) => row.forEach((v, c) => (sheet[lib.utils.encode_cell({ r, c })] = { t: 's', v })))
  sheet['!ref'] = lib.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: rows.length - 1, c: (rows[0]?.length ?? 1) - 1 } })
  sheet['!cols'] = widths.map((wch) => ({ wch }))
  return sheet
}

/** SheetJS writes no panes: as today's excel.ts did, the first sheet's view is set by unzipping and re-zipping. */
function sheetjsBytes(lib: typeof SheetJS, data: Data): Uint8Array {
  const book = lib.utils.book_new()
  lib.utils.book_append_sheet(book, sheetjsSheet(lib, data.rows, WIDTHS), 'Droits')
  lib.utils.book_append_sheet(book, sheetjsSheet(lib, data.notes, [20, 90]), 'Instructions')
  const bytes = new Uint8Array(lib.write(book, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer)
  const zip = lib.CFB.read(bytes, { type: 'array' })
  const entry = zip.FileIndex[zip.FullPaths.findIndex((path: string) => path.endsWith('/xl/worksheets/sheet1.xml'))]!
  const xml = new TextDecoder().decode(entry.content as Uint8Array)
  const view = '<sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView>'
  entry.content = new TextEncoder().encode(xml.replace(/<sheetView\b[^>]*?\/>/, view)) as unknown as typeof entry.content
  entry.size = (entry.content as Uint8Array).length
  return new Uint8Array(lib.CFB.write(zip, { type: 'array', fileType: 'zip', compression: true }) as ArrayBuffer)
}

function ours(level: DeflateLevel): Writer {
  return async (data) => {
    const book = bookNew()
    appendSheet(book, { rows: data.rows, '!cols': WIDTHS.map((wch) => ({ wch })), frozenRows: 1 }, 'Droits')
    appendSheet(book, { rows: data.notes, '!cols': [{ wch: 20 }, { wch: 90 }] }, 'Instructions')
    return writeWorkbook(book, { level })
  }
}

interface ExcelJsModule {
  Workbook: new () => {
    addWorksheet(name: string, options: unknown): { columns: unknown; addRows(rows: string[][]): void }
    xlsx: { writeBuffer(): Promise<ArrayBuffer> }
  }
}
type WriteExcelFile = (sheets: unknown[]) => { toBuffer(): Promise<Uint8Array> }

const CANDIDATES: Record<string, { writer: Writer; browserEntry: string }> = {
  'xlsx 0.18.5 + re-zip (before)': {
    writer: async (data) => sheetjsBytes(XLSX, data),
    browserEntry: `export { utils, write, CFB } from 'xlsx'`,
  },
  '@e965/xlsx 0.20.3 + re-zip': {
    writer: async (data) => sheetjsBytes(load('@e965/xlsx') as typeof SheetJS, data),
    browserEntry: `export { utils, write, CFB } from '@e965/xlsx'`,
  },
  'exceljs 4 (Workbook.xlsx.writeBuffer)': {
    writer: async (data) => {
      const { Workbook } = load('exceljs') as ExcelJsModule
      const book = new Workbook()
      const sheet = book.addWorksheet('Droits', { views: [{ state: 'frozen', ySplit: 1 }] })
      sheet.columns = WIDTHS.map((width) => ({ width }))
      sheet.addRows(data.rows)
      const notes = book.addWorksheet('Instructions', {})
      notes.columns = [{ width: 20 }, { width: 90 }]
      notes.addRows(data.notes)
      return new Uint8Array(await book.xlsx.writeBuffer())
    },
    browserEntry: `export { Workbook } from 'exceljs'`,
  },
  'write-excel-file 4': {
    writer: async (data) => {
      const write = (load('write-excel-file/node') as { default: WriteExcelFile }).default
      const cells = (rows: string[][]) => rows.map((row) => row.map((value) => ({ value, type: String })))
      const bytes = await write([
        { data: cells(data.rows), sheet: 'Droits', columns: WIDTHS.map((width) => ({ width })), stickyRowsCount: 1 },
        { data: cells(data.notes), sheet: 'Instructions', columns: [{ width: 20 }, { width: 90 }] },
      ]).toBuffer()
      return new Uint8Array(bytes)
    },
    browserEntry: `export { default } from 'write-excel-file/browser'`,
  },
  'ours over fflate, level 1 (chosen)': {
    writer: ours(1),
    browserEntry: `export { appendSheet, bookNew, writeWorkbook } from '${resolve('src/lib/xlsx-writer/index.ts')}'`,
  },
  'ours over fflate, level 6': {
    writer: ours(6),
    browserEntry: `export { appendSheet, bookNew, writeWorkbook } from '${resolve('src/lib/xlsx-writer/index.ts')}'`,
  },
}

/** What the candidate's file holds once read back by xlsx 0.18.5, as the tests and the e2e read it. */
function check(bytes: Uint8Array, data: Data): string {
  const book = XLSX.read(bytes, { type: 'array', cellFormula: true })
  const sheet = book.Sheets['Droits']
  if (!sheet || book.SheetNames.join() !== 'Droits,Instructions') return 'sheets missing'
  const rows = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, defval: '' })
  if (rows.length !== data.rows.length) return `${rows.length} rows read`
  const hostile = Object.keys(sheet).filter((key) => !key.startsWith('!') && (sheet[key].f !== undefined || sheet[key].t !== 's'))
  if (hostile.length > 0) return `${hostile.length} cells not text`
  for (const r of [1, Math.floor(data.rows.length / 2), data.rows.length - 1]) {
    if (JSON.stringify(rows[r]) !== JSON.stringify(data.rows[r])) return `row ${r} differs`
  }
  const zip = XLSX.CFB.read(bytes, { type: 'array' })
  const entry = zip.FileIndex[zip.FullPaths.findIndex((path: string) => /xl\/worksheets\/sheet1\.xml$/.test(path))]
  const xml = new TextDecoder().decode(entry?.content as Uint8Array)
  if (!FROZEN_PANE.test(xml)) return 'header not frozen'
  if (!xml.includes('<cols>')) return 'no column widths'
  return 'ok'
}

async function runCandidate(name: string): Promise<void> {
  const candidate = CANDIDATES[name]
  if (!candidate) throw new Error(`unknown candidate ${name}`)
  const data = makeData(ROWS)
  const gc = (globalThis as { gc?: () => void }).gc
  const times: number[] = []
  let bytes: Uint8Array = new Uint8Array(0)
  let peakRssBytes = 0
  let heapAfterBytes = 0
  for (let run = 0; run < RUNS; run += 1) {
    gc?.()
    const rssBefore = process.memoryUsage().rss
    // maxRSS only ever grows: the first run's peak above the data is what the writer needed.
    const started = performance.now()
    bytes = await candidate.writer(data)
    times.push(performance.now() - started)
    if (run === 0) {
      peakRssBytes = process.resourceUsage().maxRSS * 1024 - rssBefore
      heapAfterBytes = process.memoryUsage().heapUsed
    }
  }
  const verdict = check(bytes, data)
  print(JSON.stringify({ name, bestMs: Math.min(...times), times, fileBytes: bytes.length, peakRssBytes, heapAfterBytes, verdict }))
}

/** The gzip size of the minified browser bundle a worker importing the candidate would load. */
async function bundleGzip(entry: string): Promise<number | string> {
  try {
    const result = await build({
      stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts' },
      bundle: true,
      minify: true,
      format: 'esm',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
      nodePaths: modules ? [modules] : [],
    })
    return gzipSync(result.outputFiles[0]!.contents).length
  } catch {
    return 'not installed'
  }
}

const print = (line: string) => process.stdout.write(`${line}\n`)
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`
const kb = (bytes: number | string) => (typeof bytes === 'number' ? `${(bytes / 1024).toFixed(1)} KB` : bytes)

if (values.candidate) {
  await runCandidate(values.candidate)
} else {
  print(`${ROWS.toLocaleString('en')} rows × ${COLUMNS} columns + a 10-row sheet, best of ${RUNS}, one process each\n`)
  print('| writer | time | peak RSS above the data | file | worker bundle, gzip | read back by xlsx 0.18.5 |')
  print('|---|---|---|---|---|---|')
  for (const [name, { browserEntry }] of Object.entries(CANDIDATES)) {
    const child = spawnSync(
      process.execPath,
      [...process.execArgv, '--expose-gc', '--max-old-space-size=4096', process.argv[1]!, '--candidate', name, '--rows', String(ROWS), '--runs', String(RUNS), ...(modules ? ['--modules', modules] : [])],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    )
    const bundle = kb(await bundleGzip(browserEntry))
    const line = child.stdout.split('\n').find((text) => text.startsWith('{'))
    if (!line) {
      const reason = (child.stderr.match(/Error: (.*)/)?.[1] ?? `exit ${child.status}`).slice(0, 80)
      print(`| ${name} | – | – | – | ${bundle} | ${reason} |`)
      continue
    }
    const result = JSON.parse(line) as { bestMs: number; fileBytes: number; peakRssBytes: number; verdict: string }
    print(`| ${name} | ${(result.bestMs / 1000).toFixed(2)} s | ${mb(result.peakRssBytes)} | ${kb(result.fileBytes)} | ${bundle} | ${result.verdict} |`)
  }
}
