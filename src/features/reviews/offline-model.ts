/**
 * Offline files sent back: what a filled-in stage file (SPEC §2's manager, BPO Métier and BPO Groupe
 * files, written by the campaigns feature) says, read from its « Droits » sheet by the headings of src/domain/stage-files.
 * Pure logic: no Supabase, no React.
 */
import { COMMENT_COLUMN, DECISION_COLUMN, STAGE_FILES, stageFileColumns, type StageFile } from '@/domain/stage-files'
import type { SheetRow } from '@/lib/xlsx-reader'

export type ReadDecision = 'approved' | 'refused'

/** apply_review_decisions applies at most this many decisions at a time (20261121001160_decisions.sql). */
export const MAX_FILE_DECISIONS = 2000

/** One line of the file with a decision written in it. */
export interface FileLine {
  /** The row's number in the spreadsheet. */
  line: number
  rightId: string
  holder: string
  application: string
  role: string
  /** What the cell says, as written. */
  decisionText: string
  /** null when the cell says neither « Validé » nor « Refusé ». */
  decision: ReadDecision | null
  comment: string
}

export interface OfflineFile {
  stage: StageFile
  lines: FileLine[]
  /** Rights of the file left without a decision: they are not sent. */
  undecided: number
}

export class OfflineFileError extends Error {
  override name = 'OfflineFileError'
}

const WRONG_COLUMNS =
  "Ce fichier n'a pas les colonnes d'un fichier de revue Recertif (Manager, BPO Métier ou BPO Groupe). " +
  'Renvoyez le fichier téléchargé, sans ajouter, retirer ni renommer de colonne.'

const simplified = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .trim()
    .toLowerCase()

/** « Validé » or « Refusé », whatever their case or accents; anything else is not a decision. */
export function readDecision(text: string): ReadDecision | null {
  const word = simplified(text)
  if (word === 'valide') return 'approved'
  if (word === 'refuse') return 'refused'
  return null
}

/** The stage whose file has exactly these header cells (trailing empty cells aside), or null. */
function stageOfHeader(header: readonly string[]): StageFile | null {
  const cells = header.map((cell) => cell.trim())
  while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop()
  for (const stage of STAGE_FILES) {
    const columns = stageFileColumns(stage)
    if (columns.length === cells.length && columns.every((column, index) => column === cells[index])) return stage
  }
  return null
}

/** The decisions a stage file's rows carry; throws an OfflineFileError saying, in French, why the file is not one. */
export function readOfflineFile(rows: readonly SheetRow[]): OfflineFile {
  const [header, ...data] = rows
  if (!header || header.number !== 1) throw new OfflineFileError(WRONG_COLUMNS)
  const stage = stageOfHeader(header.cells)
  if (!stage) throw new OfflineFileError(WRONG_COLUMNS)
  const columns = stageFileColumns(stage)
  const at = (row: SheetRow, column: string) => (row.cells[columns.indexOf(column)] ?? '').trim()

  const lines: FileLine[] = []
  let undecided = 0
  for (const row of data) {
    if (row.cells.every((cell) => cell.trim() === '')) continue
    const decisionText = at(row, DECISION_COLUMN[stage])
    if (decisionText === '') {
      undecided += 1
      continue
    }
    lines.push({
      line: row.number,
      rightId: at(row, 'ID du droit'),
      holder: at(row, 'Utilisateur'),
      application: at(row, 'Application'),
      role: at(row, 'Rôle / Profil'),
      decisionText,
      decision: readDecision(decisionText),
      comment: at(row, COMMENT_COLUMN[stage]),
    })
  }
  if (lines.length === 0 && undecided === 0) throw new OfflineFileError('Le fichier ne contient aucun droit.')
  if (lines.length === 0) {
    throw new OfflineFileError(`Aucune décision n'est saisie dans la colonne « ${DECISION_COLUMN[stage]} » : indiquez « Validé » ou « Refusé ».`)
  }
  if (lines.length > MAX_FILE_DECISIONS) {
    throw new OfflineFileError(
      `Le fichier contient ${lines.length.toLocaleString('fr-FR')} décisions : au plus ${MAX_FILE_DECISIONS.toLocaleString('fr-FR')} ` +
        'peuvent être appliquées à la fois. Répartissez-les sur plusieurs fichiers.',
    )
  }
  return { stage, lines, undecided }
}

/** What apply_review_decisions receives for one line. An unreadable decision is sent as written: the database says why. */
export function decisionPayload(file: OfflineFile) {
  return file.lines.map((line) => ({
    line: line.line,
    right_id: line.rightId,
    decision: line.decision ?? line.decisionText,
    comment: line.comment || null,
  }))
}

/** One line of apply_review_decisions' answer. */
export interface LineVerdict {
  line: number
  right_id: string
  ok: boolean
  reason: string | null
  holder_name: string | null
  application_name: string | null
  role_name: string | null
}

export interface ApplyResult {
  applied: boolean
  count: number
  lines: LineVerdict[]
}

/** A line of the preview: the right as the database knows it (the file's text when the caller cannot see it). */
export interface PreviewLine {
  line: number
  role: string
  holder: string
  application: string
  decision: ReadDecision | null
  decisionText: string
  reason: string | null
}

export function previewLines(file: OfflineFile, result: ApplyResult): PreviewLine[] {
  const verdicts = new Map(result.lines.map((verdict) => [verdict.line, verdict]))
  return file.lines.map((line) => {
    const verdict = verdicts.get(line.line)
    return {
      line: line.line,
      role: verdict?.role_name ?? line.role,
      holder: verdict?.holder_name ?? line.holder,
      application: verdict?.application_name ?? line.application,
      decision: line.decision,
      decisionText: line.decisionText,
      reason: verdict ? verdict.reason : 'Ligne non vérifiée.',
    }
  })
}

export const UNREADABLE_FILE = "Le fichier n'a pas pu être lu."

/** What reading a file gives: its decisions, or a French message saying why it cannot be used. */
export type ReadReply = { ok: true; file: OfflineFile } | { ok: false; message: string }
