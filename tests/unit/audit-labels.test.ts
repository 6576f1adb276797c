// The audit trail in French wherever a person reads it: each action the database writes told as a sentence on the
// audit page, and the evidence pack's Journal rows « Décision : Refusé », with no code and no bare id left in the text.
import { describe, expect, it } from 'vitest'
import { AUDIT_ACTION_LABELS, auditDetails, auditDetailText, type AuditValueFormat } from '@/domain/audit-labels'
import { auditEventText, auditReferences, auditStory, NO_NAMES, type AuditNames } from '@/features/audit/sentence'
import type { AuditEvent } from '@/features/audit/model'
import { journalRows, JOURNAL_COLUMNS, type EvidenceEvent } from '@/features/campaigns/evidence-model'

const MARC = '5b0a2c1e-0000-4000-8000-000000000001'
const JULIE = '5b0a2c1e-0000-4000-8000-000000000002'
const EMMA = '5b0a2c1e-0000-4000-8000-000000000003'
const CAMPAIGN = '5b0a2c1e-0000-4000-8000-0000000000c1'
const SAP = '5b0a2c1e-0000-4000-8000-0000000000a1'
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i

const NAMES: AuditNames = {
  ...NO_NAMES,
  users: new Map([
    [MARC, 'Marc Dubois'],
    [JULIE, 'Julie Martin'],
    [EMMA, 'Emma Girard'],
  ]),
  applications: new Map([[SAP, 'SAP Finance']]),
  campaigns: new Map([[CAMPAIGN, 'Revue T4 2026']]),
}

function event(overrides: Partial<AuditEvent>): AuditEvent {
  return {
    id: 1,
    user_id: MARC,
    user_email: 'manager@example.com',
    user_name: 'Marc Dubois',
    action: 'create',
    resource_type: 'campaigns',
    resource_id: CAMPAIGN,
    details: {},
    timestamp: '2026-11-20T10:00:00Z',
    ip_address: '203.0.113.7',
    ...overrides,
  }
}

/** One event of each action the database writes, with the details its SQL writes (migrations). */
const WRITTEN: Record<string, AuditEvent> = {
  decide: event({
    action: 'decide',
    resource_type: 'user_rights',
    resource_id: 'right-1',
    details: {
      stage: 'manager', decision: 'approved', from_status: 'pending', to_status: 'validated_manager', comment: 'Utile',
      holder_id: JULIE, application_id: SAP, campaign_id: CAMPAIGN, item_id: 'item-1', decision_id: 'decision-1',
      acting_as: 'delegate', on_behalf_of: EMMA, on_behalf_of_name: 'Emma Girard',
    },
  }),
  start_campaign: event({ action: 'start_campaign', details: { rights_attached: 12, rights_left_with_ra: 0, scope: { application_id: SAP, account_type: 'privileged' } } }),
  complete_campaign: event({ action: 'complete_campaign', details: { rights_sent_to_ra: 2, items: 12 } }),
  sign_off: event({ action: 'sign_off', details: { stage: 'bpo_metier', items: 7, statement: "Je certifie avoir revu l'ensemble des droits qui m'étaient confiés" } }),
  delegate: event({
    action: 'delegate',
    resource_type: 'review_delegations',
    resource_id: 'delegation-1',
    details: { campaign_id: CAMPAIGN, delegator_id: MARC, delegator_name: 'Marc Dubois', delegate_id: JULIE, delegate_name: 'Julie Martin', stage: 'manager', items: 3, reason: 'Congés', ends_on: '2026-12-31' },
  }),
  reassign: event({
    action: 'reassign',
    resource_type: 'review_delegations',
    resource_id: 'delegation-2',
    details: { campaign_id: CAMPAIGN, delegator_id: EMMA, delegator_name: 'Emma Girard', delegate_id: JULIE, delegate_name: 'Julie Martin', stage: 'ra', items: null, reason: 'Départ', ends_on: '2026-12-31' },
  }),
  revoke_delegation: event({
    action: 'revoke_delegation',
    resource_type: 'review_delegations',
    resource_id: 'delegation-1',
    details: { campaign_id: CAMPAIGN, delegator_id: MARC, delegate_id: JULIE, reason: 'Compte désactivé' },
  }),
  set_fallback_reviewers: event({
    action: 'set_fallback_reviewers',
    details: { changes: { fallback_reviewers: { old: [MARC], new: [MARC, JULIE] } } },
  }),
  import_directory: event({
    action: 'import_directory',
    resource_type: 'users',
    resource_id: null,
    details: { lines: 40, created: 2, updated: 3, moved: 1, reactivated: 0, leaving: 1, complete: true },
  }),
  invite_users: event({ action: 'invite_users', resource_type: 'users', resource_id: null, details: { invited: 4 } }),
  import_applications: event({ action: 'import_applications', resource_type: 'applications', resource_id: null, details: { lines: 5, created: 1, updated: 2 } }),
  import_rights_snapshot: event({
    action: 'import_rights_snapshot',
    resource_type: 'applications',
    resource_id: SAP,
    details: { source: 'csv', lines: 10, created: 1, absent: 2, verified: 1, unverified: 1 },
  }),
  reset_second_factor: event({ action: 'reset_second_factor', resource_type: 'users', resource_id: JULIE, details: { email: 'julie@example.com', factors: 1 } }),
  requeue_notifications: event({ action: 'requeue_notifications', resource_type: 'notifications', resource_id: null, details: { messages: 5 } }),
  create: event({ details: { new: { id: CAMPAIGN, name: 'Revue T4 2026', status: 'draft', created_by: MARC, account_type: null } } }),
  update: event({
    action: 'update',
    resource_type: 'users',
    resource_id: JULIE,
    details: { changes: { active: { old: true, new: false }, deactivated_at: { old: null, new: '2026-11-20T10:00:00Z' }, deactivated_by: { old: null, new: MARC } } },
  }),
  delete: event({ action: 'delete', resource_type: 'control_rules', resource_id: 'rule-1', details: { old: { id: 'rule-1', name: 'SoD', enabled: true } } }),
}

describe('the audit page tells every action the database writes in French', () => {
  it('has an example of each labelled action', () => {
    expect(Object.keys(WRITTEN).sort()).toEqual(Object.keys(AUDIT_ACTION_LABELS).sort())
  })

  it.each(Object.keys(WRITTEN))('%s: a sentence without its code, with names rather than ids', (action) => {
    const written = WRITTEN[action]!
    const text = auditEventText(written, NAMES)
    expect(text).not.toMatch(UUID)
    expect(text).not.toMatch(/\b[a-z]+_[a-z_]+\b/)
    expect(text).not.toContain(` ${action} `)
    expect(text.startsWith('Marc Dubois') || text.startsWith('Connexion')).toBe(true)
  })

  it('tells the new actions as sentences', () => {
    const sentence = (action: string) => auditEventText(WRITTEN[action]!, NAMES)
    expect(sentence('sign_off')).toBe(
      "Marc Dubois a signé l'étape BPO Métier de la campagne « Revue T4 2026 » (7 éléments de revue) : « Je certifie avoir revu l'ensemble des droits qui m'étaient confiés »",
    )
    expect(sentence('delegate')).toBe(
      "Marc Dubois a délégué 3 revues à Julie Martin jusqu'au 31 décembre 2026 (campagne « Revue T4 2026 », étape Manager) — « Congés »",
    )
    expect(sentence('reassign')).toContain("a réaffecté les revues d'Emma Girard à Julie Martin")
    expect(sentence('revoke_delegation')).toBe(
      'Marc Dubois a mis fin à la délégation des revues de Marc Dubois à Julie Martin (campagne « Revue T4 2026 ») — « Compte désactivé »',
    )
    expect(sentence('set_fallback_reviewers')).toBe(
      'Marc Dubois a changé les relecteurs de secours de la campagne « Revue T4 2026 » (Relecteurs de secours : Marc Dubois → Marc Dubois, Julie Martin)',
    )
    expect(sentence('import_directory')).toBe(
      "Marc Dubois a importé l'annuaire (Lignes lues : 40 ; Créations : 2 ; Modifications : 3 ; Changements de manager : 1 ; Réactivations : 0 ; Départs : 1 ; Annuaire complet : Oui)",
    )
    expect(sentence('invite_users')).toBe('Marc Dubois a invité 4 personnes à créer leur compte')
    expect(sentence('reset_second_factor')).toBe('Marc Dubois a réinitialisé le second facteur de Julie Martin (Facteurs supprimés : 1)')
    expect(sentence('requeue_notifications')).toBe('Marc Dubois a relancé 5 messages en attente')
  })

  it('names the person who deactivated someone instead of their id', () => {
    expect(auditReferences([WRITTEN.update!]).users).toEqual([JULIE, MARC])
    expect(auditStory(WRITTEN.update!, NAMES).changes).toEqual([
      { label: 'Actif', before: 'Oui', after: 'Non' },
      { label: 'Désactivé le', before: '(vide)', after: '20 novembre 2026 à 10:00' },
      { label: 'Désactivé par', before: '(vide)', after: 'Marc Dubois' },
    ])
  })

  it('asks for the names of the people a delegation and the fallback reviewers point to', () => {
    const refs = auditReferences([WRITTEN.revoke_delegation!, WRITTEN.set_fallback_reviewers!])
    expect(refs.users).toEqual([MARC, JULIE])
    expect(refs.campaigns).toEqual([CAMPAIGN])
  })
})

describe('the details of an event in words', () => {
  const noNames: AuditValueFormat = { name: () => null, date: (value) => `date ${value}`, timestamp: (value) => `instant ${value}` }

  it('writes codes by their words and leaves out the ids it cannot name', () => {
    const lines = auditDetails(WRITTEN.decide!, noNames).map(auditDetailText)
    expect(lines).toEqual([
      'Étape : Manager',
      'Décision : Validé',
      'Statut avant : En attente',
      'Statut après : Validé par le manager',
      'Commentaire : Utile',
      'Décidé en tant que : Délégué',
      'Pour le compte de : Emma Girard',
    ])
  })

  it('flattens a start’s scope and leaves a change to an unnamed person out', () => {
    expect(auditDetails(WRITTEN.start_campaign!, noNames).map(auditDetailText)).toEqual([
      'Droits à revoir : 12',
      'Droits laissés au RA : 0',
      'Type de compte : À privilèges',
    ])
    expect(auditDetails(WRITTEN.update!, noNames).map(auditDetailText)).toEqual([
      'Actif : Oui → Non',
      'Désactivé le : (vide) → instant 2026-11-20T10:00:00Z',
    ])
  })
})

describe('the evidence pack’s Journal', () => {
  const journalEvent = (written: AuditEvent): EvidenceEvent => {
    const { user_id: _user, ...rest } = written
    void _user
    return rest
  }

  it('reads French: actions, resources and details, « Décision : Validé », no code and no id in the details', () => {
    const rows = journalRows(Object.values(WRITTEN).map(journalEvent))
    const column = (name: string) => JOURNAL_COLUMNS.indexOf(name)
    const decision = rows[0]!
    expect(decision[column('Action')]).toBe('Décision')
    expect(decision[column('Ressource')]).toBe('Droit')
    expect(decision[column('Détails')]).toBe(
      'Étape : Manager ; Décision : Validé ; Statut avant : En attente ; Statut après : Validé par le manager ; Commentaire : Utile ; Décidé en tant que : Délégué ; Pour le compte de : Emma Girard',
    )
    const byAction = new Map(rows.map((row, index) => [Object.keys(WRITTEN)[index]!, row]))
    expect(byAction.get('sign_off')![column('Action')]).toBe('Signature de campagne')
    expect(byAction.get('sign_off')![column('Détails')]).toBe(
      "Étape : BPO Métier ; Éléments de revue : 7 ; Attestation : Je certifie avoir revu l'ensemble des droits qui m'étaient confiés",
    )
    expect(byAction.get('delegate')![column('Ressource')]).toBe('Délégation')
    expect(byAction.get('delegate')![column('Détails')]).toBe(
      'Délégant : Marc Dubois ; Délégataire : Julie Martin ; Étape : Manager ; Éléments de revue : 3 ; Motif : Congés ; Fin de la délégation : 31 décembre 2026',
    )
    expect(byAction.get('update')![column('Détails')]).toBe('Actif : Oui → Non ; Désactivé le : (vide) → 20 novembre 2026 à 10:00')
    for (const row of rows) {
      expect(row[column('Action')]).not.toMatch(/_|^[a-z]/)
      expect(row[column('Détails')]).not.toMatch(UUID)
      expect(row[column('Détails')]).not.toMatch(/\b[a-z]+_[a-z_]+\b/)
    }
  })
})
