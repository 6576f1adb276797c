/**
 * SPEC §3's stage files: the Manager, BPO Métier and BPO Groupe workbooks a campaign sends out and a reviewer sends
 * back filled in. Campaigns writes them and reviews reads them, both by these headings.
 */

export type StageFile = 'manager' | 'bpo_metier' | 'bpo_groupe'
export const STAGE_FILES: readonly StageFile[] = ['manager', 'bpo_metier', 'bpo_groupe']

export const STAGE_FILE_LABELS: Record<StageFile, string> = {
  manager: 'Manager',
  bpo_metier: 'BPO Métier',
  bpo_groupe: 'BPO Groupe',
}

/** The sheet that holds the rights, one a row under the headings. */
export const STAGE_FILE_SHEET = 'Droits'

const BASE_COLUMNS = [
  'ID du droit',
  'Utilisateur',
  'E-mail',
  'Application',
  'Rôle / Profil',
  "Date d'attribution",
  'Dernière utilisation',
  'Justification métier',
  'Validation manager',
  'Commentaire manager',
  'Date de validation manager',
] as const
const BPO_METIER_COLUMNS = ['Validation BPO Métier', 'Commentaire BPO Métier', 'Date de validation BPO Métier'] as const
const BPO_GROUPE_COLUMNS = ['Validation BPO Groupe', 'Commentaire BPO Groupe', 'Date de validation BPO Groupe', 'Statut final'] as const

/** The headings of a file, in order: each stage adds its own after the earlier stages'. */
export function stageFileColumns(file: StageFile): string[] {
  if (file === 'manager') return [...BASE_COLUMNS]
  if (file === 'bpo_metier') return [...BASE_COLUMNS, ...BPO_METIER_COLUMNS]
  return [...BASE_COLUMNS, ...BPO_METIER_COLUMNS, ...BPO_GROUPE_COLUMNS]
}

/** The column in which each stage's reviewer writes their decision, and their comment. */
export const DECISION_COLUMN: Record<StageFile, string> = {
  manager: 'Validation manager',
  bpo_metier: 'Validation BPO Métier',
  bpo_groupe: 'Validation BPO Groupe',
}
export const COMMENT_COLUMN: Record<StageFile, string> = {
  manager: 'Commentaire manager',
  bpo_metier: 'Commentaire BPO Métier',
  bpo_groupe: 'Commentaire BPO Groupe',
}
