/** Reads a filled-in stage file: the bytes, through src/lib/xlsx-reader.ts, to the decisions they carry. */
import { readXlsxSheet, XlsxReadError } from '@/lib/xlsx-reader'
import { STAGE_FILE_SHEET } from '@/domain/stage-files'
import { OfflineFileError, readOfflineFile, UNREADABLE_FILE, type ReadReply } from '../../offline-model'

/** Never throws: a refusal is a French message that can be shown as it is. */
export function readOfflineBytes(bytes: Uint8Array): ReadReply {
  try {
    return { ok: true, file: readOfflineFile(readXlsxSheet(bytes, STAGE_FILE_SHEET)) }
  } catch (error) {
    if (error instanceof XlsxReadError || error instanceof OfflineFileError) return { ok: false, message: error.message }
    return { ok: false, message: UNREADABLE_FILE }
  }
}
