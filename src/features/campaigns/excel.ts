/** Builds an export workbook. Loaded only when an export starts (in the export worker, see excel-build.ts). */
import { appendSheet, bookNew, IndexedRows, SheetWriter, writeWorkbookAsync, type PartCompressor, type Row, type Sheet, type Workbook } from '@/lib/xlsx-writer'
import type { BuildRequest } from './excel-build'
import {
  DECISION_COLUMNS,
  EVIDENCE_SHEETS,
  JOURNAL_COLUMNS,
  journalRows,
  SIGNOFF_COLUMNS,
  signoffRows,
  synthesisRows,
  TREATMENT_COLUMNS,
  treatmentCount,
  treatmentRows,
  type EvidenceEvent,
  type EvidenceItem,
  type EvidencePack,
  type EvidenceSignoff,
  type EvidenceSummary,
  writeDecisionCells,
} from './evidence-model'
import { STAGE_FILE_SHEET, stageFileColumns, type StageFile } from '@/domain/stage-files'
import { buildExportRows, buildInstructionRows, exportColumnWidths, type ExportRow } from './model'

function sheet(rows: readonly Row[], widths: readonly number[], frozenRows = 0): Sheet {
  return { rows, '!cols': widths.map((wch) => ({ wch })), frozenRows }
}

/**
 * An export file as its rows arrive: each page becomes its cells at once, their texts indexed in the workbook's shared
 * strings while the next pages are on their way (kept per slice of the right ids, so that the sheet stays in right id
 * order whatever page comes first), then the workbook: the data sheet, its header row frozen, then the Instructions
 * sheet. Every cell is text, never a formula.
 */
export class ExportSheets {
  private readonly book = bookNew()
  private readonly rows: Int32Array[][]

  constructor(
    private readonly file: StageFile,
    slices = 1,
  ) {
    this.rows = Array.from({ length: slices }, () => [])
  }

  add(rows: readonly ExportRow[], slice = 0): void {
    const { strings } = this.book
    for (const cells of buildExportRows(this.file, rows)) {
      const indexes = new Int32Array(cells.length)
      for (let c = 0; c < cells.length; c += 1) indexes[c] = cells[c] ? strings.indexOf(cells[c]!) : -1
      this.rows[slice]!.push(indexes)
    }
  }

  /** Once, when every page has been added. */
  /** `deadline`: the campaign's end date, as its row gives it. */
  workbook(campaignName: string, deadline: string): Workbook {
    const workbook = this.book
    appendSheet(workbook, sheet([stageFileColumns(this.file), ...this.rows.flat()], exportColumnWidths(this.file), 1), STAGE_FILE_SHEET)
    appendSheet(workbook, sheet(buildInstructionRows(this.file, campaignName, deadline), [20, 90]), 'Instructions')
    return workbook
  }
}

/** The workbook of an export file whose rows are all at hand. */
export function buildWorkbook(file: StageFile, campaignName: string, rows: readonly ExportRow[], deadline: string): Workbook {
  const sheets = new ExportSheets(file)
  sheets.add(rows)
  return sheets.workbook(campaignName, deadline)
}

/**
 * The « Rapport de campagne » as its items arrive. The items come in slices of the right ids, each slice's pages in
 * order, several slices at once. Once the summary has told how many rows the Décisions and Traitements RA sheets will
 * have (begin), each page's rows go straight into those sheets, compressed as they come, in right id order: the
 * rows of a slice wait only while an earlier slice is still being read. The journal's pages are made into rows as
 * they come too (addEvents); the rest of the workbook (Synthèse, Signatures, and the Journal and shared strings' XML
 * where there is no compressor) is written at the end, with the header rows frozen.
 */
export class EvidenceSheets {
  private readonly book: Workbook
  private readonly decisions: IndexedRows[]
  private readonly treatments: IndexedRows[]
  private readonly read: boolean[]
  private readonly journal: Int32Array[] = []
  /** The journal's events made into rows so far. */
  private events = 0
  private sheets: { decisions: SheetWriter; treatments: SheetWriter } | undefined
  /** The first slice whose rows are not all in the sheets yet. */
  private next = 0

  private readonly compressor: (() => PartCompressor) | undefined

  /**
   * `compressor` gives each streamed sheet its own, for a thread that has rows to make (see compressor-worker.ts), and
   * the rest of the workbook too: the shared strings as they are added, the small sheets at the end.
   */
  constructor(slices = 1, { compressor }: { compressor?: () => PartCompressor } = {}) {
    this.book = bookNew({ compressor })
    this.decisions = Array.from({ length: slices }, () => new IndexedRows(this.book.strings))
    this.treatments = Array.from({ length: slices }, () => new IndexedRows(this.book.strings))
    this.read = Array.from({ length: slices }, () => false)
    this.compressor = compressor
  }

  private indexed(row: readonly string[]): Int32Array {
    const { strings } = this.book
    const indexes = new Int32Array(row.length)
    for (let c = 0; c < row.length; c += 1) indexes[c] = row[c] ? strings.indexOf(row[c]!) : -1
    return indexes
  }

  /** A page of the slice's items, in order; `last` when the slice has been read to its end. */
  add(items: readonly EvidenceItem[], slice = 0, last = false): void {
    const cells = new Array<string>(DECISION_COLUMNS.length)
    for (const item of items) this.decisions[slice]!.push(writeDecisionCells(item, cells))
    for (const row of treatmentRows(items)) this.treatments[slice]!.push(row)
    if (last) this.read[slice] = true
    this.flush()
  }

  /**
   * A page of the journal, in order: its rows are made and their texts indexed while the items are still being read,
   * rather than after the last one (24,000 events of a large campaign, a good half second).
   */
  addEvents(events: readonly EvidenceEvent[]): void {
    for (const row of journalRows(events)) this.journal.push(this.indexed(row))
    this.events += events.length
  }

  /** Once the summary is known: from then on the rows are written as they come. */
  begin(summary: EvidenceSummary): void {
    if (this.sheets) return
    const { strings } = this.book
    const layout = (columns: readonly string[], rows: number, width: number) => ({ rows: rows + 1, width: columns.length, frozenRows: 1, '!cols': columns.map(() => ({ wch: width })) })
    const options = () => ({ compressor: this.compressor?.() })
    this.sheets = {
      decisions: new SheetWriter(strings, layout(DECISION_COLUMNS, summary.items, 20), options()),
      treatments: new SheetWriter(strings, layout(TREATMENT_COLUMNS, treatmentCount(summary), 22), options()),
    }
    this.sheets.decisions.write([DECISION_COLUMNS])
    this.sheets.treatments.write([TREATMENT_COLUMNS])
    this.flush()
  }

  private flush(): void {
    const sheets = this.sheets
    if (!sheets) return
    while (this.next < this.read.length) {
      const slice = this.next
      sheets.decisions.writeIndexed(this.decisions[slice]!.take(), DECISION_COLUMNS.length)
      sheets.treatments.writeIndexed(this.treatments[slice]!.take(), TREATMENT_COLUMNS.length)
      if (!this.read[slice]) return
      this.next += 1
    }
  }

  /** Once, when every page has been added; `events` are the whole journal, of which those not added yet are added. */
  workbook(summary: EvidenceSummary, events: readonly EvidenceEvent[], signoffs: readonly EvidenceSignoff[]): Workbook {
    this.addEvents(events.slice(this.events))
    this.read.fill(true)
    this.begin(summary)
    this.flush()
    const [synthesis, signatures, decisions, treatments, journal] = EVIDENCE_SHEETS
    const workbook = this.book
    const written = this.sheets!
    appendSheet(workbook, sheet(synthesisRows(summary), [34, 70, 12, 12, 12]), synthesis)
    appendSheet(workbook, sheet([SIGNOFF_COLUMNS, ...signoffRows(signoffs)], [14, 40, 32, 14, 14, 20, 16], 1), signatures)
    appendSheet(workbook, { rows: [], written: written.decisions }, decisions)
    appendSheet(workbook, { rows: [], written: written.treatments }, treatments)
    appendSheet(workbook, sheet([JOURNAL_COLUMNS, ...this.journal], [8, 24, 24, 22, 16, 38, 16, 90], 1), journal)
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
  return workbookBytes(buildWorkbook(request.file, request.campaignName, request.rows, request.deadline))
}

/** The workbook as .xlsx bytes, compressed natively where the platform can. */
export function workbookBytes(workbook: Workbook): Promise<Uint8Array> {
  return writeWorkbookAsync(workbook)
}
