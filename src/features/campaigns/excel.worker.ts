/**
 * Builds an export file or an evidence pack off the page's thread: a hundred thousand rows take seconds, and the page
 * stays responsive. It reads their rows itself, through the API as the signed-in user (see excel-build.ts).
 */
import { ApiError } from '@/lib/api-error'
import { startCompressors } from '@/lib/compressor-worker'
import { clientFor, type ApiAccess } from './api/api-access'
import { EVIDENCE_SLICES, readEvidencePack } from './api/read-evidence-pack'
import { EXPORT_STREAMS, readExportRows } from './api/read-export-rows'
import { EvidenceSheets, ExportSheets, workbookBytes } from './excel'
import type { ExportBuildReply, ExportReadRequest, WorkerRequest } from './excel-build'

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null
  postMessage(message: ExportBuildReply, transfer?: Transferable[]): void
}

/**
 * A closed campaign's pack read with the user's token, each page of items made into rows as soon as it arrives, and
 * written into its sheets once the summary has said how many there will be, their compression in a worker of its own.
 */
async function evidenceBytes(campaignId: string, access: ApiAccess): Promise<Uint8Array> {
  const compressors = startCompressors()
  try {
    const sheets = new EvidenceSheets(EVIDENCE_SLICES, { compressor: compressors.part })
    const { summary, events, signoffs } = await readEvidencePack(campaignId, {
      client: clientFor(access),
      onSummary: (summary) => sheets.begin(summary),
      onItems: (page, slice, last) => sheets.add(page, slice, last),
      onEvents: (page) => sheets.addEvents(page),
      onProgress: (fetched) => scope.postMessage({ progress: fetched }),
    })
    return await workbookBytes(sheets.workbook(summary, events, signoffs))
  } finally {
    compressors.dispose()
  }
}

/** An export file read with the user's token, each page of rows made into cells as soon as it arrives. */
async function exportBytes({ campaignId, file, campaignName, deadline, access }: ExportReadRequest['export']): Promise<Uint8Array> {
  const sheets = new ExportSheets(file, EXPORT_STREAMS)
  await readExportRows(campaignId, file, {
    client: clientFor(access),
    onRows: (page, slice) => sheets.add(page, slice),
    onProgress: (fetched) => scope.postMessage({ progress: fetched }),
  })
  return workbookBytes(sheets.workbook(campaignName, deadline))
}

scope.onmessage = ({ data }) => {
  const bytes = 'evidence' in data ? evidenceBytes(data.evidence.campaignId, data.evidence.access) : exportBytes(data.export)
  bytes.then(
    (result) => scope.postMessage({ ok: true, bytes: result }, [result.buffer]),
    // The API's refusals are French and meant for the user; anything else gets the generic message.
    (error: unknown) => scope.postMessage(error instanceof ApiError ? { ok: false, message: error.message } : { ok: false }),
  )
}
