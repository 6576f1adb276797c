import { toCsv } from '@/lib/csv'
import type { SyncColumn } from '../formats'

/** An application's complete list of accounts and roles, as rpc('import_rights_snapshot') reads each line. */
export const RIGHTS_SNAPSHOT_COLUMNS: readonly SyncColumn[] = [
  { field: 'email', header: 'E-mail', required: true, aliases: ['email', 'mail', 'courriel', 'compte'], maxLength: 254 },
  { field: 'role_name', header: 'Rôle', required: true, aliases: ['role', 'profil', 'habilitation', 'groupe'], maxLength: 200 },
  { field: 'account_type', header: 'Type de compte', required: false, aliases: ['type', 'account type'], maxLength: 50 },
]

export const RIGHTS_SNAPSHOT_TEMPLATE = 'modele-liste-des-droits.csv'

export const rightsSnapshotTemplate = () =>
  toCsv(
    RIGHTS_SNAPSHOT_COLUMNS.map((column) => column.header),
    [['prenom.nom@example.com', 'Comptable', 'Standard']],
  )

/** rpc('import_rights_snapshot')'s report. */
export interface SnapshotReport {
  success: boolean
  dry_run: boolean
  application: string
  lines: number
  created: number
  present: number
  absent: number
  verified: number
  unverified: number
  errors: { line: number; errors: string[] }[]
}

const count = (n: number, one: string, several: string) => `${new Intl.NumberFormat('fr-FR').format(n)} ${n > 1 ? several : one}`

/** What importing the list does (or did), in one sentence. */
export function snapshotSentence(report: SnapshotReport): string {
  const verb = report.dry_run ? 'Import prévu' : 'Import terminé'
  return (
    `${verb} pour « ${report.application} » : ${count(report.created, 'droit ajouté', 'droits ajoutés')}, ` +
    `${count(report.present, 'déjà connu', 'déjà connus')}, ${count(report.absent, 'droit absent de la liste', 'droits absents de la liste')} (conservés pour la revue) ; ` +
    `${count(report.verified, 'suppression constatée', 'suppressions constatées')}, ${count(report.unverified, 'suppression non constatée', 'suppressions non constatées')}.`
  )
}
