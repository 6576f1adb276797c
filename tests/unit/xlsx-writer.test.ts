// @vitest-environment jsdom
import { strFromU8, unzipSync } from 'fflate'
import { crc32 } from 'node:zlib'
import * as XLSX from 'xlsx'
import {
  appendSheet,
  bookNew,
  columnName,
  IndexedRows,
  MAX_CELL_LENGTH,
  nativeCompressor,
  SheetWriter,
  TRUNCATION_NOTE,
  writeWorkbook,
  writeWorkbookAsync,
  type Sheet,
} from '@/lib/xlsx-writer'

function bytesOf(...sheets: [string, Sheet][]): Uint8Array {
  const workbook = bookNew()
  for (const [name, sheet] of sheets) appendSheet(workbook, sheet, name)
  return writeWorkbook(workbook)
}

/** The workbook as xlsx 0.18.5 reads it, as the e2e tests and the users' spreadsheet programs do. */
function readBack(bytes: Uint8Array) {
  const workbook = XLSX.read(bytes, { type: 'array', cellFormula: true })
  const rows = (name: string) => XLSX.utils.sheet_to_json<string[]>(workbook.Sheets[name]!, { header: 1, defval: '' })
  return { workbook, rows }
}

function part(bytes: Uint8Array, path: string): string {
  const file = unzipSync(bytes)[path]
  if (!file) throw new Error(`${path} missing`)
  return strFromU8(file)
}

/** Every XML part of the package parses as XML 1.0: a character XML cannot hold would make Excel refuse the file. */
function expectWellFormed(bytes: Uint8Array) {
  const files = unzipSync(bytes)
  for (const [path, content] of Object.entries(files)) {
    const document = new DOMParser().parseFromString(strFromU8(content), 'application/xml')
    expect(document.getElementsByTagName('parsererror'), path).toHaveLength(0)
  }
}

/** Each entry's CRC-32 as the zip's central directory records it, which readers check against what they inflate. */
function centralDirectoryCrcs(bytes: Uint8Array): Record<string, number> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const end = bytes.length - 22
  const crcs: Record<string, number> = {}
  for (let entry = 0, at = view.getUint32(end + 16, true); entry < view.getUint16(end + 10, true); entry += 1) {
    const nameLength = view.getUint16(at + 28, true)
    crcs[strFromU8(bytes.subarray(at + 46, at + 46 + nameLength))] = view.getUint32(at + 16, true)
    at += 46 + nameLength
  }
  return crcs
}

const cell = (value: string) => readBack(bytesOf(['Feuille', { rows: [[value]] }])).rows('Feuille')[0]?.[0]

describe('cell text', () => {
  it.each([
    ['markup characters', `<b>Tom & "Jerry"</b> l'a dit > 2`],
    ['emoji and accents', 'Élodie 👩🏽‍💻 a validé ✅ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢'],
    ['spaces at both ends', '  entouré d’espaces  '],
    ['tabs and line breaks', 'ligne 1\nligne 2\r\nligne 3\tfin'],
    ['text that looks like an Office escape', 'code _x0041_ et _x005F_'],
  ])('keeps %s exactly', (_, value) => {
    expect(cell(value)).toBe(value)
  })

  it('writes characters XML cannot hold as Office escapes, so the file stays valid and the text comes back whole', () => {
    const controls = Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)).join('')
    const value = `début${controls}\ufffe\uffff\ud800 seul\udc00fin`
    const bytes = bytesOf(['Feuille', { rows: [[value]] }])
    expectWellFormed(bytes)
    expect(part(bytes, 'xl/sharedStrings.xml')).toContain('_x0000__x0001_')
    expect(readBack(bytes).rows('Feuille')[0]?.[0]).toBe(value)
  })

  it('keeps a cell of 32,767 characters and cuts a longer one there, saying so', () => {
    const longest = 'a'.repeat(MAX_CELL_LENGTH)
    expect(cell(longest)).toBe(longest)
    const cut = cell('b'.repeat(MAX_CELL_LENGTH + 100))
    expect(cut).toHaveLength(MAX_CELL_LENGTH)
    expect(cut?.endsWith(TRUNCATION_NOTE)).toBe(true)
  })

  it('never cuts an emoji in half', () => {
    const end = MAX_CELL_LENGTH - TRUNCATION_NOTE.length
    const cut = cell(`${'c'.repeat(end - 1)}😀${'d'.repeat(50)}`)
    expect(cut).toBe(`${'c'.repeat(end - 1)}${TRUNCATION_NOTE}`)
  })

  it('stores formula-looking text as text, never as a formula', () => {
    const hostile = ['=HYPERLINK("http://evil","x")', '+33 1 23', '-2+3', '@SUM(A1)', '=1+1', '0042', '1e5', 'TRUE']
    const { workbook } = readBack(bytesOf(['Feuille', { rows: [hostile] }]))
    const sheet = workbook.Sheets['Feuille']!
    hostile.forEach((value, c) => {
      const read = sheet[XLSX.utils.encode_cell({ r: 0, c })]
      expect(read.t).toBe('s')
      expect(read.f).toBeUndefined()
      expect(read.v).toBe(value)
    })
  })
})

describe('sheets', () => {
  it('stores each distinct text once, however many cells hold it', () => {
    const rows = Array.from({ length: 50 }, (_, r) => ['Validé', `Droit ${r % 5}`])
    const bytes = bytesOf(['Données', { rows }], ['Notes', { rows: [['Validé']] }])
    expect(part(bytes, 'xl/sharedStrings.xml')).toContain('count="101" uniqueCount="6"')
    expect(readBack(bytes).rows('Données')).toEqual(rows)
  })

  it('leaves empty texts out of the file and keeps every other cell in its column', () => {
    const rows = [
      ['', 'b', '', '', 'e', ''],
      ['a', '', '', 'd', '', ''],
      ['', '', '', '', '', ''],
      ['a', 'b', 'c', 'd', 'e', 'f'],
    ]
    const bytes = bytesOf(['Données', { rows }])
    expect(readBack(bytes).rows('Données')).toEqual(rows)
    const sheet = part(bytes, 'xl/worksheets/sheet1.xml')
    expect(sheet.match(/<c /g)).toHaveLength(10)
    expect(part(bytes, 'xl/sharedStrings.xml')).not.toContain('<t></t>')
  })

  it('freezes the header row of the sheets that ask for it, and only those', () => {
    const bytes = bytesOf(['Données', { rows: [['A'], ['1']], frozenRows: 1 }], ['Notes', { rows: [['x']] }])
    expect(part(bytes, 'xl/worksheets/sheet1.xml')).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>')
    expect(part(bytes, 'xl/worksheets/sheet2.xml')).not.toContain('<pane')
  })

  it('sets the column widths', () => {
    const bytes = bytesOf(['Feuille', { rows: [['a', 'b', 'c']], '!cols': [{ wch: 12 }, { wch: 40 }, { wch: 7 }] }])
    // xlsx reads column widths only when asked for styles.
    const cols = XLSX.read(bytes, { type: 'array', cellStyles: true }).Sheets['Feuille']!['!cols']
    expect(cols?.map((col) => col.width)).toEqual([12, 40, 7])
  })

  it('writes an empty sheet that opens empty', () => {
    const bytes = bytesOf(['Vide', { rows: [] }], ['Pleine', { rows: [['x']] }])
    expectWellFormed(bytes)
    const { workbook, rows } = readBack(bytes)
    expect(workbook.SheetNames).toEqual(['Vide', 'Pleine'])
    expect(rows('Vide')).toEqual([])
    expect(rows('Pleine')).toEqual([['x']])
  })

  it('names the columns past Z as Excel does', () => {
    expect([0, 25, 26, 51, 52, 701, 702, 16_383].map(columnName)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA', 'XFD'])
    const row = Array.from({ length: 30 }, (_, c) => `c${c}`)
    expect(readBack(bytesOf(['Large', { rows: [row] }])).rows('Large')).toEqual([row])
  })

  it('refuses a sheet name Excel would refuse, or one already taken, in French', () => {
    const workbook = bookNew()
    appendSheet(workbook, { rows: [] }, 'Droits')
    expect(() => appendSheet(workbook, { rows: [] }, 'Droits')).toThrow('Feuille en double : « Droits »')
    expect(() => appendSheet(workbook, { rows: [] }, 'a/b')).toThrow('Nom de feuille invalide')
    expect(() => appendSheet(workbook, { rows: [] }, 'x'.repeat(32))).toThrow('Nom de feuille invalide')
    expect(() => appendSheet(workbook, { rows: [] }, '')).toThrow('Nom de feuille invalide')
  })

  it('escapes sheet names in the workbook part', () => {
    const bytes = bytesOf(['R&D <"équipe">', { rows: [['x']] }])
    expectWellFormed(bytes)
    expect(readBack(bytes).workbook.SheetNames).toEqual(['R&D <"équipe">'])
  })
})

describe('the package', () => {
  const sample = () => {
    const workbook = bookNew()
    const rows = Array.from({ length: 300 }, (_, r) => [`Droit ${r}`, r % 3 ? 'Validé' : '', `=${r}+1`, 'Élodie 😀'])
    appendSheet(workbook, { rows, frozenRows: 1, '!cols': [{ wch: 20 }] }, 'Données')
    appendSheet(workbook, { rows: [['Notes']] }, 'Notes')
    return workbook
  }
  const parts = (bytes: Uint8Array) => Object.fromEntries(Object.entries(unzipSync(bytes)).map(([path, content]) => [path, strFromU8(content)]))

  it('is the same, part for part, whether compressed by the platform or by fflate', async () => {
    expect(typeof CompressionStream).toBe('function')
    const native = await writeWorkbookAsync(sample())
    expect(parts(native)).toEqual(parts(writeWorkbook(sample())))
    expectWellFormed(native)
    expect(readBack(native).rows('Données')[2]).toEqual(['Droit 2', 'Validé', '=2+1', 'Élodie 😀'])
  })

  it('is written by fflate where the platform has no CompressionStream', async () => {
    vi.stubGlobal('CompressionStream', undefined)
    try {
      expect(await writeWorkbookAsync(sample())).toEqual(writeWorkbook(sample()))
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('writes a sheet ahead, as its rows come, part for part as it writes it whole, by the platform and by fflate', async () => {
    const rows = Array.from({ length: 2500 }, (_, r) => [`Droit ${r}`, r % 3 ? 'Validé' : '', `=${r}+1`, 'Élodie 😀 '.repeat(r % 40)])
    const layout = { rows: rows.length, width: 4, frozenRows: 1, '!cols': [{ wch: 20 }] }
    for (const native of [true, false]) {
      if (!native) vi.stubGlobal('CompressionStream', undefined)
      try {
        const whole = bookNew()
        appendSheet(whole, { rows, frozenRows: 1, '!cols': [{ wch: 20 }] }, 'Données')
        const ahead = bookNew()
        const writer = new SheetWriter(ahead.strings, layout)
        // In pages, as an evidence pack's rows arrive; a large page crosses the writer's batch size.
        for (const page of [rows.slice(0, 1), rows.slice(1, 2000), [], rows.slice(2000)]) writer.write(page)
        appendSheet(ahead, { rows: [], written: writer }, 'Données')
        expect(parts(await writeWorkbookAsync(ahead)), native ? 'CompressionStream' : 'fflate').toEqual(parts(await writeWorkbookAsync(whole)))
      } finally {
        vi.unstubAllGlobals()
      }
    }
  })

  it('compresses the shared strings as they are added when given a compressor, part for part as it writes them last, with the CRCs a reader checks', async () => {
    // Over a million characters of texts: several batches, and a CRC over lengths with many bits.
    const rows = Array.from({ length: 30_000 }, (_, r) => [`Droit ${r} — Élodie 😀 ${'x'.repeat(r % 50)}`, r % 3 ? 'Validé' : '', `=${r}+1`])
    const layout = { rows: rows.length, width: 3, frozenRows: 1 }
    const whole = bookNew()
    appendSheet(whole, { rows, frozenRows: 1 }, 'Données')
    const handed: number[] = []
    const ahead = bookNew({
      compressor: () => {
        const compressor = nativeCompressor()
        const part = handed.push(0) - 1
        return { push: (bytes) => ((handed[part]! += bytes.length), compressor.push(bytes)), finish: () => compressor.finish() }
      },
    })
    const writer = new SheetWriter(ahead.strings, layout)
    writer.write(rows)
    // The shared strings' compressor, the first, had most of their texts before the workbook is written.
    expect(handed[0]).toBeGreaterThan(1 << 20)
    appendSheet(ahead, { rows: [], written: writer }, 'Données')
    const bytes = await writeWorkbookAsync(ahead)
    expect(parts(bytes)).toEqual(parts(await writeWorkbookAsync(whole)))
    const files = unzipSync(bytes)
    for (const [path, crc] of Object.entries(centralDirectoryCrcs(bytes))) expect(crc, path).toBe(crc32(files[path]!))
    expect(readBack(bytes).rows('Données')[29_999]).toEqual(rows[29_999])
  })

  it('refuses to finish a sheet written ahead with fewer or more rows than it announced, rather than write it wrong', async () => {
    const workbook = bookNew()
    const short = new SheetWriter(workbook.strings, { rows: 3, width: 1 })
    short.write([['a'], ['b']])
    await expect(short.finish()).rejects.toThrow('Feuille incomplète : 2 lignes écrites sur 3 annoncées')
    const long = new SheetWriter(workbook.strings, { rows: 1, width: 1 })
    long.write([['a'], ['b']])
    appendSheet(workbook, { rows: [], written: long }, 'Trop')
    await expect(writeWorkbookAsync(workbook)).rejects.toThrow('Feuille incomplète : 2 lignes écrites sur 1 annoncées')
    expect(() => long.write([['c']])).toThrow('Feuille déjà terminée')
  })

  it('writes rows kept as indexes one after the other in one array, part for part as it writes the rows of texts', async () => {
    const rows = Array.from({ length: 3000 }, (_, r) => [`Droit ${r}`, r % 3 ? 'Validé' : '', r % 5 ? '' : `=${r}+1`, 'Élodie 😀'])
    const layout = { rows: rows.length, width: 4, frozenRows: 1 }
    const whole = bookNew()
    appendSheet(whole, { rows, frozenRows: 1 }, 'Données')
    const ahead = bookNew()
    const writer = new SheetWriter(ahead.strings, layout)
    const waiting = new IndexedRows(ahead.strings)
    // Pushed in two runs, each taken and written at once, the array reused in between and grown past its first size.
    for (const run of [rows.slice(0, 1200), rows.slice(1200)]) {
      for (const row of run) waiting.push(row)
      writer.writeIndexed(waiting.take(), 4)
    }
    appendSheet(ahead, { rows: [], written: writer }, 'Données')
    expect(parts(await writeWorkbookAsync(ahead))).toEqual(parts(await writeWorkbookAsync(whole)))
  })

  it('writes rows indexed in the shared strings beforehand like rows of texts', () => {
    const workbook = bookNew()
    const index = (texts: string[]) => Int32Array.from(texts, (text) => (text ? workbook.strings.indexOf(text) : -1))
    appendSheet(workbook, { rows: [['En-tête', 'B'], index(['Validé', '']), index(['', 'Validé']), ['Validé', 'x']] }, 'Données')
    const bytes = writeWorkbook(workbook)
    expect(readBack(bytes).rows('Données')).toEqual([
      ['En-tête', 'B'],
      ['Validé', ''],
      ['', 'Validé'],
      ['Validé', 'x'],
    ])
    expect(part(bytes, 'xl/sharedStrings.xml')).toContain('count="6" uniqueCount="4"')
  })
})

describe('random workbooks', () => {
  /** Characters that have broken writers: markup, quotes, controls, astral planes, escapes, spaces. */
  const ALPHABET = [...'aZé€ <>&"\'=+-@_x0041\t\n\r\u0000\u0008\u001f\ufffe\u00a0😀𝔘 ', '\ud800', '\udfff']

  it('reads back exactly what was written, cell for cell (fixed seed)', () => {
    let seed = 19
    const random = (below: number) => {
      seed = (seed * 48_271) % 2_147_483_647
      return seed % below
    }
    const text = () => Array.from({ length: random(12) }, () => ALPHABET[random(ALPHABET.length)]).join('')
    for (let round = 0; round < 25; round += 1) {
      const width = 1 + random(8)
      const rows = Array.from({ length: random(40) }, () => Array.from({ length: 1 + random(width) }, text))
      const bytes = bytesOf(['Données', { rows, frozenRows: random(2) }], ['Notes', { rows: [[text()]] }])
      const widest = Math.max(0, ...rows.map((row) => row.length))
      const expected = rows.map((row) => [...row, ...Array<string>(widest - row.length).fill('')])
      expect(readBack(bytes).rows('Données'), `round ${round}`).toEqual(expected)
      if (round % 5 === 0) expectWellFormed(bytes)
    }
  })
})
