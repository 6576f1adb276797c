/**
 * Reads and checks a rights import file before anything is sent (ARCHITECTURE §3: all or nothing, every bad line
 * reported). Imported dynamically, with papaparse, only when a file is chosen. The database checks everything again:
 * this preview only spares the round trip and says more, earlier.
 */
import { CSV_FILE_MESSAGES, csvCellProblem, decodeUtf8, megabytes, readCsvHeader, shown } from '@/lib/csv-columns'
import { csvRecords, normalizeCsvText } from '@/lib/csv-records'
import { ACCOUNT_TYPES, ACCOUNT_TYPE_LABELS, type AccountType } from '@/domain/labels'
import { IMPORT_COLUMNS, IMPORT_LIMITS, type ImportColumn, type ImportField } from './template'

/** The file cannot be imported at all (its size, encoding or header); no line-by-line report makes sense. */
export class ImportFileError extends Error {}

const numberFr = new Intl.NumberFormat('fr-FR')

export const IMPORT_MESSAGES = {
  ...CSV_FILE_MESSAGES,
  tooBig: (bytes: number) => `Le fichier pèse ${megabytes(bytes)} : ${megabytes(IMPORT_LIMITS.maxBytes)} au plus par import. Découpez-le en plusieurs fichiers.`,
  tooManyRows: (rows: number) =>
    `Le fichier contient ${numberFr.format(rows)} lignes de droits : ${numberFr.format(IMPORT_LIMITS.maxRows)} au plus par import. Découpez-le en plusieurs fichiers.`,
  missingEmail: 'e-mail manquant',
  invalidEmail: (email: string) => `e-mail invalide : ${shown(email)}`,
  unknownUser: (email: string) => `utilisateur inconnu : ${shown(email)}`,
  missingApplication: 'application manquante',
  unknownApplication: (name: string) => `application inconnue : ${shown(name)}`,
  missingRole: 'rôle manquant',
  unknownAccountType: (value: string) => `type de compte inconnu : ${shown(value)}`,
  invalidGrantedAt: (value: string) => `date d'attribution invalide : ${shown(value)}`,
  futureGrantedAt: "date d'attribution dans le futur",
  invalidLastUsedAt: (value: string) => `date de dernière utilisation invalide : ${shown(value)}`,
  futureLastUsedAt: 'date de dernière utilisation dans le futur',
  duplicate: (line: number) => `doublon de la ligne ${line}`,
  applicationOutOfScope: (name: string) => `application hors du périmètre de la campagne : ${shown(name)}`,
  accountTypeOutOfScope: (value: string) => `type de compte hors du périmètre de la campagne : ${shown(value)}`,
} as const

// ─── File ───────────────────────────────────────────────────────────────────────────────────────────────────────

/** Refuses an empty or oversized file before it is even read. */
export function checkImportFileSize(bytes: number): void {
  if (bytes === 0) throw new ImportFileError(IMPORT_MESSAGES.emptyFile)
  if (bytes > IMPORT_LIMITS.maxBytes) throw new ImportFileError(IMPORT_MESSAGES.tooBig(bytes))
}

/** UTF-8 with or without BOM; anything else (Excel's default Windows-1252 CSV above all) is refused, not mangled. */
export function decodeImportFile(bytes: Uint8Array): string {
  checkImportFileSize(bytes.byteLength)
  const text = decodeUtf8(bytes)
  if (text === null) throw new ImportFileError(IMPORT_MESSAGES.notUtf8)
  return text
}

// ─── Parsing ────────────────────────────────────────────────────────────────────────────────────────────────────

export interface ImportRecord {
  /** The record's first line in the file, the header being line 1. */
  line: number
  cells: Partial<Record<ImportField, string>>
  /** Problems of the record's shape and of its cells, found while parsing. */
  errors: string[]
  /** Columns whose cell was refused (hostile, too long): already reported, not reported again as missing. */
  rejected: ImportField[]
}

/** Each header cell's column; throws ImportFileError when the header is not an import's. */
function readHeader(cells: string[]): (ImportColumn | null)[] {
  const { columns, problem } = readCsvHeader(IMPORT_COLUMNS, cells)
  if (problem) throw new ImportFileError(problem)
  return columns
}

/** The records of the file, every cell checked; throws ImportFileError when the file as a whole is unusable. */
export function parseImportCsv(text: string): ImportRecord[] {
  const content = normalizeCsvText(text)
  if (!content.trim()) throw new ImportFileError(IMPORT_MESSAGES.emptyFile)

  const rows = csvRecords(content)

  const [header, ...data] = rows
  const columns = readHeader(header?.cells ?? [])
  const records = data.filter((row) => row.cells.some((cell) => cell.trim() !== ''))
  if (records.length === 0) throw new ImportFileError(IMPORT_MESSAGES.noRows)
  if (records.length > IMPORT_LIMITS.maxRows) throw new ImportFileError(IMPORT_MESSAGES.tooManyRows(records.length))

  return records.map((row) => {
    const record: ImportRecord = { line: row.line, cells: {}, errors: row.unclosed ? [IMPORT_MESSAGES.unclosedQuote] : [], rejected: [] }
    row.cells.forEach((raw, index) => {
      const column = columns[index]
      if (!column) {
        if (raw.trim()) record.errors.push(IMPORT_MESSAGES.outsideColumns(index + 1))
        return
      }
      const problem = csvCellProblem(raw, column)
      if (problem) {
        record.errors.push(problem)
        record.rejected.push(column.field)
      } else record.cells[column.field] = raw.trim()
    })
    return record
  })
}

// ─── Values ─────────────────────────────────────────────────────────────────────────────────────────────────────

const foldCase = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()

// The codes, the app's French labels and the spellings the database's import reads (private.parse_account_type).
const ACCOUNT_TYPE_BY_NAME = new Map<string, AccountType>([
  ...ACCOUNT_TYPES.flatMap((type) => [[foldCase(type), type] as const, [foldCase(ACCOUNT_TYPE_LABELS[type]), type] as const]),
  ...(
    [
      ['privilegie', 'privileged'],
      ['a privileges', 'privileged'],
      ['technique', 'technical'],
      ['partage', 'shared'],
      ['generique', 'shared'],
      ['urgence', 'emergency'],
      ['break glass', 'emergency'],
      ['externe', 'external'],
    ] as const
  ).map(([name, type]) => [foldCase(name), type] as const),
])

export function parseAccountType(value: string): AccountType | null {
  return ACCOUNT_TYPE_BY_NAME.get(foldCase(value)) ?? null
}

/** 15/03/2024, 5/3/2024 or 2024-03-15 to '2024-03-15'; null for anything else or a day that does not exist. */
export function parseImportDate(value: string): string | null {
  const french = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value)
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  const [year, month, day] = french ? [french[3], french[2], french[1]].map(Number) : iso ? [iso[1], iso[2], iso[3]].map(Number) : []
  if (year === undefined || month === undefined || day === undefined || year < 1900) return null
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return date.toISOString().slice(0, 10)
}

const localIsoDate = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const NEVER = 'jamais'

// ─── Validation ─────────────────────────────────────────────────────────────────────────────────────────────────

/** What the admin can read: the directory's e-mails and the applications, to name unknown ones before sending. */
export interface ImportReference {
  emails: readonly string[]
  applications: readonly { id: string; name: string }[]
}

/** The campaign the rights go into, when there is one: its scope (blank = all) bounds the lines. */
export interface ImportTarget {
  applicationId: string | null
  accountType: AccountType | null
}

/** One line as rpc('import_user_rights') takes it. */
export interface ImportRow {
  line: number
  email: string
  application: string
  role_name: string
  account_type: AccountType
  granted_at: string | null
  last_used_at: string | null
  justification: string | null
}

export interface LineReport {
  line: number
  errors: string[]
}

export interface ImportAnalysis {
  rows: ImportRow[]
  problems: LineReport[]
}

export function validateImport(
  records: readonly ImportRecord[],
  reference: ImportReference,
  target: ImportTarget | null,
  today: Date = new Date(),
): ImportAnalysis {
  const emails = new Set(reference.emails.map((email) => email.toLowerCase()))
  const applications = new Map(reference.applications.map((application) => [application.name.toLowerCase(), application]))
  const todayIso = localIsoDate(today)
  const firstLineOf = new Map<string, number>()
  const rows: ImportRow[] = []
  const problems: LineReport[] = []

  for (const record of records) {
    const errors = [...record.errors]
    const { email = '', application = '', role_name = '', account_type = '', granted_at = '', last_used_at = '', justification = '' } = record.cells
    const hostile = (field: ImportField) => record.rejected.includes(field)

    if (!email) {
      if (!hostile('email')) errors.push(IMPORT_MESSAGES.missingEmail)
    } else if (!EMAIL.test(email)) errors.push(IMPORT_MESSAGES.invalidEmail(email))
    else if (!emails.has(email.toLowerCase())) errors.push(IMPORT_MESSAGES.unknownUser(email))

    const known = application ? applications.get(application.toLowerCase()) : undefined
    if (!application) {
      if (!hostile('application')) errors.push(IMPORT_MESSAGES.missingApplication)
    } else if (!known) errors.push(IMPORT_MESSAGES.unknownApplication(application))

    if (!role_name && !hostile('role_name')) errors.push(IMPORT_MESSAGES.missingRole)

    const accountType = account_type ? parseAccountType(account_type) : 'standard'
    if (!accountType) errors.push(IMPORT_MESSAGES.unknownAccountType(account_type))

    const granted = granted_at ? parseImportDate(granted_at) : null
    if (granted_at && !granted) errors.push(IMPORT_MESSAGES.invalidGrantedAt(granted_at))
    else if (granted && granted > todayIso) errors.push(IMPORT_MESSAGES.futureGrantedAt)

    const never = last_used_at.toLowerCase() === NEVER
    const lastUsed = last_used_at && !never ? parseImportDate(last_used_at) : null
    if (last_used_at && !never && !lastUsed) errors.push(IMPORT_MESSAGES.invalidLastUsedAt(last_used_at))
    else if (lastUsed && lastUsed > todayIso) errors.push(IMPORT_MESSAGES.futureLastUsedAt)

    if (email && application && role_name) {
      const key = [email.toLowerCase(), application.toLowerCase(), role_name.toLowerCase()].join('\u0000')
      const first = firstLineOf.get(key)
      if (first === undefined) firstLineOf.set(key, record.line)
      else errors.push(IMPORT_MESSAGES.duplicate(first))
    }

    if (target?.applicationId && known && known.id !== target.applicationId) errors.push(IMPORT_MESSAGES.applicationOutOfScope(known.name))
    if (target?.accountType && accountType && accountType !== target.accountType) {
      errors.push(IMPORT_MESSAGES.accountTypeOutOfScope(account_type || ACCOUNT_TYPE_LABELS[accountType]))
    }

    if (errors.length > 0 || !accountType) {
      problems.push({ line: record.line, errors })
      continue
    }
    rows.push({
      line: record.line,
      email,
      application: known?.name ?? application,
      role_name,
      account_type: accountType,
      granted_at: granted,
      last_used_at: lastUsed,
      justification: justification || null,
    })
  }
  return { rows, problems }
}
