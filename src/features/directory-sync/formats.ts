/**
 * The two files of directory synchronisation (docs/database.md « Import de l'annuaire et des applications »): their columns,
 * limits and templates. No papaparse here, so the dialogs can describe the format without loading the parser.
 */
import { toCsv } from '@/lib/csv'

export type SyncKind = 'directory' | 'applications'

export interface SyncColumn {
  /** The key rpc('import_directory') or rpc('import_applications') reads. */
  field: string
  /** The header the template writes. */
  header: string
  required: boolean
  /** Other headers read as this column, compared without case, accents or punctuation. */
  aliases: readonly string[]
  maxLength: number
}

export interface SyncFormat {
  kind: SyncKind
  title: string
  columns: readonly SyncColumn[]
  templateFileName: string
  example: readonly string[]
  /** What one line is, for counts: « 12 personnes ». */
  singular: string
  several: string
}

export const SYNC_LIMITS = {
  /** The database's own limit (private.import_line_limit): a larger file is refused whole. */
  maxRows: 20_000,
  maxBytes: 10 * 1024 * 1024,
} as const

export const DIRECTORY_FORMAT: SyncFormat = {
  kind: 'directory',
  title: "Import de l'annuaire",
  columns: [
    { field: 'email', header: 'E-mail', required: true, aliases: ['email', 'mail', 'courriel', 'adresse e-mail'], maxLength: 254 },
    { field: 'first_name', header: 'Prénom', required: true, aliases: ['first name', 'firstname'], maxLength: 100 },
    { field: 'last_name', header: 'Nom', required: true, aliases: ['last name', 'lastname', 'nom de famille'], maxLength: 100 },
    { field: 'position', header: 'Poste', required: false, aliases: ['fonction', 'position', 'intitulé de poste'], maxLength: 200 },
    { field: 'department', header: 'Département', required: false, aliases: ['department', 'service', 'direction'], maxLength: 200 },
    { field: 'manager_email', header: 'E-mail du manager', required: false, aliases: ['manager', 'email manager', 'e-mail manager', 'responsable'], maxLength: 254 },
    { field: 'role', header: 'Rôle', required: false, aliases: ['role', 'profil'], maxLength: 50 },
  ],
  templateFileName: 'modele-import-annuaire.csv',
  example: ['prenom.nom@example.com', 'Prénom', 'Nom', 'Comptable', 'Finance', 'manager@example.com', 'Utilisateur'],
  singular: 'personne',
  several: 'personnes',
}

export const APPLICATIONS_FORMAT: SyncFormat = {
  kind: 'applications',
  title: 'Import des applications',
  columns: [
    { field: 'name', header: 'Nom', required: true, aliases: ['application', "nom de l'application"], maxLength: 200 },
    { field: 'description', header: 'Description', required: false, aliases: [], maxLength: 2000 },
    { field: 'ra_email', header: 'E-mail du RA', required: true, aliases: ['ra', "responsable d'application"], maxLength: 254 },
    { field: 'bpo_metier_email', header: 'E-mail du BPO Métier', required: true, aliases: ['bpo metier', 'bpo métier'], maxLength: 254 },
    { field: 'bpo_groupe_email', header: 'E-mail du BPO Groupe', required: false, aliases: ['bpo groupe'], maxLength: 254 },
    { field: 'rssi_email', header: 'E-mail du RSSI', required: false, aliases: ['rssi'], maxLength: 254 },
  ],
  templateFileName: 'modele-import-applications.csv',
  example: ['SAP Finance', 'ERP comptable et financier', 'ra@example.com', 'bpo@example.com', 'bpo.groupe@example.com', 'rssi@example.com'],
  singular: 'application',
  several: 'applications',
}

/** The header and one example line, for French Excel: ';', UTF-8 with BOM. */
export function syncTemplate(format: SyncFormat): string {
  return toCsv(
    format.columns.map((column) => column.header),
    [format.example],
  )
}
