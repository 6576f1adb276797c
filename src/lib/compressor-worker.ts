/**
 * Workbook parts compressed in a worker of their own (compress.worker.ts), for a thread that is busy making rows:
 * each part's bytes are transferred to it as they are made, and its gzip member comes back once the part is finished.
 * Where a worker cannot be started, the parts are compressed in this thread.
 */
import { nativeCompressor, type PartCompressor } from './xlsx-writer/compressor'

export type CompressorRequest = { part: number; bytes: Uint8Array } | { part: number; end: true }
export type CompressorReply = { part: number; gzip: Uint8Array } | { part: number; error: string }

export interface Compressors {
  /** A compressor for one more part. */
  part(): PartCompressor
  dispose(): void
}

export function startCompressors(): Compressors {
  if (typeof Worker === 'undefined' || typeof CompressionStream === 'undefined') {
    return { part: nativeCompressor, dispose() {} }
  }
  const worker = new Worker(new URL('./compress.worker.ts', import.meta.url), { type: 'module' })
  const waiting = new Map<number, { resolve(gzip: Uint8Array): void; reject(error: Error): void }>()
  let failure: Error | undefined
  const failAll = (error: Error) => {
    failure = error
    for (const pending of waiting.values()) pending.reject(error)
    waiting.clear()
  }
  worker.onmessage = ({ data }: MessageEvent<CompressorReply>) => {
    const pending = waiting.get(data.part)
    waiting.delete(data.part)
    if ('gzip' in data) pending?.resolve(data.gzip)
    else pending?.reject(new Error(data.error))
  }
  worker.onerror = () => failAll(new Error('La compression du fichier a échoué.'))
  let parts = 0
  return {
    part() {
      const part = parts
      parts += 1
      return {
        push(bytes) {
          worker.postMessage({ part, bytes } satisfies CompressorRequest, [bytes.buffer])
        },
        finish() {
          if (failure) return Promise.reject(failure)
          return new Promise<Uint8Array>((resolve, reject) => {
            waiting.set(part, { resolve, reject })
            worker.postMessage({ part, end: true } satisfies CompressorRequest)
          })
        },
      }
    },
    dispose: () => worker.terminate(),
  }
}
