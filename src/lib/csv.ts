/**
 * CSV for French Excel (ARCHITECTURE §6): ';' between cells, CRLF between rows, UTF-8 with a BOM so that accents
 * survive, and no cell that a spreadsheet would run as a formula.
 */

export type CsvCell = string | number | boolean | null | undefined

export const CSV_SEPARATOR = ';'
export const CSV_BOM = '\uFEFF'
export const CSV_NEWLINE = '\r\n'

// A cell starting with one of these is read as a formula (or its start) by Excel, LibreOffice or Sheets.
const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r']

/** The text of one cell: formula triggers defused with a leading quote, then quoted when it must be. */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return ''
  let text = String(value)
  if (text !== '' && FORMULA_TRIGGERS.includes(text[0] as string)) text = `'${text}`
  if (/[";\r\n]/.test(text) || text.startsWith(' ') || text.endsWith(' ')) text = `"${text.replace(/"/g, '""')}"`
  return text
}

/** The whole file, BOM first; every row, the header included, ends with CRLF. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const lines = [header, ...rows].map((row) => row.map(csvCell).join(CSV_SEPARATOR))
  return CSV_BOM + lines.map((line) => line + CSV_NEWLINE).join('')
}

/** Several tables in one file, each after its title line, separated by an empty line. */
export function toCsvSections(sections: readonly { title: string; header: readonly string[]; rows: readonly (readonly CsvCell[])[] }[]): string {
  const parts = sections.map(({ title, header, rows }) =>
    [[title], header, ...rows].map((row) => row.map(csvCell).join(CSV_SEPARATOR) + CSV_NEWLINE).join(''),
  )
  return CSV_BOM + parts.join(CSV_NEWLINE)
}

/** Hands the text to the browser as a file download. */
export function downloadCsv(fileName: string, content: string): void {
  // The BOM is already in the text; a Blob keeps it as the first three bytes.
  const blob = new Blob([content], { type: 'text/csv;charset=utf-8' })
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.style.display = 'none'
  document.body.appendChild(link)
  link.click()
  link.remove()
  // Revoked later: some browsers start reading the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
