/** Builds an export workbook. Loaded only when an export starts (in the export worker, see excel-build.ts). */
import { appendSheet, bookNew, writeWorkbookAsync, type Row, type Sheet, type Workbook } from '@/lib/xlsx-writer'
import type { BuildRequest } from './excel-build'
import {
  DECISION_COLUMNS,
  decisionRows,
  EVIDENCE_SHEETS,
  JOURNAL_COLUMNS,
  journalRows,
  SIGNOFF_COLUMNS,
  signoffRows,
  synthesisRows,
  TREATMENT_COLUMNS,
  treatmentRows,
  type EvidenceEvent,
  type EvidenceItem,
  type EvidencePack,
  type EvidenceSignoff,
  type EvidenceSummary,
} from './evidence-model'
import { buildExportRows, buildInstructionRows, exportColumns, exportColumnWidths, type ExportFile, type ExportRow } from './model'

function sheet(rows: readonly Row[], widths: readonly number[], frozenRows = 0): Sheet {
  return { rows, '!cols': widths.map((wch) => ({ wch })), frozenRows }
}

/** The data sheet, its header row frozen, then the Instructions sheet. Every cell is text, never a formula. */
export function buildWorkbook(file: ExportFile, campaignName: string, rows: readonly ExportRow[], today = new Date()): Workbook {
  const workbook = bookNew()
  appendSheet(workbook, sheet([exportColumns(file), ...buildExportRows(file, rows)], exportColumnWidths(file), 1), 'Droits')
  appendSheet(workbook, sheet(buildInstructionRows(file, campaignName, today), [20, 90]), 'Instructions')
  return workbook
}

/**
 * The « Rapport de campagne » as its items arrive: each page becomes its Décisions and Traitements RA rows at once,
 * their texts indexed in the workbook's shared strings while the next pages are on their way (kept per slice of the
 * right ids, so that the sheets stay in right id order whatever page comes first), then the workbook: Synthèse, then
 * Décisions, Traitements RA and Journal with their header rows frozen.
 */
export class EvidenceSheets {
  private readonly book = bookNew()
  private readonly decisions: Int32Array[][]
  private readonly treatments: Int32Array[][]

  constructor(slices = 1) {
    this.decisions = Array.from({ length: slices }, () => [])
    this.treatments = Array.from({ length: slices }, () => [])
  }

  private indexed(row: readonly string[]): Int32Array {
    const { strings } = this.book
    const indexes = new Int32Array(row.length)
    for (let c = 0; c < row.length; c += 1) indexes[c] = row[c] ? strings.indexOf(row[c]!) : -1
    return indexes
  }

  add(items: readonly EvidenceItem[], slice = 0): void {
    for (const row of decisionRows(items)) this.decisions[slice]!.push(this.indexed(row))
    for (const row of treatmentRows(items)) this.treatments[slice]!.push(this.indexed(row))
  }

  /** Once, when every page has been added. */
  workbook(summary: EvidenceSummary, events: readonly EvidenceEvent[], signoffs: readonly EvidenceSignoff[]): Workbook {
    const [synthesis, signatures, decisions, treatments, journal] = EVIDENCE_SHEETS
    const workbook = this.book
    appendSheet(workbook, sheet(synthesisRows(summary), [34, 70, 12, 12, 12]), synthesis)
    appendSheet(workbook, sheet([SIGNOFF_COLUMNS, ...signoffRows(signoffs)], [14, 40, 32, 14, 14, 20, 16], 1), signatures)
    appendSheet(workbook, sheet([DECISION_COLUMNS, ...this.decisions.flat()], DECISION_COLUMNS.map(() => 20), 1), decisions)
    appendSheet(workbook, sheet([TREATMENT_COLUMNS, ...this.treatments.flat()], TREATMENT_COLUMNS.map(() => 22), 1), treatments)
    appendSheet(workbook, sheet([JOURNAL_COLUMNS, ...journalRows(events)], [8, 24, 24, 22, 16, 38, 16, 90], 1), journal)
    return workbook
  }
}

export function buildEvidenceWorkbook(pack: EvidencePack): Workbook {
  const sheets = new EvidenceSheets()
  sheets.add(pack.items)
  return sheets.workbook(pack.summary, pack.events, pack.signoffs)
}

/** The bytes of what the worker was asked for: one export file or an evidence pack. */
export function requestBytes(request: BuildRequest): Promise<Uint8Array> {
  if ('pack' in request) return workbookBytes(buildEvidenceWorkbook(request.pack))
  return workbookBytes(buildWorkbook(request.file, request.campaignName, request.rows, new Date(request.today)))
}

/** The workbook as .xlsx bytes, compressed natively where the platform can. */
export function workbookBytes(workbook: Workbook): Promise<Uint8Array> {
  return writeWorkbookAsync(workbook)
}
