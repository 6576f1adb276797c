import { describe, expect, it } from 'vitest'
import {
  actionLabel,
  auditArgs,
  auditCsvRow,
  auditSealText,
  auditUserLabel,
  detailsText,
  EMPTY_AUDIT_FILTERS,
  ipText,
  pageCount,
  pageRangeText,
  SYSTEM_USER_ID,
} from '@/features/audit/model'

describe('audit model', () => {
  it('labels the known actions in French and keeps the others raw', () => {
    expect(actionLabel('create')).toBe('Création')
    expect(actionLabel('update')).toBe('Modification')
    expect(actionLabel('delete')).toBe('Suppression')
    expect(actionLabel('decide')).toBe('Décision')
    expect(actionLabel('start_campaign')).toBe('Lancement de campagne')
    expect(actionLabel('complete_campaign')).toBe('Clôture de campagne')
    expect(actionLabel('import_rights')).toBe('import_rights')
    expect(actionLabel('toString')).toBe('toString')
  })

  it('names the system when an event has no person', () => {
    expect(auditUserLabel({ user_id: null, user_name: null, user_email: null })).toBe('Système')
    expect(auditUserLabel({ user_id: SYSTEM_USER_ID, user_name: null, user_email: null })).toBe('Système')
    expect(auditUserLabel({ user_id: 'u', user_name: 'Marie', user_email: 'm@example.com' })).toBe('Marie')
  })

  it('pretty-prints details and shows - for a missing IP', () => {
    expect(detailsText({ a: 1 })).toBe('{\n  "a": 1\n}')
    expect(detailsText(null)).toBe('')
    expect(ipText(null)).toBe('-')
    expect(ipText('10.0.0.1')).toBe('10.0.0.1')
  })

  it('pages by 100', () => {
    expect(pageCount(0)).toBe(1)
    expect(pageCount(100)).toBe(1)
    expect(pageCount(101)).toBe(2)
    expect(pageRangeText(1, 50, 150)).toBe('Événements 101 à 150 sur 150')
  })

  it('sends only the filters set', () => {
    expect(auditArgs(EMPTY_AUDIT_FILTERS)).toEqual({
      p_search: undefined,
      p_user_id: undefined,
      p_action: undefined,
      p_from: undefined,
      p_to: undefined,
    })
    expect(auditArgs({ ...EMPTY_AUDIT_FILTERS, action: 'decide', search: ' x ' })).toMatchObject({ p_action: 'decide', p_search: 'x' })
  })

  it('writes a CSV row with the event as a sentence and the details as compact JSON last', () => {
    const row = auditCsvRow({
      id: 1,
      user_id: 'u',
      user_name: 'Marie',
      user_email: 'm@example.com',
      action: 'decide',
      resource_type: 'user_rights',
      resource_id: 'r1',
      details: { stage: 'user', decision: 'approved', from_status: 'pending', to_status: 'validated_user' },
      timestamp: '2026-03-05T13:30:00Z',
      ip_address: null,
    })
    expect(row.slice(1)).toEqual([
      'Marie',
      'm@example.com',
      'Décision',
      "Marie a validé le droit d'un utilisateur supprimé sur une application supprimée (Statut : En attente → Validé par l'utilisateur)",
      'Droit',
      'r1',
      '-',
      '{"stage":"user","decision":"approved","from_status":"pending","to_status":"validated_user"}',
    ])
  })

  it('tells an intact seal with the entries agreed: none, the only one, then « Les N entrées »', () => {
    const intact = { intact: true, head_id: 1, head_hash: 'abc', first_broken_id: null, reason: null } as const
    expect(auditSealText({ ...intact, rows_checked: 0 })).toBe('Le journal est vide.')
    expect(auditSealText({ ...intact, rows_checked: 1 })).toBe("L'unique entrée du journal est intacte : elle n'a été ni modifiée ni retirée.")
    expect(auditSealText({ ...intact, rows_checked: 2109 })).toBe(
      "Les 2\u202f109 entrées du journal forment une chaîne intacte : aucune n'a été modifiée, retirée ou insérée.",
    )
  })
})
