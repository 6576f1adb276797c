import { TREATMENT_COLUMNS, treatmentRows, type EvidenceItem, type EvidenceRemoval } from '@/features/campaigns/evidence-model'

// The evidence pack's Traitements RA sheet follows each refused right to its removal: à supprimer, asked for (when, by
// whom, how), then seen gone (when, by which list) or still there past its delay.
const item = (right_id: string, status: string, removal: EvidenceRemoval | null = null): EvidenceItem => ({
  right_id,
  holder_name: 'Julie Martin',
  holder_email: 'user@example.com',
  manager_name: 'Marc Dubois',
  application_name: 'SAP Finance',
  role_name: 'Comptable',
  account_type: 'standard',
  granted_at: 0,
  last_used_at: null,
  justification: null,
  status,
  decisions: { manager: { decision: 'refused', decided_by_name: 'Marc Dubois', decided_at: 0, comment: 'Plus utile', ip_address: null } },
  removal,
})

const removal = (overrides: Partial<EvidenceRemoval>): EvidenceRemoval => ({
  right_id: 'r',
  state: 'requested',
  method: 'ticket',
  ticket: 'INC-7',
  requested_at: '2026-11-02T09:30:00Z',
  requested_by_name: 'Nadia Moreau',
  verified_at: null,
  verified_source: null,
  unverified_at: null,
  apply_outcome: null,
  ...overrides,
})

const removalColumns = (row: string[]) => Object.fromEntries(TREATMENT_COLUMNS.slice(-6).map((name, index) => [name, row[TREATMENT_COLUMNS.length - 6 + index]]))

describe('Traitements RA: the removal of each refused right', () => {
  it('says each state with its dates and source', () => {
    const rows = treatmentRows([
      item('r1', 'refused_manager'),
      item('r2', 'treated'),
      item('r3', 'treated', removal({})),
      item('r4', 'treated', removal({ state: 'verified', method: 'connector', ticket: null, apply_outcome: 'removed', verified_at: '2026-11-03T02:00:00Z', verified_source: 'connector' })),
      item('r5', 'treated', removal({ state: 'unverified', unverified_at: '2026-12-03T02:00:00Z' })),
    ])
    expect(rows.map(removalColumns)).toEqual([
      { Suppression: 'À supprimer', 'Demandée le': '', Moyen: '', 'Constatée le': '', 'Source du constat': '', 'Non constatée le': '' },
      { Suppression: 'Non demandée', 'Demandée le': '', Moyen: '', 'Constatée le': '', 'Source du constat': '', 'Non constatée le': '' },
      expect.objectContaining({ Suppression: 'Suppression demandée', Moyen: 'Ticket INC-7', 'Constatée le': '' }),
      expect.objectContaining({ Suppression: 'Suppression constatée', Moyen: 'Connecteur d’annuaire, retiré de l’annuaire', 'Source du constat': 'Connecteur d’annuaire' }),
      expect.objectContaining({ Suppression: 'Suppression non constatée', 'Constatée le': '', 'Non constatée le': expect.stringContaining('2026') }),
    ])
    expect(removalColumns(rows[2]!)['Demandée le']).toMatch(/2026 .* par Nadia Moreau$/)
    expect(removalColumns(rows[3]!)['Constatée le']).toMatch(/2026/)
  })
})
