import { describe, expect, it } from 'vitest'
import { AUDIT_CSV_HEADER, auditCsvRow, type AuditEvent } from '@/features/audit/model'
import { auditEventText, auditReferences, auditStory, NO_NAMES, resourceTypeLabel, rightReferences, type AuditNames } from '@/features/audit/sentence'
import { toCsv } from '@/lib/csv'

const MARC = 'u-marc'
const JULIE = 'u-julie'
const SAP = 'app-sap'
const RIGHT = 'right-1'
const CAMPAIGN = 'campaign-1'

function event(overrides: Partial<AuditEvent>): AuditEvent {
  return {
    id: 1,
    user_id: MARC,
    user_email: 'manager@example.com',
    user_name: 'Marc Dubois',
    action: 'create',
    resource_type: 'users',
    resource_id: 'x',
    details: {},
    timestamp: '2026-11-20T10:00:00Z',
    ip_address: null,
    ...overrides,
  }
}

const NAMES: AuditNames = {
  users: new Map([
    [MARC, 'Marc Dubois'],
    [JULIE, 'Julie Martin'],
    ['u-emma', 'Emma Girard'],
  ]),
  applications: new Map([[SAP, 'SAP Finance']]),
  campaigns: new Map([[CAMPAIGN, 'Revue annuelle 2025']]),
  rules: new Map([['rule-1', 'Inactivité de 90 jours']]),
  rights: new Map([[RIGHT, { role_name: 'Lecteur', user_id: JULIE, application_id: SAP }]]),
  decisions: new Map([['decision-1', { role_name: 'Lecteur', holder_name: 'Julie Martin', application_name: 'SAP Finance' }]]),
}

const refusal = event({
  action: 'decide',
  resource_type: 'user_rights',
  resource_id: RIGHT,
  details: {
    stage: 'manager',
    decision: 'refused',
    from_status: 'pending',
    to_status: 'refused_manager',
    comment: 'Jamais utilisé',
    holder_id: JULIE,
    application_id: SAP,
    campaign_id: CAMPAIGN,
    decision_id: 'decision-1',
  },
})

describe('audit sentences', () => {
  it('tells a decision with the right, its holder, the application, the comment and the status change', () => {
    expect(auditStory(refusal, NAMES)).toEqual({
      sentence: 'Marc Dubois a refusé le droit « Lecteur » de Julie Martin sur SAP Finance — « Jamais utilisé »',
      changes: [{ label: 'Statut', before: 'En attente', after: 'Refusé par le manager' }],
    })
    const approval = event({ ...refusal, details: { ...(refusal.details as object), decision: 'approved', comment: null, to_status: 'validated_manager' } })
    expect(auditEventText(approval, NAMES)).toBe(
      'Marc Dubois a validé le droit « Lecteur » de Julie Martin sur SAP Finance (Statut : En attente → Validé par le manager)',
    )
    const treatment = event({ ...refusal, details: { ...(refusal.details as object), stage: 'ra', decision: 'approved', to_status: 'treated', comment: '' } })
    expect(auditStory(treatment, NAMES).sentence).toBe('Marc Dubois a traité le droit « Lecteur » de Julie Martin sur SAP Finance')
  })

  it("names a decision from the decision's own copy once the right, the holder and the application are gone", () => {
    const gone: AuditNames = { ...NO_NAMES, decisions: NAMES.decisions }
    expect(auditStory(refusal, gone).sentence).toBe('Marc Dubois a refusé le droit « Lecteur » de Julie Martin sur SAP Finance — « Jamais utilisé »')
    expect(auditStory(refusal, NO_NAMES).sentence).toBe(
      "Marc Dubois a refusé le droit d'un utilisateur supprimé sur une application supprimée — « Jamais utilisé »",
    )
  })

  it('tells the start and the close of a campaign with their figures and scope', () => {
    const start = event({
      action: 'start_campaign',
      resource_type: 'campaigns',
      resource_id: CAMPAIGN,
      details: { rights_attached: 17, scope: { application_id: SAP, account_type: 'privileged' } },
    })
    expect(auditStory(start, NAMES).sentence).toBe(
      'Marc Dubois a lancé la campagne « Revue annuelle 2025 » : 17 droits à revoir (périmètre : SAP Finance, comptes À privilèges)',
    )
    const everything = event({ ...start, details: { rights_attached: 1, scope: { application_id: null, account_type: null } } })
    expect(auditStory(everything, NAMES).sentence).toBe(
      'Marc Dubois a lancé la campagne « Revue annuelle 2025 » : 1 droit à revoir (périmètre : toutes les applications, tous les types de compte)',
    )
    const leftOut = event({ ...start, details: { rights_attached: 11, rights_left_with_ra: 6, scope: { application_id: null, account_type: null } } })
    expect(auditStory(leftOut, NAMES).sentence).toBe(
      "Marc Dubois a lancé la campagne « Revue annuelle 2025 » : 11 droits à revoir (périmètre : toutes les applications, tous les types de compte) ; 6 droits en attente de traitement par le RA n'ont pas été repris",
    )
    const close = event({ action: 'complete_campaign', resource_type: 'campaigns', resource_id: CAMPAIGN, details: { items: 17, rights_sent_to_ra: 14 } })
    expect(auditStory(close, NAMES).sentence).toBe(
      "Marc Dubois a clôturé la campagne « Revue annuelle 2025 » : 17 éléments de revue, 14 droits envoyés au responsable d'application",
    )
    expect(auditStory({ ...close, details: { items: 0, rights_sent_to_ra: 1 } }, NAMES).sentence).toBe(
      "Marc Dubois a clôturé la campagne « Revue annuelle 2025 » : 0 élément de revue, 1 droit envoyé au responsable d'application",
    )
    expect(auditStory({ ...close, details: { items: 2, rights_sent_to_ra: 1500 } }, NAMES).sentence).toBe(
      "Marc Dubois a clôturé la campagne « Revue annuelle 2025 » : 2 éléments de revue, 1\u202f500 droits envoyés au responsable d'application",
    )
    expect(auditStory({ ...close, details: {} }, NO_NAMES).sentence).toBe('Marc Dubois a clôturé une campagne supprimée')
  })

  it('tells creations and deletions from the row written, for every audited table', () => {
    const created = (resource_type: string, row: object) => auditStory(event({ resource_type, details: { new: row } }), NAMES).sentence
    expect(created('users', { first_name: 'Julie', last_name: 'Martin' })).toBe("Marc Dubois a créé l'utilisateur Julie Martin")
    expect(created('applications', { name: 'SAP Finance' })).toBe("Marc Dubois a créé l'application « SAP Finance »")
    expect(created('campaigns', { name: 'Revue T4' })).toBe('Marc Dubois a créé la campagne « Revue T4 »')
    expect(created('control_rules', { name: 'Séparation des tâches' })).toBe('Marc Dubois a créé la règle de contrôle « Séparation des tâches »')
    expect(created('user_rights', { role_name: 'Agent', user_id: 'u-emma', application_id: SAP })).toBe(
      "Marc Dubois a créé le droit « Agent » d'Emma Girard sur SAP Finance",
    )
    const deleted = event({ action: 'delete', resource_type: 'applications', details: { old: { name: 'GitLab' } } })
    expect(auditStory(deleted, NO_NAMES)).toEqual({ sentence: "Marc Dubois a supprimé l'application « GitLab »", changes: [] })
  })

  it('lists the changed fields « avant → après » with French labels and values', () => {
    const update = (resource_type: string, resource_id: string, changes: object) =>
      auditStory(event({ action: 'update', resource_type, resource_id, details: { changes } }), NAMES)
    expect(update('campaigns', CAMPAIGN, { status: { old: 'draft', new: 'active' }, end_date: { old: '2025-11-15', new: '2025-11-30' } })).toEqual({
      sentence: 'Marc Dubois a modifié la campagne « Revue annuelle 2025 »',
      changes: [
        { label: 'Statut', before: 'Brouillon', after: 'Active' },
        { label: 'Date de fin', before: '15 novembre 2025', after: '30 novembre 2025' },
      ],
    })
    expect(update('users', JULIE, { role: { old: 'user', new: 'manager' }, manager_id: { old: MARC, new: 'u-removed' } })).toEqual({
      sentence: "Marc Dubois a modifié l'utilisateur Julie Martin",
      changes: [
        { label: 'Rôle', before: 'Utilisateur', after: 'Manager' },
        { label: 'Manager', before: 'Marc Dubois', after: 'un utilisateur supprimé' },
      ],
    })
    expect(update('user_rights', RIGHT, { status: { old: 'refused_manager', new: 'treated' }, account_type: { old: 'standard', new: 'emergency' } })).toEqual({
      sentence: 'Marc Dubois a modifié le droit « Lecteur » de Julie Martin sur SAP Finance',
      changes: [
        { label: 'Statut', before: 'Refusé par le manager', after: 'Traité' },
        { label: 'Type de compte', before: 'Standard', after: 'Urgence (Break Glass)' },
      ],
    })
    expect(update('control_rules', 'rule-1', { enabled: { old: true, new: false }, parameters: { old: { inactivity_threshold: 90 }, new: {} } })).toEqual({
      sentence: 'Marc Dubois a modifié la règle de contrôle « Inactivité de 90 jours »',
      changes: [
        { label: 'Activée', before: 'Oui', after: 'Non' },
        { label: 'Paramètres', before: "Seuil d'inactivité (jours) : 90", after: '(vide)' },
      ],
    })
    expect(update('applications', 'app-gone', { description: { old: '', new: 'ERP' }, colour: { old: 'a', new: 'b' } })).toEqual({
      sentence: "Marc Dubois a modifié l'application app-gone",
      changes: [
        { label: 'Description', before: '(vide)', after: 'ERP' },
        { label: 'colour', before: 'a', after: 'b' },
      ],
    })
  })

  it('tells a sign-in as such, and a person who is gone as « un utilisateur supprimé »', () => {
    const signIn = event({
      user_id: null,
      user_email: null,
      user_name: 'Système',
      action: 'update',
      resource_id: JULIE,
      details: { changes: { last_login: { old: null, new: '2026-11-22T09:30:00Z' } } },
    })
    expect(auditStory(signIn, NAMES).sentence).toBe("Connexion de l'utilisateur Julie Martin")
    expect(auditStory(signIn, NAMES).changes[0]).toMatchObject({ label: 'Dernière connexion', before: '(vide)' })
    expect(auditStory(signIn, NO_NAMES).sentence).toBe("Connexion d'un utilisateur supprimé")
    expect(auditStory({ ...signIn, action: 'delete', details: { old: {} } }, NO_NAMES).sentence).toBe('Système a supprimé un utilisateur supprimé')
    expect(auditStory(event({ user_name: null, user_email: null, resource_type: 'applications', details: { new: { name: 'X' } } })).sentence).toBe(
      "Un utilisateur supprimé a créé l'application « X »",
    )
    expect(auditStory(event({ user_id: null, user_name: null, user_email: null, resource_type: 'applications', details: null })).sentence).toBe(
      "Le système a créé l'application x",
    )
  })

  it('falls back to a generic sentence for an action it does not know, its details in French where it can', () => {
    const unknown = event({ action: 'import_rights', resource_type: 'campaign_items', resource_id: 'i-1', details: { imported: 3, campaign_id: CAMPAIGN } })
    expect(auditStory(unknown, NAMES)).toEqual({
      sentence: 'Marc Dubois : import_rights — Élément de revue',
      changes: [],
      facts: ['imported : 3', 'Campagne : « Revue annuelle 2025 »'],
    })
    expect(resourceTypeLabel('user_rights')).toBe('Droit')
    expect(resourceTypeLabel('control_rules')).toBe('Règle de contrôle')
    expect(resourceTypeLabel('toString')).toBe('toString')
  })

  it('asks for the names of everything the sentences mention, and for the people and applications of the rights', () => {
    const refs = auditReferences([
      refusal,
      event({ action: 'update', resource_type: 'users', resource_id: JULIE, details: { changes: { manager_id: { old: MARC, new: null } } } }),
      event({ action: 'start_campaign', resource_type: 'campaigns', resource_id: CAMPAIGN, details: { scope: { application_id: 'app-2' } } }),
      event({ action: 'update', resource_type: 'control_rules', resource_id: 'rule-1', details: { changes: { application_id: { old: null, new: 'app-3' } } } }),
      event({ action: 'create', resource_type: 'user_rights', details: { new: { user_id: 'u-emma', application_id: SAP } } }),
    ])
    expect(refs).toEqual({
      users: [JULIE, MARC, 'u-emma'],
      applications: [SAP, 'app-2', 'app-3'],
      campaigns: [CAMPAIGN],
      rules: ['rule-1'],
      rights: [RIGHT],
      decisions: ['decision-1'],
    })
    expect(rightReferences(NAMES.rights.values())).toEqual({ users: [JULIE], applications: [SAP] })
  })

  it('keeps hostile content as text and the CSV formula-safe, with the raw JSON in the last column', () => {
    const hostile = event({
      user_name: '=HYPERLINK("http://evil.example","clic")',
      resource_type: 'applications',
      details: { new: { name: '<img src=x onerror=alert(1)>' } },
    })
    const sentence = auditStory(hostile, NAMES).sentence
    expect(sentence).toBe('=HYPERLINK("http://evil.example","clic") a créé l\'application « <img src=x onerror=alert(1)> »')
    const row = auditCsvRow(hostile, NAMES)
    expect(AUDIT_CSV_HEADER.at(-1)).toBe('Détails (JSON)')
    expect(row[AUDIT_CSV_HEADER.indexOf('Événement')]).toBe(sentence)
    expect(JSON.parse(String(row.at(-1)))).toEqual(hostile.details)
    const lines = toCsv(AUDIT_CSV_HEADER, [row]).split('\r\n')
    expect(lines[1]).toContain(`;"'=HYPERLINK(""http://evil.example"",""clic"") a créé`)
    expect(lines[1]).not.toMatch(/;=/)
  })
})
