/**
 * What every CSV import checks the same way: the file's encoding, its header read against the expected columns (by
 * name, in any order, without case, accents or punctuation), and each cell refused when hostile or too long.
 */
import { plural } from '@/domain/plural'

/** A column an import reads: the header the template writes, the other names it goes by, and its rules. */
export interface CsvColumn {
  header: string
  /** Other headers read as this column, compared without case, accents or punctuation. */
  aliases: readonly string[]
  required: boolean
  maxLength: number
}

const numberFr = new Intl.NumberFormat('fr-FR')
/** Values echoed in messages are cut short: a hostile or absurd cell must not flood the preview. */
export const shown = (value: string) => (value.length > 60 ? `${value.slice(0, 57)}…` : value)
export const megabytes = (bytes: number) => `${numberFr.format(Math.round(bytes / (1024 * 1024)))} Mo`

/** The messages of the checks below, which each import's own messages include. */
export const CSV_FILE_MESSAGES = {
  emptyFile: 'Le fichier est vide.',
  noRows: 'Le fichier ne contient aucune ligne à importer.',
  notUtf8: "Le fichier n'est pas encodé en UTF-8. Dans Excel, enregistrez-le au format « CSV UTF-8 (délimité par des virgules) ».",
  unknownColumns: (names: string[]) => `${plural(names.length, 'Colonne inconnue', 'Colonnes inconnues')} : ${names.map((name) => `« ${shown(name)} »`).join(', ')}.`,
  missingColumns: (names: string[]) => `${plural(names.length, 'Colonne obligatoire absente', 'Colonnes obligatoires absentes')} : ${names.join(', ')}.`,
  duplicateColumns: (names: string[]) => `${plural(names.length, 'Colonne en double', 'Colonnes en double')} : ${names.join(', ')}.`,
  // The per-line reasons use the database's own wording, so the preview and the server's report read alike.
  unclosedQuote: 'guillemets non refermés',
  outsideColumns: (position: number) => `valeur hors des colonnes prévues (colonne ${position})`,
  controlCharacters: (header: string) => `caractères de contrôle interdits dans « ${header} »`,
  formula: (header: string) => `formule interdite dans « ${header} » : une cellule ne peut pas commencer par =, +, - ou @`,
  tooLong: (header: string, max: number) => `« ${header} » trop long (${numberFr.format(max)} caractères au plus)`,
} as const

/** « Colonnes attendues : … » after a header's problems. */
const expectedColumnsText = (columns: readonly CsvColumn[]) =>
  `Colonnes attendues : ${columns.map((column) => column.header).join(', ')} (séparées par « ; » ou « , »).`

/** UTF-8 with or without BOM; null for anything else (Excel's default Windows-1252 CSV above all), never mangled. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '')
  } catch {
    return null
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

/**
 * The column of each header cell (null for an empty one), or what is wrong with the header: unknown, missing required
 * or duplicated columns, followed by the columns expected.
 */
export function readCsvHeader<Column extends CsvColumn>(expected: readonly Column[], cells: string[]): { columns: (Column | null)[]; problem: string | null } {
  const byHeader = new Map(expected.flatMap((column) => [column.header, ...column.aliases].map((name) => [normalizeHeader(name), column] as const)))
  const columns = cells.map((cell) => (cell.trim() ? (byHeader.get(normalizeHeader(cell)) ?? null) : null))
  const unknown = cells.filter((cell, index) => cell.trim() && !columns[index]).map((cell) => cell.trim())
  const present = columns.filter((column): column is Column => column !== null)
  const duplicated = expected.filter((column) => present.filter((other) => other === column).length > 1)
  const missing = expected.filter((column) => column.required && !present.includes(column))
  const problems = [
    unknown.length ? CSV_FILE_MESSAGES.unknownColumns(unknown) : null,
    missing.length ? CSV_FILE_MESSAGES.missingColumns(missing.map((column) => column.header)) : null,
    duplicated.length ? CSV_FILE_MESSAGES.duplicateColumns(duplicated.map((column) => column.header)) : null,
  ].filter((problem): problem is string => problem !== null)
  return { columns, problem: problems.length ? `${problems.join(' ')} ${expectedColumnsText(expected)}` : null }
}

// Control characters (tabs and line breaks inside a cell included) and the bidirectional overrides that make a cell
// display something else than it holds.
const CONTROL_CHARACTERS = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u
// What Excel, LibreOffice or Sheets would start reading as a formula.
const FORMULA_START = /^[=+\-@]/

/** What is wrong with one cell, or null; a hostile value is refused whole and never kept, so nothing downstream sees it. */
export function csvCellProblem(raw: string, column: CsvColumn): string | null {
  if (CONTROL_CHARACTERS.test(raw)) return CSV_FILE_MESSAGES.controlCharacters(column.header)
  const value = raw.trim()
  if (FORMULA_START.test(value)) return CSV_FILE_MESSAGES.formula(column.header)
  if (value.length > column.maxLength) return CSV_FILE_MESSAGES.tooLong(column.header, column.maxLength)
  return null
}
