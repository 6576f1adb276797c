/**
 * Compresses parts of a workbook for another worker (see compressor-worker.ts): the export worker makes the rows and
 * their XML while this one deflates them, on another core when there is one. CompressionStream deflates in the
 * thread that feeds it, so in the export worker it took that thread's time from the rows.
 */
import { nativeCompressor, type PartCompressor } from './xlsx-writer/compressor'
import type { CompressorReply, CompressorRequest } from './compressor-worker'

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<CompressorRequest>) => void) | null
  postMessage(message: CompressorReply, transfer?: Transferable[]): void
}

const parts = new Map<number, PartCompressor>()

scope.onmessage = ({ data }) => {
  let part = parts.get(data.part)
  if (!part) {
    part = nativeCompressor()
    parts.set(data.part, part)
  }
  if ('bytes' in data) {
    part.push(data.bytes)
    return
  }
  parts.delete(data.part)
  part.finish().then(
    (gzip) => scope.postMessage({ part: data.part, gzip }, [gzip.buffer]),
    (error: unknown) => scope.postMessage({ part: data.part, error: error instanceof Error ? error.message : String(error) }),
  )
}
