/**
 * The CSV format of the rights import (docs/database.md « Import CSV des droits »): its columns, its limits and the template
 * offered for download. No papaparse here, so the dialog can show the format without loading the parser.
 */
import { toCsv } from '@/lib/csv'

export type ImportField = 'email' | 'application' | 'role_name' | 'account_type' | 'granted_at' | 'last_used_at' | 'justification'

export interface ImportColumn {
  field: ImportField
  /** The header the template writes. */
  header: string
  required: boolean
  /** Other headers read as this column, compared without case, accents or punctuation. */
  aliases: readonly string[]
  maxLength: number
}

export const IMPORT_COLUMNS: readonly ImportColumn[] = [
  { field: 'email', header: 'E-mail', required: true, aliases: ['email', 'mail', 'courriel', 'adresse e-mail'], maxLength: 254 },
  { field: 'application', header: 'Application', required: true, aliases: [], maxLength: 200 },
  { field: 'role_name', header: 'Rôle', required: true, aliases: ['rôle / profil', 'profil'], maxLength: 200 },
  { field: 'account_type', header: 'Type de compte', required: false, aliases: [], maxLength: 50 },
  { field: 'granted_at', header: "Date d'attribution", required: false, aliases: [], maxLength: 30 },
  { field: 'last_used_at', header: 'Dernière utilisation', required: false, aliases: ['date de dernière utilisation'], maxLength: 30 },
  { field: 'justification', header: 'Justification', required: false, aliases: ['justification métier'], maxLength: 2000 },
]

export const IMPORT_LIMITS = {
  /** Far below what the import function accepts (50 000 lines): one request, one transaction, a readable preview. */
  maxRows: 10_000,
  maxBytes: 5 * 1024 * 1024,
} as const

export const TEMPLATE_FILE_NAME = 'modele-import-droits.csv'

const TEMPLATE_EXAMPLE = ['prenom.nom@example.com', 'SAP Finance', 'Comptable', 'Standard', '15/03/2024', '01/10/2026', 'Clôture mensuelle']

/** The header and one example line, for French Excel: ';', UTF-8 with BOM. */
export function importTemplate(): string {
  return toCsv(
    IMPORT_COLUMNS.map((column) => column.header),
    [TEMPLATE_EXAMPLE],
  )
}
