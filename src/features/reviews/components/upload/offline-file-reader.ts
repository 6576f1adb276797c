import { UNREADABLE_FILE, type OfflineFile, type ReadReply } from '../../offline-model'

/**
 * Reads the file in a Web Worker, started for this file and ended with it, so that a hostile file costs the page
 * nothing; in place where there are no workers (component tests in jsdom), loaded only then.
 */
export async function readFileInWorker(file: Blob): Promise<OfflineFile> {
  const buffer = await file.arrayBuffer()
  let reply: ReadReply
  if (typeof Worker === 'undefined') {
    const { readOfflineBytes } = await import('./read-offline-file')
    reply = readOfflineBytes(new Uint8Array(buffer))
  } else {
    const worker = new Worker(new URL('./offline-file.worker.ts', import.meta.url), { type: 'module' })
    try {
      reply = await new Promise<ReadReply>((resolve) => {
        worker.onmessage = ({ data }: MessageEvent<ReadReply>) => resolve(data)
        worker.onerror = () => resolve({ ok: false, message: UNREADABLE_FILE })
        worker.postMessage(buffer, [buffer])
      })
    } finally {
      worker.terminate()
    }
  }
  if (!reply.ok) throw new Error(reply.message)
  return reply.file
}
