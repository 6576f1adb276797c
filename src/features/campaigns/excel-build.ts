import type { EvidencePack } from './evidence-model'
import type { ExportFile, ExportRow } from './model'

export interface ExportBuildRequest {
  file: ExportFile
  campaignName: string
  rows: readonly ExportRow[]
  /** The export's date (deadline and file name), as a timestamp. */
  today: number
}

export interface EvidenceBuildRequest {
  pack: EvidencePack
}

export type BuildRequest = ExportBuildRequest | EvidenceBuildRequest

export type ExportBuildReply = { ok: true; bytes: Uint8Array } | { ok: false; message: string }

const BUILD_FAILED = "Le fichier Excel n'a pas pu être construit."

export interface ExportBuilder {
  build(request: BuildRequest): Promise<Uint8Array>
  dispose(): void
}

/**
 * Builds .xlsx bytes in a Web Worker, started at once so that it loads the workbook writer while the rows are still
 * being fetched, and so that the page keeps answering while a large file is written. In place where there are no
 * workers.
 */
export function startExportBuilder(): ExportBuilder {
  if (typeof Worker === 'undefined') {
    return {
      async build(request) {
        const excel = await import('./excel')
        return excel.requestBytes(request)
      },
      dispose() {},
    }
  }
  const worker = new Worker(new URL('./excel.worker.ts', import.meta.url), { type: 'module' })
  return {
    build: (request) =>
      new Promise<Uint8Array>((resolve, reject) => {
        worker.onmessage = ({ data }: MessageEvent<ExportBuildReply>) => (data.ok ? resolve(data.bytes) : reject(new Error(BUILD_FAILED)))
        worker.onerror = () => reject(new Error(BUILD_FAILED))
        worker.postMessage(request)
      }),
    dispose: () => worker.terminate(),
  }
}

/** Hands the file to the browser as a download. */
export function downloadFile(bytes: Uint8Array, fileName: string): void {
  const blob = new Blob([bytes as BlobPart], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
