/**
 * Reads a directory or applications file in the browser, imported dynamically with papaparse when a file is chosen.
 * It checks what only the file can tell (encoding, columns, hostile cells); the database checks the rest (e-mails,
 * managers, loops, roles, duplicates) in the dry run whose report the dialog shows.
 */
import { csvRecords, normalizeCsvText } from '@/lib/csv-records'
import { plural } from '@/domain/plural'
import { SYNC_LIMITS, type SyncColumn, type SyncFormat } from './formats'

/** The file cannot be imported at all (its size, encoding or header): no line-by-line report makes sense. */
export class SyncFileError extends Error {}

const numberFr = new Intl.NumberFormat('fr-FR')
const megabytes = (bytes: number) => `${numberFr.format(Math.round(bytes / (1024 * 1024)))} Mo`
/** Values echoed in messages are cut short: a hostile or absurd cell must not flood the preview. */
const shown = (value: string) => (value.length > 60 ? `${value.slice(0, 57)}…` : value)

export const SYNC_MESSAGES = {
  emptyFile: 'Le fichier est vide.',
  noRows: 'Le fichier ne contient aucune ligne à importer.',
  tooBig: (bytes: number) => `Le fichier pèse ${megabytes(bytes)} : ${megabytes(SYNC_LIMITS.maxBytes)} au plus par import.`,
  tooManyRows: (rows: number) => `Le fichier contient ${numberFr.format(rows)} lignes : ${numberFr.format(SYNC_LIMITS.maxRows)} au plus par import.`,
  notUtf8: "Le fichier n'est pas encodé en UTF-8. Dans Excel, enregistrez-le au format « CSV UTF-8 (délimité par des virgules) ».",
  unknownColumns: (names: string[]) => `${plural(names.length, 'Colonne inconnue', 'Colonnes inconnues')} : ${names.map((name) => `« ${shown(name)} »`).join(', ')}.`,
  missingColumns: (names: string[]) => `${plural(names.length, 'Colonne obligatoire absente', 'Colonnes obligatoires absentes')} : ${names.join(', ')}.`,
  duplicateColumns: (names: string[]) => `${plural(names.length, 'Colonne en double', 'Colonnes en double')} : ${names.join(', ')}.`,
  expectedColumns: (format: Pick<SyncFormat, 'columns'>) => `Colonnes attendues : ${format.columns.map((column) => column.header).join(', ')} (séparées par « ; » ou « , »).`,
  unclosedQuote: 'guillemets non refermés',
  outsideColumns: (position: number) => `valeur hors des colonnes prévues (colonne ${position})`,
  controlCharacters: (header: string) => `caractères de contrôle interdits dans « ${header} »`,
  formula: (header: string) => `formule interdite dans « ${header} » : une cellule ne peut pas commencer par =, +, - ou @`,
  tooLong: (header: string, max: number) => `« ${header} » trop long (${numberFr.format(max)} caractères au plus)`,
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
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '')
  } catch {
    throw new SyncFileError(SYNC_MESSAGES.notUtf8)
  }
}

/** Header names compared without case, accents or punctuation: « E-mail », « email » and « EMAIL » are one column. */
const normalizeHeader = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()

function readHeader(format: Pick<SyncFormat, 'columns'>, cells: string[]): (SyncColumn | null)[] {
  const byHeader = new Map(format.columns.flatMap((column) => [column.header, ...column.aliases].map((name) => [normalizeHeader(name), column] as const)))
  const columns = cells.map((cell) => (cell.trim() ? (byHeader.get(normalizeHeader(cell)) ?? null) : null))
  const unknown = cells.filter((cell, index) => cell.trim() && !columns[index]).map((cell) => cell.trim())
  const present = columns.filter((column): column is SyncColumn => column !== null)
  const duplicated = format.columns.filter((column) => present.filter((other) => other === column).length > 1)
  const missing = format.columns.filter((column) => column.required && !present.includes(column))
  const problems = [
    unknown.length ? SYNC_MESSAGES.unknownColumns(unknown) : null,
    missing.length ? SYNC_MESSAGES.missingColumns(missing.map((column) => column.header)) : null,
    duplicated.length ? SYNC_MESSAGES.duplicateColumns(duplicated.map((column) => column.header)) : null,
  ].filter((problem): problem is string => problem !== null)
  if (problems.length) throw new SyncFileError(`${problems.join(' ')} ${SYNC_MESSAGES.expectedColumns(format)}`)
  return columns
}

// Control characters (line breaks inside a cell included) and the bidirectional overrides that make a cell display
// something else than it holds; and what a spreadsheet would start reading as a formula.
const CONTROL_CHARACTERS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u
const FORMULA_START = /^[=+\-@]/

function cellProblem(raw: string, column: SyncColumn): string | null {
  if (CONTROL_CHARACTERS.test(raw)) return SYNC_MESSAGES.controlCharacters(column.header)
  const value = raw.trim()
  if (FORMULA_START.test(value)) return SYNC_MESSAGES.formula(column.header)
  if (value.length > column.maxLength) return SYNC_MESSAGES.tooLong(column.header, column.maxLength)
  return null
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
      const problem = cellProblem(raw, column)
      if (problem) errors.push(problem)
      else if (raw.trim()) row[column.field] = raw.trim()
    })
    if (errors.length) problems.push({ line: record.line, errors })
    else rows.push(row)
  }
  return { rows, problems, total: lines.length }
}
