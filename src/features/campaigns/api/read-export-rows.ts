import { throwApiError } from '@/lib/api-error'
import { readSliceInPages, uuidSlices, type UuidSlice } from '@/lib/keyset'
import { getSupabase, type AppSupabaseClient } from '@/lib/supabase'
import type { StageFile } from '@/domain/stage-files'
import { exportRow, type ExportRow, type ExportRowData } from '../model'

/** Keyset reads of one export run side by side, each over its own slice of the right ids. */
export const EXPORT_STREAMS = 4
/** Rows of an export file a page: a hundred thousand rows are about twenty requests rather than a hundred. */
const EXPORT_ROWS_PAGE_SIZE = 5000

/** An export file read as it arrives: each page of rows is handed over, in its slice, then dropped. */
export interface ExportReader {
  client?: AppSupabaseClient
  /** A page of rows of slice `slice` (slices are in right id order, and so are the pages within a slice). */
  onRows(page: ExportRow[], slice: number): void
  onProgress?: (fetched: number) => void
}

/**
 * Every row of one export file, keyset-paged on right_id so that nothing is cut; the id space is read as four slices
 * at once, each asking for its next page before handing over the current one, so that the server works while the
 * rows are made into cells.
 */
export async function readExportRows(
  campaignId: string,
  file: StageFile,
  { client = getSupabase(), onRows, onProgress }: ExportReader,
): Promise<void> {
  let fetched = 0
  const readPage = async (afterId: string | null): Promise<ExportRow[]> => {
    const { data, error } = await client.rpc('campaign_export_rows', {
      p_campaign_id: campaignId,
      p_file: file,
      p_limit: EXPORT_ROWS_PAGE_SIZE,
      ...(afterId ? { p_after_id: afterId } : {}),
    })
    if (error) throwApiError(error)
    return ((data ?? []) as unknown as ExportRowData[]).map(exportRow)
  }
  const readSlice = (slice: UuidSlice, index: number) =>
    readSliceInPages(slice, EXPORT_ROWS_PAGE_SIZE, readPage, (row) => row.right_id, (rows) => {
      onRows(rows, index)
      fetched += rows.length
      onProgress?.(fetched)
    })
  await Promise.all(uuidSlices(EXPORT_STREAMS).map(readSlice))
}

/** Every row of one export file at once, in right_id order. */
export async function fetchExportRows(campaignId: string, file: StageFile, onProgress?: (fetched: number) => void): Promise<ExportRow[]> {
  const slices: ExportRow[][] = uuidSlices(EXPORT_STREAMS).map(() => [])
  await readExportRows(campaignId, file, { onRows: (page, slice) => slices[slice]!.push(...page), onProgress })
  return slices.flat()
}
