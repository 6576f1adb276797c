import * as XLSX from 'xlsx'
import { stageFileColumns as exportColumns } from '@/domain/stage-files'
import { buildWorkbook, ExportSheets, workbookBytes } from '@/features/campaigns/excel'
import {
  DEFAULT_JUSTIFICATION,
  DEFAULT_MANAGER_COMMENT,
  CLOSURE_NOTICE,
  buildExportRows,
  buildInstructionRows,
  exportRow,
  exportColumnWidths,
  exportFileName,
  safeCell,
  validateCampaignForm,
  toCampaignPayload,
  EMPTY_CAMPAIGN_FORM,
  CAMPAIGN_FORM_MESSAGES,
  nextTransition,
  type ExportRow,
  type ExportRowData,
} from '@/features/campaigns/model'

const TODAY = new Date(2026, 10, 21, 10, 0)
/** The campaign's last day, the stage files' deadline. */
const END_DATE = '2026-12-31'

function row(overrides: Partial<ExportRow> = {}): ExportRow {
  return {
    right_id: '00000000-0000-4000-b000-000000000001',
    user_name: 'Camille Durand',
    user_email: 'camille@example.com',
    application_name: 'SAP Finance',
    role_name: 'Comptable',
    granted_at: '2023-03-01T00:00:00Z',
    last_used_at: null,
    justification: null,
    status: 'pending',
    manager_decision: null,
    manager_comment: null,
    manager_decided_at: null,
    bpo_metier_decision: null,
    bpo_metier_comment: null,
    bpo_metier_decided_at: null,
    bpo_groupe_decision: null,
    bpo_groupe_comment: null,
    bpo_groupe_decided_at: null,
    ...overrides,
  }
}

describe('export columns (SPEC §3)', () => {
  it('gives the manager file its eleven columns, and the later files their stages', () => {
    expect(exportColumns('manager')).toEqual([
      'ID du droit',
      'Utilisateur',
      'E-mail',
      'Application',
      'Rôle / Profil',
      "Date d'attribution",
      'Dernière utilisation',
      'Justification métier',
      'Validation manager',
      'Commentaire manager',
      'Date de validation manager',
    ])
    expect(exportColumns('bpo_metier').slice(11)).toEqual(['Validation BPO Métier', 'Commentaire BPO Métier', 'Date de validation BPO Métier'])
    expect(exportColumns('bpo_groupe').slice(14)).toEqual([
      'Validation BPO Groupe',
      'Commentaire BPO Groupe',
      'Date de validation BPO Groupe',
      'Statut final',
    ])
    for (const file of ['manager', 'bpo_metier', 'bpo_groupe'] as const) {
      expect(exportColumnWidths(file)).toHaveLength(exportColumns(file).length)
    }
  })
})

describe('export rows', () => {
  it("fills SPEC §9's defaults, 'Jamais' for a right never used, and French dates", () => {
    const [cells] = buildExportRows('manager', [row()])
    expect(cells).toHaveLength(11)
    expect(cells?.[5]).toBe('1er mars 2023')
    expect(cells?.[6]).toBe('Jamais')
    expect(cells?.[7]).toBe(DEFAULT_JUSTIFICATION)
    expect(cells?.slice(8)).toEqual(['', '', ''])
  })

  it("writes each stage's decision, comment and date, with 'Validé par le manager' when the manager said nothing", () => {
    const [cells] = buildExportRows('bpo_groupe', [
      row({
        status: 'validated_bpo_metier',
        last_used_at: '2026-11-01T08:00:00Z',
        justification: 'Clôture mensuelle',
        manager_decision: 'approved',
        manager_decided_at: '2026-11-10T09:00:00Z',
        bpo_metier_decision: 'approved',
        bpo_metier_comment: 'OK',
        bpo_metier_decided_at: '2026-11-12T09:00:00Z',
      }),
    ])
    expect(cells).toHaveLength(18)
    expect(cells?.[6]).toBe('1er novembre 2026')
    expect(cells?.[7]).toBe('Clôture mensuelle')
    expect(cells?.slice(8, 11)).toEqual(['Validé', DEFAULT_MANAGER_COMMENT, '10 novembre 2026'])
    expect(cells?.slice(11, 14)).toEqual(['Validé', 'OK', '12 novembre 2026'])
    expect(cells?.slice(14, 17)).toEqual(['', '', ''])
    expect(cells?.[17]).not.toBe('')
  })

  it('keeps a refusing manager’s own comment and never invents the default for a refusal', () => {
    const [cells] = buildExportRows('bpo_metier', [row({ manager_decision: 'refused', manager_comment: 'Plus dans le service' })])
    expect(cells?.slice(8, 10)).toEqual(['Refusé', 'Plus dans le service'])
    const [silent] = buildExportRows('bpo_metier', [row({ manager_decision: 'refused' })])
    expect(silent?.[9]).toBe('')
  })
})

describe('hostile cells', () => {
  it.each(['=HYPERLINK("http://evil","x")', '+33 1 23', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])('quotes %j', (value) => {
    expect(safeCell(value)).toBe(`'${value}`)
  })

  it('leaves ordinary text alone', () => {
    expect(safeCell('Jean-Pierre')).toBe('Jean-Pierre')
    expect(safeCell(null)).toBe('')
  })

  it('quotes every hostile field of a row, campaign name included, and the workbook stores strings only', async () => {
    const hostile = row({ user_name: '=cmd|" /C calc"!A0', role_name: '@admin', justification: '+1', manager_comment: '-1' })
    const cells = buildExportRows('manager', [hostile])[0] ?? []
    for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@]/)
    expect(buildInstructionRows('manager', '=Campagne', END_DATE)[0]).toEqual(['Campagne', "'=Campagne"])

    const bytes = await workbookBytes(buildWorkbook('manager', '=Campagne', [hostile], END_DATE))
    const read = XLSX.read(bytes, { type: 'array', cellFormula: true })
    const sheet = read.Sheets['Droits']!
    for (const key of Object.keys(sheet).filter((k) => !k.startsWith('!'))) {
      expect(sheet[key].f).toBeUndefined()
      expect(sheet[key].t).toBe('s')
    }
    expect(sheet['B2'].v).toBe(`'=cmd|" /C calc"!A0`)
  })
})

describe('workbook', () => {
  it('has the data sheet with a frozen header row and sized columns, then the Instructions sheet', async () => {
    const workbook = buildWorkbook('manager', 'Revue T4', [row(), row({ right_id: 'b' })], END_DATE)
    expect(workbook.SheetNames).toEqual(['Droits', 'Instructions'])
    expect(workbook.Sheets['Droits']!['!cols']).toHaveLength(11)
    const bytes = await workbookBytes(workbook)
    const read = XLSX.read(bytes, { type: 'array' })
    const rows = XLSX.utils.sheet_to_json<string[]>(read.Sheets['Droits']!, { header: 1 })
    expect(rows[0]).toEqual(exportColumns('manager'))
    expect(rows).toHaveLength(3)
    const zip = XLSX.CFB.read(bytes, { type: 'array' })
    const index = zip.FullPaths.findIndex((path: string) => path.endsWith('/xl/worksheets/sheet1.xml'))
    const sheetXml = new TextDecoder().decode(zip.FileIndex[index]!.content as Uint8Array)
    expect(sheetXml).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>')
    expect(sheetXml).toContain('<cols>')
  })
})

describe('rows as campaign_export_rows sends them', () => {
  const data = (rightId: string, decisions: ExportRowData[10] = null): ExportRowData => [
    rightId,
    'Camille Durand',
    'camille@example.com',
    'SAP Finance',
    '=Comptable',
    'standard',
    Date.parse('2023-03-01T00:00:00Z'),
    null,
    'Clôture',
    'validated_bpo_metier',
    decisions,
  ]

  it('gives each stage its latest decision, and the same cells as the rows they stand for', () => {
    const decidedAt = Date.parse('2026-11-20T09:30:00Z')
    const made = exportRow(
      data('r1', [
        ['user', 'approved', 'Utile', decidedAt, 'Camille Durand'],
        ['manager', 'approved', null, decidedAt, 'Marc Dubois'],
        ['bpo_metier', 'refused', 'Trop large', decidedAt, 'Sophie Bernard'],
      ]),
    )
    expect(made).toMatchObject({ manager_decision: 'approved', manager_comment: null, bpo_metier_decision: 'refused', bpo_metier_comment: 'Trop large', bpo_groupe_decision: null })
    const asText = row({
      right_id: 'r1',
      role_name: '=Comptable',
      justification: 'Clôture',
      status: 'validated_bpo_metier',
      manager_decision: 'approved',
      manager_decided_at: '2026-11-20T09:30:00Z',
      bpo_metier_decision: 'refused',
      bpo_metier_comment: 'Trop large',
      bpo_metier_decided_at: '2026-11-20T09:30:00Z',
    })
    expect(buildExportRows('bpo_groupe', [made])).toEqual(buildExportRows('bpo_groupe', [asText]))
    expect(buildExportRows('manager', [made])[0]).toContain("'=Comptable")
  })

  it('writes pages added slice by slice, in any order, as the whole file in right id order', async () => {
    const rows = ['a1', 'a2', 'b1', 'c1', 'c2'].map((id) => exportRow(data(id)))
    const sheets = new ExportSheets('manager', 3)
    sheets.add(rows.slice(3), 2)
    sheets.add(rows.slice(0, 1), 0)
    sheets.add(rows.slice(2, 3), 1)
    sheets.add(rows.slice(1, 2), 0)
    const read = async (bytes: Promise<Uint8Array>) => {
      const book = XLSX.read(await bytes, { type: 'array' })
      return book.SheetNames.map((name) => XLSX.utils.sheet_to_json<string[]>(book.Sheets[name]!, { header: 1 }))
    }
    const [sliced, instructions] = await read(workbookBytes(sheets.workbook('Revue T4', END_DATE)))
    expect(sliced!.slice(1).map((cells) => cells[0])).toEqual(['a1', 'a2', 'b1', 'c1', 'c2'])
    expect([sliced, instructions]).toEqual(await read(workbookBytes(buildWorkbook('manager', 'Revue T4', rows, END_DATE))))
  })
})

describe('instructions and file names (SPEC §9)', () => {
  it('gives every file the campaign’s end date as its deadline, and says what becomes of the rights left undecided', () => {
    const manager = buildInstructionRows('manager', 'Revue T4', END_DATE)
    expect(manager).toContainEqual(['Campagne', 'Revue T4'])
    expect(manager).toContainEqual(['Date limite', '31 décembre 2026'])
    expect(buildInstructionRows('bpo_metier', 'Revue T4', END_DATE)).toContainEqual(['Date limite', '31 décembre 2026'])
    expect(buildInstructionRows('bpo_groupe', 'Revue T4', END_DATE)).toContainEqual(['Date limite', '31 décembre 2026'])
    for (const file of ['manager', 'bpo_metier', 'bpo_groupe'] as const) {
      const text = buildInstructionRows(file, 'Revue T4', END_DATE).flat()
      expect(text).toContain(CLOSURE_NOTICE)
      // Nothing is suspended by the product: no file may say so.
      expect(text.join(' ')).not.toMatch(/suspen/i)
    }
  })

  it('builds review type, campaign name with underscores, date, .xlsx', () => {
    expect(exportFileName('manager', 'Revue T4 2026 — comptes standard', TODAY)).toBe(
      'Revue_Manager_Revue_T4_2026_—_comptes_standard_2026-11-21.xlsx',
    )
    expect(exportFileName('bpo_metier', 'Revue annuelle', TODAY)).toBe('Revue_BPO_Metier_Revue_annuelle_2026-11-21.xlsx')
    expect(exportFileName('bpo_groupe', 'a/b:c', TODAY)).toBe('Revue_BPO_Groupe_a-b-c_2026-11-21.xlsx')
  })
})

describe('campaign form rules (SPEC §5)', () => {
  it('requires name and both dates, in French', () => {
    expect(validateCampaignForm(EMPTY_CAMPAIGN_FORM)).toEqual({
      name: CAMPAIGN_FORM_MESSAGES.nameRequired,
      startDate: CAMPAIGN_FORM_MESSAGES.startRequired,
      endDate: CAMPAIGN_FORM_MESSAGES.endRequired,
    })
  })

  it('accepts an end equal to the start and refuses one before it', () => {
    const base = { ...EMPTY_CAMPAIGN_FORM, name: 'X', startDate: '2026-12-01' }
    expect(validateCampaignForm({ ...base, endDate: '2026-12-01' })).toEqual({})
    expect(validateCampaignForm({ ...base, endDate: '2026-11-30' })).toEqual({ endDate: CAMPAIGN_FORM_MESSAGES.endBeforeStart })
  })

  it('sends blanks as null (all applications, all account types)', () => {
    expect(toCampaignPayload({ ...EMPTY_CAMPAIGN_FORM, name: ' X ', startDate: '2026-12-01', endDate: '2026-12-02' })).toEqual({
      name: 'X',
      description: '',
      application_id: null,
      account_type: null,
      start_date: '2026-12-01',
      end_date: '2026-12-02',
      recurrence: null,
      auto_start: false,
      notifications_enabled: true,
      reminders_enabled: true,
      reminder_days: [7, 3, 1],
      escalation_delay_days: 0,
    })
  })

  it('offers one lifecycle step per status', () => {
    expect(nextTransition('draft')?.to).toBe('active')
    expect(nextTransition('active')?.to).toBe('completed')
    expect(nextTransition('completed')?.to).toBe('archived')
    expect(nextTransition('archived')).toBeNull()
  })
})
