// Reading a filled-in stage file sent back by a reviewer. The file is untrusted: every hostile
// shape below must be refused with a French message, quickly and without exhausting memory, and nothing in a cell may
// reach an object's prototype.
import { strToU8, unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { buildWorkbook } from '@/features/campaigns/excel'
import { stageFileColumns as exportColumns } from '@/domain/stage-files'
import type { ExportRow } from '@/features/campaigns/model'
import { decisionPayload, MAX_FILE_DECISIONS, readDecision } from '@/features/reviews/offline-model'
import { readOfflineBytes } from '@/features/reviews/components/upload/read-offline-file'
import { appendSheet, bookNew, writeWorkbook } from '@/lib/xlsx-writer'
import { DEFAULT_XLSX_LIMITS, readXlsxSheet } from '@/lib/xlsx-reader'

const ID = (n: number) => `00000000-0000-4000-a000-${String(n).padStart(12, '0')}`

/** A manager file as a reviewer fills it: the export's columns, decisions and comments typed in. */
function managerFile(rows: (readonly string[])[], header: readonly string[] = exportColumns('manager')): Uint8Array {
  const workbook = bookNew()
  appendSheet(workbook, { rows: [header, ...rows] }, 'Droits')
  appendSheet(workbook, { rows: [['Fichier', 'Manager']] }, 'Instructions')
  return writeWorkbook(workbook)
}

function managerRow(n: number, decision: string, comment = ''): string[] {
  return [ID(n), `Personne ${n}`, `p${n}@example.com`, 'SAP Finance', `Rôle ${n}`, '01/01/2024', 'Jamais', 'Accès', decision, comment, '']
}

/** The package with some parts replaced (or added), zipped again. */
function withParts(bytes: Uint8Array, parts: Record<string, string>): Uint8Array {
  const files = unzipSync(bytes)
  for (const [name, content] of Object.entries(parts)) files[name] = strToU8(content)
  return zipSync(files)
}

const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
const SHEET_TAIL = '</sheetData></worksheet>'
const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`
const headerRow = `<row r="1">${exportColumns('manager').map((column, index) => inline(`${String.fromCharCode(65 + index)}1`, column.replace(/'/g, '&apos;'))).join('')}</row>`

/** Sets the uncompressed size the central directory declares for one part (what a zip bomb lies about). */
function declareSize(bytes: Uint8Array, name: string, size: number): Uint8Array {
  const copy = bytes.slice()
  const view = new DataView(copy.buffer)
  const wanted = strToU8(name)
  for (let offset = 0; offset < copy.length - 46; offset += 1) {
    if (view.getUint32(offset, true) !== 0x02014b50) continue
    const nameLength = view.getUint16(offset + 28, true)
    const found = copy.subarray(offset + 46, offset + 46 + nameLength)
    if (found.length === wanted.length && found.every((byte, index) => byte === wanted[index])) {
      view.setUint32(offset + 24, size, true)
      return copy
    }
  }
  throw new Error(`${name} not found`)
}

function refusal(bytes: Uint8Array): string {
  const reply = readOfflineBytes(bytes)
  if (reply.ok) throw new Error('the file was accepted')
  return reply.message
}

describe('a file the app wrote, filled in', () => {
  it('reads the decisions of the stage, their comments and the spreadsheet row of each, and counts the rest', () => {
    const reply = readOfflineBytes(managerFile([managerRow(1, 'Validé'), managerRow(2, ''), managerRow(3, ' refusé ', 'Parti'), managerRow(4, 'REFUSE')]))
    expect(reply).toMatchObject({ ok: true, file: { stage: 'manager', undecided: 1 } })
    if (!reply.ok) return
    expect(reply.file.lines.map((l) => [l.line, l.rightId, l.holder, l.application, l.role, l.decision, l.comment])).toEqual([
      [2, ID(1), 'Personne 1', 'SAP Finance', 'Rôle 1', 'approved', ''],
      [4, ID(3), 'Personne 3', 'SAP Finance', 'Rôle 3', 'refused', 'Parti'],
      [5, ID(4), 'Personne 4', 'SAP Finance', 'Rôle 4', 'refused', ''],
    ])
    expect(decisionPayload(reply.file)[1]).toEqual({ line: 4, right_id: ID(3), decision: 'refused', comment: 'Parti' })
  })

  it('knows the three stage files by the columns the campaigns feature writes', () => {
    const row: ExportRow = {
      right_id: ID(9), user_name: 'Léa', user_email: 'lea@example.com', application_name: 'GitLab', role_name: 'Dev', granted_at: null,
      last_used_at: null, justification: null, status: 'validated_manager', manager_decision: 'approved', manager_comment: null,
      manager_decided_at: null, bpo_metier_decision: null, bpo_metier_comment: null, bpo_metier_decided_at: null,
      bpo_groupe_decision: null, bpo_groupe_comment: null, bpo_groupe_decided_at: null,
    }
    // The BPO Métier file as exported: the manager's « Validé » is not the BPO Métier's decision.
    expect(refusal(writeWorkbook(buildWorkbook('bpo_metier', 'Revue', [row], '2026-12-31')))).toBe(
      "Aucune décision n'est saisie dans la colonne « Validation BPO Métier » : indiquez « Validé » ou « Refusé ».",
    )
  })

  it('reads what Excel writes when it saves the file again: references, inline and rich text, entities, escapes, gaps', () => {
    const sheet =
      SHEET_HEAD +
      headerRow +
      `<row r="3" spans="1:11"><c r="A3" t="s"><v>0</v></c><c r="B3" s="1" t="s"><v>1</v></c>${inline('I3', 'Valid&#233;')}${inline('J3', 'A &amp; B_x000A_suite')}</row>` +
      `<row r="9"><c r="A9" t="s"><v>0</v></c><c r="I9" t="s"><v>2</v></c></row>` +
      SHEET_TAIL
    const strings =
      '<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      `<si><t>${ID(5)}</t></si><si><t xml:space="preserve"> Zoé </t></si><si><r><t>Ref</t></r><r><rPr><b/></rPr><t>usé</t></r><rPh><t>ignored</t></rPh></si></sst>`
    const reply = readOfflineBytes(withParts(managerFile([]), { 'xl/worksheets/sheet1.xml': sheet, 'xl/sharedStrings.xml': strings }))
    expect(reply.ok && reply.file.lines.map((l) => [l.line, l.rightId, l.holder, l.decision, l.comment])).toEqual([
      [3, ID(5), 'Zoé', 'approved', 'A & B\nsuite'],
      [9, ID(5), '', 'refused', ''],
    ])
  })
})

describe('a file that is not a stage file', () => {
  it('other columns, another sheet, no rights, no decision, too many decisions', () => {
    expect(refusal(managerFile([managerRow(1, 'Validé')], [...exportColumns('manager'), 'Colonne ajoutée']))).toMatch(/n'a pas les colonnes d'un fichier de revue/)
    expect(refusal(managerFile([managerRow(1, 'Validé')], exportColumns('manager').slice(1)))).toMatch(/n'a pas les colonnes/)
    const other = bookNew()
    appendSheet(other, { rows: [['Nom'], ['x']] }, 'Feuil1')
    expect(refusal(writeWorkbook(other))).toBe("Ce classeur n'a pas de feuille « Droits ».")
    expect(refusal(managerFile([]))).toBe('Le fichier ne contient aucun droit.')
    expect(refusal(managerFile([managerRow(1, '')]))).toMatch(/^Aucune décision n'est saisie dans la colonne « Validation manager »/)
    const many = Array.from({ length: MAX_FILE_DECISIONS + 1 }, (_, index) => managerRow(index, 'Validé'))
    expect(refusal(managerFile(many))).toBe('Le fichier contient 2\u202f001 décisions : au plus 2\u202f000 peuvent être appliquées à la fois. Répartissez-les sur plusieurs fichiers.')
  })

  it('bytes that are not a workbook', () => {
    const notXlsx = "Ce fichier n'est pas un classeur Excel (.xlsx) lisible."
    expect(refusal(strToU8('ID du droit;Utilisateur\n1;2\n'))).toBe(notXlsx)
    expect(refusal(new Uint8Array(0))).toBe(notXlsx)
    expect(refusal(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, ...new Array(200).fill(7)]))).toBe(notXlsx)
    const truncated = managerFile([managerRow(1, 'Validé')])
    expect(refusal(truncated.subarray(0, truncated.length - 40))).toBe(notXlsx)
  })

  it('leaves text that names a prototype as text, and pollutes nothing', () => {
    const proto = managerFile([['__proto__', 'constructor', '', 'prototype', '__proto__', '', '', '', 'Validé', '{"polluted":1}', '']])
    const reply = readOfflineBytes(proto)
    expect(reply.ok && reply.file.lines[0]).toMatchObject({ rightId: '__proto__', holder: 'constructor', application: 'prototype' })
    expect(refusal(managerFile([managerRow(1, 'Validé')], ['__proto__', 'constructor', ...exportColumns('manager').slice(2)]))).toMatch(/n'a pas les colonnes/)
    // A part named after a prototype key in the package is never one of the parts read.
    expect(readOfflineBytes(withParts(proto, { __proto__: '<x/>', 'xl/constructor': '<x/>' })).ok).toBe(true)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
  })
})

describe('hostile files', () => {
  it('a file over the size cap is refused before it is opened', () => {
    const huge = new Uint8Array(DEFAULT_XLSX_LIMITS.maxFileBytes + 1)
    huge.set([0x50, 0x4b, 0x03, 0x04])
    expect(refusal(huge)).toBe('Le fichier est trop volumineux : au plus 20 Mo.')
  })

  it('a sheet over the row cap', () => {
    const rows = '<row><c t="inlineStr"><is><t>x</t></is></c></row>'.repeat(DEFAULT_XLSX_LIMITS.maxRows)
    const sheet = SHEET_HEAD + headerRow + rows + SHEET_TAIL
    expect(refusal(withParts(managerFile([]), { 'xl/worksheets/sheet1.xml': sheet }))).toBe("Le fichier contient plus de 50\u202f000 lignes : il n'est pas lu.")
  })

  it('formulas are refused, never evaluated nor taken for their cached value', () => {
    const sheet = SHEET_HEAD + headerRow + `<row r="2">${inline('A2', ID(1))}<c r="I2" t="str"><f>IF(1,"Validé","Refusé")</f><v>Validé</v></c></row>` + SHEET_TAIL
    expect(refusal(withParts(managerFile([]), { 'xl/worksheets/sheet1.xml': sheet }))).toBe(
      'La cellule I2 contient une formule : les formules ne sont pas lues. Saisissez la valeur elle-même.',
    )
  })

  it('a zip bomb: a part declaring more than the uncompressed cap is never inflated', () => {
    const bytes = declareSize(managerFile([managerRow(1, 'Validé')]), 'xl/worksheets/sheet1.xml', DEFAULT_XLSX_LIMITS.maxUncompressedBytes + 1)
    expect(refusal(bytes)).toBe("Le contenu du fichier, décompressé, dépasse 100 Mo : il n'est pas lu.")
  })

  it('a shared-strings bomb that lies about its size is cut at the size it declares, and refused', () => {
    // Ten megabytes of one repeated string, compressed to a few kilobytes, declared as one kilobyte.
    const bomb = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${'<si><t>a</t></si>'.repeat(600_000)}</sst>`
    const bytes = declareSize(withParts(managerFile([managerRow(1, 'Validé')]), { 'xl/sharedStrings.xml': bomb }), 'xl/sharedStrings.xml', 1024)
    expect(refusal(bytes)).toBe("Ce fichier n'est pas un classeur Excel (.xlsx) lisible.")
  })

  it('more shared strings than the sheet could have cells', () => {
    const strings = `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${'<si><t>a</t></si>'.repeat(129)}</sst>`
    const bytes = withParts(managerFile([managerRow(1, 'Validé')]), { 'xl/sharedStrings.xml': strings })
    expect(() => readXlsxSheet(bytes, 'Droits', { ...DEFAULT_XLSX_LIMITS, maxRows: 2 })).toThrow("Le fichier contient plus de textes qu'il n'a de cellules : il n'est pas lu.")
    expect(readXlsxSheet(bytes, 'Droits', { ...DEFAULT_XLSX_LIMITS, maxRows: 3 })).toHaveLength(2)
  })

  it('a document type, with or without entities to expand, and unknown entities', () => {
    const doctype = '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><sst><si><t>&b;</t></si></sst>'
    const base = managerFile([managerRow(1, 'Validé')])
    expect(refusal(withParts(base, { 'xl/sharedStrings.xml': doctype }))).toBe('Le fichier contient une construction XML refusée (DTD, commentaire ou CDATA).')
    expect(refusal(withParts(base, { 'xl/sharedStrings.xml': '<sst><si><t>&b;</t></si></sst>' }))).toBe("Ce fichier n'est pas un classeur Excel (.xlsx) lisible.")
  })

  it('a cell pointing past the shared strings, or out of order', () => {
    const past = SHEET_HEAD + headerRow + `<row r="2"><c r="A2" t="s"><v>999999</v></c></row>` + SHEET_TAIL
    expect(refusal(withParts(managerFile([]), { 'xl/worksheets/sheet1.xml': past }))).toBe('La cellule A2 renvoie à un texte absent du fichier.')
    const backwards = SHEET_HEAD + headerRow + `<row r="2">${inline('C2', 'x')}${inline('A2', 'y')}</row>` + SHEET_TAIL
    expect(refusal(withParts(managerFile([]), { 'xl/worksheets/sheet1.xml': backwards }))).toBe("Ce fichier n'est pas un classeur Excel (.xlsx) lisible.")
  })

  it('reads a large legitimate file within its caps', () => {
    const rows = Array.from({ length: MAX_FILE_DECISIONS }, (_, index) => managerRow(index, index % 2 ? 'Validé' : ''))
    const sheet = readXlsxSheet(managerFile(rows), 'Droits')
    expect(sheet).toHaveLength(MAX_FILE_DECISIONS + 1)
  })
})

describe('readDecision', () => {
  it('takes « Validé » and « Refusé » whatever their case and accents, and nothing else', () => {
    expect(['Validé', 'VALIDE', ' validé ', 'Refusé', 'refuse'].map(readDecision)).toEqual(['approved', 'approved', 'approved', 'refused', 'refused'])
    expect(['Oui', 'Valider', '1', '__proto__'].map(readDecision)).toEqual([null, null, null, null])
  })
})
