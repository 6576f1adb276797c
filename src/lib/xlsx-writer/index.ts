/**
 * Writes .xlsx workbooks of text cells. A sheet's XML is made about a megabyte at a time and compressed as it goes, so a
 * hundred thousand rows never sit in memory as one document. Each part is compressed as a gzip member, whose trailer
 * carries the CRC-32 and size a zip entry needs: by the platform's native CompressionStream where there is one
 * (browsers, their workers and Node ≥ 18: zlib in native code), by fflate otherwise; the zip container around the
 * deflate data is written here.
 * Every cell is a string of the shared-string table (never a number, a date or a formula: what starts with `=`
 * stays text). Each distinct text is written once, so there is less XML to compress: names, applications and
 * decisions repeat down an export.
 * The workbook's shape mirrors SheetJS's (SheetNames, Sheets, `!cols`) so that callers and tests read alike.
 */
export { DEFAULT_LEVEL, nativeCompressor, type DeflateLevel, type PartCompressor } from './compressor'
export { SharedStrings } from './shared-strings'
export { IndexedRows, SheetWriter, type ColumnWidth, type Row, type Sheet } from './sheet'
export { appendSheet, bookNew, writeWorkbook, writeWorkbookAsync, type Workbook } from './workbook'
export { columnName, MAX_CELL_LENGTH, TRUNCATION_NOTE } from './xml'
