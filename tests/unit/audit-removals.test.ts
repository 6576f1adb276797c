import { auditEventText, auditReferences, NO_NAMES, resourceTypeLabel } from '@/features/audit/sentence'
import type { AuditEvent } from '@/features/audit/model'

// The RSSI reads each transition of a removal in French in the audit trail.
const event = (overrides: Partial<AuditEvent>): AuditEvent => ({
  id: 1,
  user_id: 'u-nadia',
  user_email: 'ra@example.com',
  user_name: 'Nadia Moreau',
  action: 'create',
  resource_type: 'right_removals',
  resource_id: 'rm-1',
  details: {},
  timestamp: '2026-11-20T10:00:00Z',
  ip_address: null,
  ...overrides,
})

describe('removals in the audit trail', () => {
  it('names the removal by its right when it is asked for', () => {
    const created = event({ details: { new: { role_name: 'Lecteur', holder_name: 'Julie Martin', application_name: 'SAP Finance', state: 'requested' } } })
    expect(auditEventText(created)).toBe('Nadia Moreau a créé la suppression du droit « Lecteur » de Julie Martin sur SAP Finance')
  })

  it('says each change of state in French', () => {
    const settled = event({
      action: 'update',
      user_name: 'Sophie Bernard',
      details: { changes: { state: { old: 'requested', new: 'verified' }, verified_source: { old: null, new: 'connector' } } },
    })
    expect(auditEventText(settled)).toContain('État : Suppression demandée → Suppression constatée')
    expect(auditEventText(settled)).toContain('Source du constat : (vide) → Connecteur d’annuaire')
    expect(resourceTypeLabel('right_removals')).toBe('Suppression de droit')
  })
})

describe('an application’s list of rights in the audit trail', () => {
  it('says who imported it, from where, and what it settled', () => {
    const imported = event({
      action: 'import_rights_snapshot',
      user_name: 'Sophie Bernard',
      resource_type: 'applications',
      resource_id: 'app-sap',
      details: { source: 'connector', lines: 40, created: 2, absent: 1, verified: 1, unverified: 0 },
    })
    const names = { ...NO_NAMES, applications: new Map([['app-sap', 'SAP Finance']]) }
    expect(auditEventText(imported, names)).toBe(
      'Sophie Bernard a importé la liste des droits de « SAP Finance » par le connecteur d’annuaire : 2 droits ajoutés, 1 suppression constatée, 0 suppression non constatée',
    )
  })
})

it('asks for the name of the application whose list was imported', () => {
  const imported = event({ action: 'import_rights_snapshot', resource_type: 'applications', resource_id: 'app-sap', details: { source: 'csv' } })
  expect(auditReferences([imported]).applications).toEqual(['app-sap'])
})
