/** Reads an uploaded workbook off the page's thread: an untrusted file of tens of megabytes never freezes the page. */
import type { ReadReply } from '../../offline-model'
import { readOfflineBytes } from './read-offline-file'

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ArrayBuffer>) => void) | null
  postMessage(message: ReadReply): void
}

scope.onmessage = ({ data }) => scope.postMessage(readOfflineBytes(new Uint8Array(data)))
