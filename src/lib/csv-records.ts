/** Reading an uploaded CSV file into its records, for the imports (loaded with them, on demand: papaparse is large). */
import Papa from 'papaparse'

/** One record of the file: its cells, the line it starts on, and whether a quote was left open. */
export interface CsvRecord {
  cells: string[]
  line: number
  unclosed: boolean
}

/** The file's text without its BOM and with \n line ends: what the parsers and line numbers rely on. */
export const normalizeCsvText = (text: string) => text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n')

/** ';' (French Excel) or ',', whichever the header line uses more. */
export function detectSeparator(text: string): ';' | ',' {
  const end = text.indexOf('\n')
  const header = end === -1 ? text : text.slice(0, end)
  return header.split(',').length > header.split(';').length ? ',' : ';'
}

/**
 * Every record of normalised text, empty ones included, each with the line it starts on, counted from the text itself
 * since a quoted cell may span lines.
 */
export function csvRecords(content: string): CsvRecord[] {
  const records: CsvRecord[] = []
  let line = 1
  let consumed = 0
  Papa.parse<string[]>(content, {
    delimiter: detectSeparator(content),
    newline: '\n',
    skipEmptyLines: false,
    step: (result) => {
      records.push({ cells: result.data, line, unclosed: result.errors.some((error) => error.type === 'Quotes') })
      const end = result.meta.cursor
      for (let index = consumed; index < end; index += 1) if (content.charCodeAt(index) === 10) line += 1
      consumed = end
    },
  })
  return records
}
