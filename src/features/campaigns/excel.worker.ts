/** Builds an export file off the page's thread: a hundred thousand rows take seconds, and the page stays responsive. */
import { requestBytes } from './excel'
import type { BuildRequest, ExportBuildReply } from './excel-build'

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<BuildRequest>) => void) | null
  postMessage(message: ExportBuildReply, transfer?: Transferable[]): void
}

scope.onmessage = ({ data }) => {
  try {
    const bytes = requestBytes(data)
    scope.postMessage({ ok: true, bytes }, [bytes.buffer])
  } catch (error) {
    scope.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) })
  }
}
