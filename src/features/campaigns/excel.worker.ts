/** Builds an export file off the page's thread: a hundred thousand rows take seconds, and the page stays responsive. */
import { buildWorkbook, workbookBytes } from './excel'
import type { ExportBuildReply, ExportBuildRequest } from './excel-build'

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ExportBuildRequest>) => void) | null
  postMessage(message: ExportBuildReply, transfer?: Transferable[]): void
}

scope.onmessage = ({ data: { file, campaignName, rows, today } }) => {
  try {
    const bytes = workbookBytes(buildWorkbook(file, campaignName, rows, new Date(today)))
    scope.postMessage({ ok: true, bytes }, [bytes.buffer])
  } catch (error) {
    scope.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) })
  }
}
