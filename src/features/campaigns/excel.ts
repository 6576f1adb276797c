/** Builds an export workbook. Loaded only when an export starts (in the export worker, see excel-build.ts). */
import { appendSheet, bookNew, writeWorkbook, type Sheet, type Workbook } from '@/lib/xlsx-writer'
import type { BuildRequest } from './excel-build'
import {
  DECISION_COLUMNS,
  decisionRows,
  EVIDENCE_SHEETS,
  JOURNAL_COLUMNS,
  journalRows,
  synthesisRows,
  TREATMENT_COLUMNS,
  treatmentRows,
  type EvidencePack,
} from './evidence-model'
import { buildExportRows, buildInstructionRows, exportColumns, exportColumnWidths, type ExportFile, type ExportRow } from './model'

function sheet(rows: readonly (readonly string[])[], widths: readonly number[], frozenRows = 0): Sheet {
  return { rows, '!cols': widths.map((wch) => ({ wch })), frozenRows }
}

/** The data sheet, its header row frozen, then the Instructions sheet. Every cell is text, never a formula. */
export function buildWorkbook(file: ExportFile, campaignName: string, rows: readonly ExportRow[], today = new Date()): Workbook {
  const workbook = bookNew()
  appendSheet(workbook, sheet([exportColumns(file), ...buildExportRows(file, rows)], exportColumnWidths(file), 1), 'Droits')
  appendSheet(workbook, sheet(buildInstructionRows(file, campaignName, today), [20, 90]), 'Instructions')
  return workbook
}

/** The « Rapport de campagne »: Synthèse, then Décisions, Traitements RA and Journal with their header rows frozen. */
export function buildEvidenceWorkbook(pack: EvidencePack): Workbook {
  const [synthesis, decisions, treatments, journal] = EVIDENCE_SHEETS
  const workbook = bookNew()
  appendSheet(workbook, sheet(synthesisRows(pack.summary), [34, 70, 12, 12, 12]), synthesis)
  appendSheet(workbook, sheet([DECISION_COLUMNS, ...decisionRows(pack.items)], DECISION_COLUMNS.map(() => 20), 1), decisions)
  appendSheet(workbook, sheet([TREATMENT_COLUMNS, ...treatmentRows(pack.items)], TREATMENT_COLUMNS.map(() => 22), 1), treatments)
  appendSheet(workbook, sheet([JOURNAL_COLUMNS, ...journalRows(pack.events)], [8, 24, 24, 22, 16, 38, 16, 90], 1), journal)
  return workbook
}

/** The bytes of what the worker was asked for: one export file or an evidence pack. */
export function requestBytes(request: BuildRequest): Uint8Array {
  if ('pack' in request) return workbookBytes(buildEvidenceWorkbook(request.pack))
  return workbookBytes(buildWorkbook(request.file, request.campaignName, request.rows, new Date(request.today)))
}

/** The workbook as .xlsx bytes. */
export function workbookBytes(workbook: Workbook): Uint8Array {
  return writeWorkbook(workbook)
}
