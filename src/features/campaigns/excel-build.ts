import { currentApiAccess, type ApiAccess } from './api/api-access'
import { fetchEvidencePack } from './api/read-evidence-pack'
import { fetchExportRows } from './api/read-export-rows'
import type { EvidencePack } from './evidence-model'
import type { StageFile } from '@/domain/stage-files'
import type { ExportRow } from './model'

export interface ExportBuildRequest {
  file: StageFile
  campaignName: string
  rows: readonly ExportRow[]
  /** The campaign's end date, the Instructions sheet's deadline. */
  deadline: string
}

export interface EvidenceBuildRequest {
  pack: EvidencePack
}

export type BuildRequest = ExportBuildRequest | EvidenceBuildRequest

/** The worker reads a campaign's evidence pack itself, as the signed-in user, and writes it as the pages arrive. */
export interface EvidenceReadRequest {
  evidence: { campaignId: string; access: ApiAccess }
}

/** One export file: which rows, and what its Instructions sheet says. */
export interface ExportFileRequest {
  campaignId: string
  file: StageFile
  campaignName: string
  /** The campaign's end date, the Instructions sheet's deadline. */
  deadline: string
}

/** The worker reads an export file's rows itself, as the signed-in user, and makes them cells as the pages arrive. */
export interface ExportReadRequest {
  export: ExportFileRequest & { access: ApiAccess }
}

export type WorkerRequest = EvidenceReadRequest | ExportReadRequest

/** A failure carries the API's own French message when the API refused; any other is the generic one. */
export type ExportBuildReply = { ok: true; bytes: Uint8Array } | { ok: false; message?: string } | { progress: number }

const BUILD_FAILED = "Le fichier Excel n'a pas pu être construit."

export interface ExportBuilder {
  /** One export file, `onProgress` counting the rows read. */
  exportFile(request: ExportFileRequest, onProgress: (fetched: number) => void): Promise<Uint8Array>
  /** A closed campaign's « Rapport de campagne », `onProgress` counting the lines read. */
  evidence(campaignId: string, onProgress: (fetched: number) => void): Promise<Uint8Array>
  dispose(): void
}

/**
 * Builds .xlsx bytes in a Web Worker, started at once so that it loads the workbook writer while the rows are still
 * being fetched, and so that the page keeps answering while a large file is written. In place where there are no
 * workers.
 * The evidence pack and the export files are read by the worker itself, through the same API and as the same user:
 * 200,000 items copied from the page to the worker took seconds, and each page becomes rows there while the next ones
 * are read.
 */
export function startExportBuilder(): ExportBuilder {
  if (typeof Worker === 'undefined') {
    return {
      async exportFile({ campaignId, file, campaignName, deadline }, onProgress) {
        const [rows, excel] = await Promise.all([fetchExportRows(campaignId, file, onProgress), import('./excel')])
        return excel.requestBytes({ file, campaignName, rows, deadline })
      },
      async evidence(campaignId, onProgress) {
        const [pack, excel] = await Promise.all([fetchEvidencePack(campaignId, onProgress), import('./excel')])
        return excel.requestBytes({ pack })
      },
      dispose() {},
    }
  }
  const worker = new Worker(new URL('./excel.worker.ts', import.meta.url), { type: 'module' })
  const run = (request: WorkerRequest, onProgress?: (fetched: number) => void) =>
    new Promise<Uint8Array>((resolve, reject) => {
      worker.onmessage = ({ data }: MessageEvent<ExportBuildReply>) => {
        if ('progress' in data) onProgress?.(data.progress)
        else if (data.ok) resolve(data.bytes)
        else reject(new Error(data.message ?? BUILD_FAILED))
      }
      worker.onerror = () => reject(new Error(BUILD_FAILED))
      worker.postMessage(request)
    })
  return {
    exportFile: async (request, onProgress) => run({ export: { ...request, access: await currentApiAccess() } }, onProgress),
    evidence: async (campaignId, onProgress) => run({ evidence: { campaignId, access: await currentApiAccess() } }, onProgress),
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
