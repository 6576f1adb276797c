import { useRef, useState } from 'react'
import { useApplyOfflineFile, useCheckOfflineFile } from '../../api'
import { previewLines, type ApplyResult, type OfflineFile, type PreviewLine } from '../../offline-model'
import { readFileInWorker } from './offline-file-reader'

export interface OfflineUpload {
  /** Reading the file, then checking its decisions with the database. */
  busy: boolean
  /** Why the file cannot be used, or why the check or the application failed. */
  error: string | null
  file: OfflineFile | null
  preview: PreviewLine[] | null
  /** Lines the database would apply, and those it refuses. */
  applicable: number
  refused: number
  applying: boolean
  /** How many decisions were applied, once they were. */
  appliedCount: number | null
  choose: (file: File | undefined) => Promise<void>
  apply: () => Promise<void>
  reset: () => void
}

/**
 * A filled-in stage file from choice to application: read in a worker, checked by the database without changing
 * anything (the preview), then applied all or nothing. A file chosen while another is still read wins.
 */
export function useOfflineUpload(read: (file: Blob) => Promise<OfflineFile> = readFileInWorker): OfflineUpload {
  const check = useCheckOfflineFile()
  const applier = useApplyOfflineFile()
  const [reading, setReading] = useState(false)
  const [readError, setReadError] = useState<string | null>(null)
  const [file, setFile] = useState<OfflineFile | null>(null)
  const [result, setResult] = useState<ApplyResult | null>(null)
  const latest = useRef(0)

  const reset = () => {
    latest.current += 1
    setReading(false)
    setReadError(null)
    setFile(null)
    setResult(null)
    check.reset()
    applier.reset()
  }

  const choose = async (chosen: File | undefined) => {
    reset()
    const attempt = latest.current
    if (!chosen) return
    setReading(true)
    try {
      const content = await read(chosen)
      if (attempt !== latest.current) return
      setFile(content)
      const checked = await check.mutateAsync(content)
      if (attempt === latest.current) setResult(checked)
    } catch (error) {
      if (attempt === latest.current) setReadError(error instanceof Error ? error.message : String(error))
    } finally {
      if (attempt === latest.current) setReading(false)
    }
  }

  const apply = async () => {
    if (!file) return
    try {
      // When something changed since the check, nothing is applied and the answer says which lines no longer apply.
      setResult(await applier.mutateAsync(file))
    } catch {
      // The mutation's error is shown.
    }
  }

  const preview = file && result ? previewLines(file, result) : null
  const refused = preview?.filter((line) => line.reason !== null).length ?? 0
  return {
    busy: reading,
    error: readError ?? applier.error?.message ?? null,
    file,
    preview,
    applicable: (preview?.length ?? 0) - refused,
    refused,
    applying: applier.isPending,
    appliedCount: result?.applied ? result.count : null,
    choose,
    apply,
    reset,
  }
}
