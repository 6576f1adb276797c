/**
 * Builds an export file off the page's thread: a hundred thousand rows take seconds, and the page stays responsive.
 * An evidence pack it also reads itself, through the API as the signed-in user (see excel-build.ts).
 */
import { ApiError } from '@/lib/api-error'
import { clientFor, EVIDENCE_STREAMS, readEvidencePack, type ApiAccess } from './api'
import { EvidenceSheets, requestBytes, workbookBytes } from './excel'
import type { ExportBuildReply, WorkerRequest } from './excel-build'

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null
  postMessage(message: ExportBuildReply, transfer?: Transferable[]): void
}

/** A closed campaign's pack read with the user's token, each page of items made into rows as soon as it arrives. */
async function evidenceBytes(campaignId: string, access: ApiAccess): Promise<Uint8Array> {
  const sheets = new EvidenceSheets(EVIDENCE_STREAMS)
  const { summary, events, signoffs } = await readEvidencePack(campaignId, {
    client: clientFor(access),
    onItems: (page, slice) => sheets.add(page, slice),
    onProgress: (fetched) => scope.postMessage({ progress: fetched }),
  })
  return workbookBytes(sheets.workbook(summary, events, signoffs))
}

scope.onmessage = ({ data }) => {
  const bytes = 'evidence' in data ? evidenceBytes(data.evidence.campaignId, data.evidence.access) : Promise.resolve().then(() => requestBytes(data))
  bytes.then(
    (result) => scope.postMessage({ ok: true, bytes: result }, [result.buffer]),
    // The API's refusals are French and meant for the user; anything else gets the generic message.
    (error: unknown) => scope.postMessage(error instanceof ApiError ? { ok: false, message: error.message } : { ok: false }),
  )
}
