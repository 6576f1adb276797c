/**
 * Reads a directory or applications file in the browser, imported dynamically with papaparse when a file is chosen.
 * It checks what only the file can tell (encoding, columns, hostile cells); the database checks the rest (e-mails,
 * managers, loops, roles, duplicates) in the dry run whose report the dialog shows.
 */
import { CSV_FILE_MESSAGES, csvCellProblem, decodeUtf8, megabytes, readCsvHeader } from '@/lib/csv-columns'
import { csvRecords, normalizeCsvText } from '@/lib/csv-records'
import { SYNC_LIMITS, type SyncColumn, type SyncFormat } from './formats'

/** The file cannot be imported at all (its size, encoding or header): no line-by-line report makes sense. */
export class SyncFileError extends Error {}

const numberFr = new Intl.NumberFormat('fr-FR')

export const SYNC_MESSAGES = {
  ...CSV_FILE_MESSAGES,
  tooBig: (bytes: number) => `Le fichier pèse ${megabytes(bytes)} : ${megabytes(SYNC_LIMITS.maxBytes)} au plus par import.`,
  tooManyRows: (rows: number) => `Le fichier contient ${numberFr.format(rows)} lignes : ${numberFr.format(SYNC_LIMITS.maxRows)} au plus par import.`,
} as const

export interface SyncLine {
  line: number
  [field: string]: string | number
}

export interface LineProblems {
  line: number
  errors: string[]
}

export interface ParsedSyncFile {
  /** Lines without any problem of their own, as the import RPC takes them. */
  rows: SyncLine[]
  /** Lines refused here, with their reasons. */
  problems: LineProblems[]
  total: number
}

/** UTF-8 with or without BOM; anything else (Excel's default Windows-1252 CSV above all) is refused, not mangled. */
export function decodeSyncFile(bytes: Uint8Array): string {
  if (bytes.byteLength === 0) throw new SyncFileError(SYNC_MESSAGES.emptyFile)
  if (bytes.byteLength > SYNC_LIMITS.maxBytes) throw new SyncFileError(SYNC_MESSAGES.tooBig(bytes.byteLength))
  const text = decodeUtf8(bytes)
  if (text === null) throw new SyncFileError(SYNC_MESSAGES.notUtf8)
  return text
}

/** Each header cell's column; throws SyncFileError when the header is not the format's. */
function readHeader(format: Pick<SyncFormat, 'columns'>, cells: string[]): (SyncColumn | null)[] {
  const { columns, problem } = readCsvHeader(format.columns, cells)
  if (problem) throw new SyncFileError(problem)
  return columns
}

/** The file's lines, every cell checked; throws SyncFileError when the file as a whole is unusable. */
export function parseSyncFile(format: Pick<SyncFormat, 'columns'>, text: string): ParsedSyncFile {
  const content = normalizeCsvText(text)
  if (!content.trim()) throw new SyncFileError(SYNC_MESSAGES.emptyFile)

  const records = csvRecords(content)

  const [header, ...data] = records
  const columns = readHeader(format, header?.cells ?? [])
  const lines = data.filter((record) => record.cells.some((cell) => cell.trim() !== ''))
  if (lines.length === 0) throw new SyncFileError(SYNC_MESSAGES.noRows)
  if (lines.length > SYNC_LIMITS.maxRows) throw new SyncFileError(SYNC_MESSAGES.tooManyRows(lines.length))

  const rows: SyncLine[] = []
  const problems: LineProblems[] = []
  for (const record of lines) {
    const row: SyncLine = { line: record.line }
    const errors: string[] = record.unclosed ? [SYNC_MESSAGES.unclosedQuote] : []
    record.cells.forEach((raw, index) => {
      const column = columns[index]
      if (!column) {
        if (raw.trim()) errors.push(SYNC_MESSAGES.outsideColumns(index + 1))
        return
      }
      const problem = csvCellProblem(raw, column)
      if (problem) errors.push(problem)
      else if (raw.trim()) row[column.field] = raw.trim()
    })
    if (errors.length) problems.push({ line: record.line, errors })
    else rows.push(row)
  }
  return { rows, problems, total: lines.length }
}
