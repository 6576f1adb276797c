/** Builds an export workbook. Loaded, with xlsx, only when an export starts (in the export worker, see excel-build.ts). */
import * as XLSX from 'xlsx'
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

/** Every cell written as an explicit string (type 's'), never as a formula. */
function stringSheet(rows: string[][]): XLSX.WorkSheet {
  const sheet = XLSX.utils.aoa_to_sheet([])
  let maxColumn = 0
  rows.forEach((row, r) => {
    row.forEach((value, c) => {
      sheet[XLSX.utils.encode_cell({ r, c })] = { t: 's', v: value }
      maxColumn = Math.max(maxColumn, c)
    })
  })
  sheet['!ref'] = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: Math.max(rows.length - 1, 0), c: maxColumn } })
  return sheet
}

export function buildWorkbook(file: ExportFile, campaignName: string, rows: readonly ExportRow[], today = new Date()): XLSX.WorkBook {
  const data = stringSheet([exportColumns(file), ...buildExportRows(file, rows)])
  data['!cols'] = exportColumnWidths(file).map((wch) => ({ wch }))
  const instructions = stringSheet(buildInstructionRows(file, campaignName, today))
  instructions['!cols'] = [{ wch: 20 }, { wch: 90 }]
  const workbook = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(workbook, data, 'Droits')
  XLSX.utils.book_append_sheet(workbook, instructions, 'Instructions')
  return workbook
}

/** The « Rapport de campagne »: Synthèse, Décisions, Traitements RA and Journal, every cell a string. */
export function buildEvidenceWorkbook(pack: EvidencePack): XLSX.WorkBook {
  const [synthesis, decisions, treatments, journal] = EVIDENCE_SHEETS
  const sheets: [string, string[][], number[]][] = [
    [synthesis, synthesisRows(pack.summary), [34, 70, 12, 12, 12]],
    [decisions, [DECISION_COLUMNS, ...decisionRows(pack.items)], DECISION_COLUMNS.map(() => 20)],
    [treatments, [TREATMENT_COLUMNS, ...treatmentRows(pack.items)], TREATMENT_COLUMNS.map(() => 22)],
    [journal, [JOURNAL_COLUMNS, ...journalRows(pack.events)], [8, 24, 24, 22, 16, 38, 16, 90]],
  ]
  const workbook = XLSX.utils.book_new()
  for (const [name, rows, widths] of sheets) {
    const sheet = stringSheet(rows)
    sheet['!cols'] = widths.map((wch) => ({ wch }))
    XLSX.utils.book_append_sheet(workbook, sheet, name)
  }
  return workbook
}

/** The bytes of what the worker was asked for: one export file or an evidence pack. */
export function requestBytes(request: BuildRequest): Uint8Array {
  if ('pack' in request) return workbookBytes(buildEvidenceWorkbook(request.pack))
  return workbookBytes(buildWorkbook(request.file, request.campaignName, request.rows, new Date(request.today)))
}

const FROZEN_HEADER_VIEW =
  '<sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView>'

/**
 * The workbook as .xlsx bytes, with the header row of the first sheet frozen. The community xlsx build does not
 * write panes, so the sheet's view is set in the written package (through xlsx's own zip reader and writer).
 */
export function workbookBytes(workbook: XLSX.WorkBook): Uint8Array {
  const bytes = new Uint8Array(XLSX.write(workbook, { type: 'array', bookType: 'xlsx', compression: true }) as ArrayBuffer)
  const CFB = XLSX.CFB
  if (!CFB) return bytes
  const zip = CFB.read(bytes, { type: 'array' })
  const index = zip.FullPaths.findIndex((path: string) => path.endsWith('/xl/worksheets/sheet1.xml'))
  const entry = index >= 0 ? zip.FileIndex[index] : undefined
  if (!entry?.content) return bytes
  const xml = new TextDecoder().decode(entry.content as Uint8Array)
  const frozen = xml.replace(/<sheetView\b[^>]*?\/>/, FROZEN_HEADER_VIEW)
  if (frozen === xml) return bytes
  entry.content = new TextEncoder().encode(frozen) as unknown as typeof entry.content
  entry.size = (entry.content as Uint8Array).length
  return new Uint8Array(CFB.write(zip, { type: 'array', fileType: 'zip', compression: true }) as ArrayBuffer)
}
