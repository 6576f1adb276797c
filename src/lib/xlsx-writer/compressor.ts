/** How a part is compressed: its deflate level, and the compressors that make a gzip member of its bytes. */

export type DeflateLevel = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9

/**
 * Deflate level 1 by default: on 100,000 export rows the file is about a sixth larger than at fflate's default (6)
 * and is written about 15 % faster; speed is what the export's budget asks for (tests/bench/xlsx-writers.ts prints
 * both levels).
 */
export const DEFAULT_LEVEL: DeflateLevel = 1

/** A part's deflate data as one gzip member, and the size of what it compressed. */
export interface Compressed {
  gzip: Uint8Array
  size: number
}

/**
 * Compresses one part as a gzip member as its bytes are pushed: in this thread by the platform's CompressionStream
 * (nativeCompressor), or in another thread (see compressor-worker.ts), where the thread that makes the rows is busy.
 */
export interface PartCompressor {
  /** The next bytes; the compressor keeps them (their buffer may be transferred). */
  push(bytes: Uint8Array): void
  /** The gzip member, once every byte has been pushed. */
  finish(): Promise<Uint8Array>
}

/** CompressionStream in this thread: it compresses the queued bytes while the caller awaits something else. */
export function nativeCompressor(): PartCompressor {
  const stream = new CompressionStream('gzip')
  const output = new Response(stream.readable).arrayBuffer()
  // Its failure is the output's, which finish() hands on; this one would only go unhandled.
  output.catch(() => undefined)
  const writer = stream.writable.getWriter()
  return {
    push: (bytes) => {
      writer.write(bytes as BufferSource).catch(() => undefined)
    },
    finish: async () => {
      await writer.close()
      return new Uint8Array(await output)
    },
  }
}
