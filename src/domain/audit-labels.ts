/**
 * French words for everything the database writes into public.audit_logs: its actions, the resource types, the fields
 * of its details (the audited tables' columns and the keys the audited functions write) and the values that are codes.
 * The audit page and the campaign's evidence pack both read them here; tests/db/audit-labels.test.ts lists what the
 * migrations can write and fails on anything missing.
 */
import { countText } from './plural'
import {
  ACCOUNT_TYPE_LABELS,
  CAMPAIGN_RECURRENCE_LABELS,
  CAMPAIGN_STATUS_LABELS,
  RIGHT_STATUS_LABELS,
  ROLE_LABELS,
} from './labels'

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  create: 'Création',
  update: 'Modification',
  delete: 'Suppression',
  decide: 'Décision',
  start_campaign: 'Lancement de campagne',
  complete_campaign: 'Clôture de campagne',
  sign_off: 'Signature de campagne',
  delegate: 'Délégation de revues',
  reassign: 'Réaffectation de revues',
  revoke_delegation: 'Fin de délégation',
  set_fallback_reviewers: 'Relecteurs de secours',
  import_directory: "Import de l'annuaire",
  invite_users: 'Invitation de comptes',
  import_applications: 'Import des applications',
  import_rights_snapshot: 'Import de la liste des droits',
  reset_second_factor: 'Réinitialisation du second facteur',
  requeue_notifications: 'Relance des notifications',
}

export const AUDIT_RESOURCE_LABELS: Record<string, string> = {
  users: 'Utilisateur',
  user_rights: 'Droit',
  campaigns: 'Campagne',
  applications: 'Application',
  control_rules: 'Règle de contrôle',
  campaign_items: 'Élément de revue',
  right_decisions: 'Décision',
  right_removals: 'Suppression de droit',
  remediation_settings: 'Réglage des suppressions',
  review_delegations: 'Délégation',
  notifications: 'Notifications',
}

/**
 * How a value reads: a person, an application or a campaign by name (left out when no name is known), another row's
 * id never (`reference`), dates the French way, and the codes by their words.
 */
export type AuditValueKind =
  | 'user'
  | 'users'
  | 'application'
  | 'campaign'
  | 'reference'
  | 'references'
  | 'date'
  | 'timestamp'
  | 'days'
  | 'role'
  | 'account_type'
  | 'right_status'
  | 'campaign_status'
  | 'recurrence'
  | 'stage'
  | 'decision'
  | 'acting_as'
  | 'removal'
  | 'rule_parameters'

export interface AuditField {
  label: string
  kind?: AuditValueKind
}

/** The stages of a review, as the evidence pack's sheets name them. */
export const AUDIT_STAGE_LABELS: Record<string, string> = {
  user: 'Titulaire',
  manager: 'Manager',
  bpo_metier: 'BPO Métier',
  bpo_groupe: 'BPO Groupe',
  ra: 'RA',
}

/** A decision, as the Décisions sheet and the review buttons say it. */
export const AUDIT_DECISION_LABELS: Record<string, string> = { approved: 'Validé', refused: 'Refusé' }

/** Why someone other than the reviewer decided (right_decisions.acting_as). */
export const AUDIT_ACTING_AS_LABELS: Record<string, string> = { delegate: 'Délégué', fallback: 'Relecteur de secours' }

/** A removal's states, means, sources and the connector's outcomes, as the RSSI's tile and the evidence pack name them. */
export const AUDIT_REMOVAL_LABELS: Record<string, string> = {
  requested: 'Suppression demandée',
  verified: 'Suppression constatée',
  unverified: 'Suppression non constatée',
  ticket: 'Ticket',
  connector: 'Connecteur d’annuaire',
  csv: 'Import CSV des droits',
  removed: 'Retiré de l’annuaire',
  already_absent: 'Déjà absent de l’annuaire',
  failed: 'Échec du retrait',
}

/** A control rule's parameters (public.control_rules.parameters). */
const RULE_PARAMETER_LABELS: Record<string, string> = {
  inactivity_threshold: "Seuil d'inactivité (jours)",
  incompatible_roles: 'Rôles incompatibles',
}

const CODE_LABELS: Partial<Record<AuditValueKind, Record<string, string>>> = {
  role: ROLE_LABELS,
  account_type: ACCOUNT_TYPE_LABELS,
  right_status: RIGHT_STATUS_LABELS,
  campaign_status: CAMPAIGN_STATUS_LABELS,
  recurrence: CAMPAIGN_RECURRENCE_LABELS,
  stage: AUDIT_STAGE_LABELS,
  decision: AUDIT_DECISION_LABELS,
  acting_as: AUDIT_ACTING_AS_LABELS,
  removal: AUDIT_REMOVAL_LABELS,
}

const field = (label: string, kind?: AuditValueKind): AuditField => (kind ? { label, kind } : { label })
const ID = field('Identifiant', 'reference')
const CREATED_AT = field('Créé le', 'timestamp')
const UPDATED_AT = field('Modifié le', 'timestamp')

/** The columns of each audited table, as its row events (create, update, delete) carry them. */
export const AUDIT_COLUMNS: Record<string, Record<string, AuditField>> = {
  users: {
    id: ID,
    email: field('E-mail'),
    first_name: field('Prénom'),
    last_name: field('Nom'),
    role: field('Rôle', 'role'),
    position: field('Poste'),
    department: field('Département'),
    manager_id: field('Manager', 'user'),
    last_login: field('Dernière connexion', 'timestamp'),
    active: field('Actif'),
    deactivated_at: field('Désactivé le', 'timestamp'),
    deactivated_by: field('Désactivé par', 'user'),
    created_at: CREATED_AT,
    updated_at: UPDATED_AT,
  },
  applications: {
    id: ID,
    name: field('Nom'),
    description: field('Description'),
    ra_id: field("Responsable d'application", 'user'),
    bpo_metier_id: field('BPO Métier', 'user'),
    bpo_groupe_id: field('BPO Groupe', 'user'),
    rssi_id: field('RSSI', 'user'),
    created_at: CREATED_AT,
    updated_at: UPDATED_AT,
  },
  campaigns: {
    id: ID,
    name: field('Nom'),
    description: field('Description'),
    application_id: field('Application', 'application'),
    account_type: field('Type de compte', 'account_type'),
    start_date: field('Date de début', 'date'),
    end_date: field('Date de fin', 'date'),
    status: field('Statut', 'campaign_status'),
    created_by: field('Créée par', 'user'),
    recurrence: field('Récurrence', 'recurrence'),
    auto_start: field('Lancement automatique'),
    previous_occurrence_id: field('Occurrence précédente', 'campaign'),
    notifications_enabled: field('Notifications'),
    reminders_enabled: field('Relances'),
    reminder_days: field('Jours de relance avant la fin', 'days'),
    escalation_delay_days: field("Délai d'escalade (jours)"),
    created_at: CREATED_AT,
    updated_at: UPDATED_AT,
    // Written by set_fallback_reviewers, as a change of the campaign.
    fallback_reviewers: field('Relecteurs de secours', 'users'),
  },
  user_rights: {
    id: ID,
    user_id: field('Titulaire', 'user'),
    application_id: field('Application', 'application'),
    role_name: field('Rôle'),
    account_type: field('Type de compte', 'account_type'),
    justification: field('Justification'),
    status: field('Statut', 'right_status'),
    granted_at: field("Date d'attribution", 'date'),
    last_used_at: field('Dernière utilisation', 'date'),
    validated_at: field('Validé le', 'timestamp'),
    validated_by: field('Validé par', 'user'),
    review_comment: field('Commentaire de revue'),
    campaign_id: field('Campagne', 'campaign'),
    created_at: CREATED_AT,
    updated_at: UPDATED_AT,
  },
  control_rules: {
    id: ID,
    name: field('Nom'),
    description: field('Description'),
    global: field('Globale'),
    application_id: field('Application', 'application'),
    parameters: field('Paramètres', 'rule_parameters'),
    enabled: field('Activée'),
    created_at: CREATED_AT,
    updated_at: UPDATED_AT,
  },
  remediation_settings: {
    application_id: field('Application', 'application'),
    removal_delay_days: field('Délai de suppression (jours)'),
    connector_managed: field('Géré par le connecteur'),
    updated_at: UPDATED_AT,
  },
  right_removals: {
    id: ID,
    right_id: field('Droit', 'reference'),
    application_id: field('Application', 'application'),
    application_name: field('Application'),
    holder_id: field('Titulaire', 'user'),
    holder_email: field('E-mail du titulaire'),
    holder_name: field('Titulaire'),
    role_name: field('Rôle'),
    campaign_id: field('Campagne', 'campaign'),
    decision_id: field('Décision', 'reference'),
    state: field('État', 'removal'),
    method: field('Moyen', 'removal'),
    ticket: field('Ticket'),
    requested_at: field('Demandée le', 'timestamp'),
    requested_by: field('Demandée par', 'user'),
    requested_by_name: field('Demandée par'),
    due_at: field('Échéance', 'timestamp'),
    verified_at: field('Constatée le', 'timestamp'),
    verified_source: field('Source du constat', 'removal'),
    unverified_at: field('Non constatée le', 'timestamp'),
    applied_at: field('Appliquée par le connecteur le', 'timestamp'),
    apply_outcome: field('Résultat du connecteur', 'removal'),
    apply_message: field('Message du connecteur'),
    updated_at: UPDATED_AT,
  },
}

/** The keys the audited functions write in their own events (decisions, transitions, delegations, imports…). */
export const AUDIT_DETAIL_FIELDS: Record<string, AuditField> = {
  // A decision (validate_user_right).
  stage: field('Étape', 'stage'),
  decision: field('Décision', 'decision'),
  from_status: field('Statut avant', 'right_status'),
  to_status: field('Statut après', 'right_status'),
  comment: field('Commentaire'),
  holder_id: field('Titulaire', 'user'),
  application_id: field('Application', 'application'),
  campaign_id: field('Campagne', 'campaign'),
  item_id: field('Élément de revue', 'reference'),
  decision_id: field('Décision', 'reference'),
  acting_as: field('Décidé en tant que', 'acting_as'),
  on_behalf_of: field('Pour le compte de', 'user'),
  on_behalf_of_name: field('Pour le compte de'),
  // A campaign's start and close.
  rights_attached: field('Droits à revoir'),
  rights_left_with_ra: field('Droits laissés au RA'),
  scope: field('Périmètre'),
  account_type: field('Type de compte', 'account_type'),
  rights_sent_to_ra: field('Droits envoyés au RA'),
  items: field('Éléments de revue'),
  // A sign-off.
  statement: field('Attestation'),
  // A delegation, a reassignment, their end.
  delegator_id: field('Délégant', 'user'),
  delegator_name: field('Délégant'),
  delegate_id: field('Délégataire', 'user'),
  delegate_name: field('Délégataire'),
  reason: field('Motif'),
  ends_on: field('Fin de la délégation', 'date'),
  // The imports, the invitations, a second factor's reset, the notifications sent again.
  source: field('Source', 'removal'),
  lines: field('Lignes lues'),
  created: field('Créations'),
  updated: field('Modifications'),
  moved: field('Changements de manager'),
  reactivated: field('Réactivations'),
  leaving: field('Départs'),
  complete: field('Annuaire complet'),
  absent: field('Absents du fichier'),
  verified: field('Suppressions constatées'),
  unverified: field('Suppressions non constatées'),
  invited: field('Comptes invités'),
  email: field('E-mail'),
  factors: field('Facteurs supprimés'),
  messages: field('Messages relancés'),
}

/** The keys that give details their shape rather than a field: a row created or deleted, the changes of an update. */
export const AUDIT_STRUCTURE_KEYS: readonly string[] = ['new', 'old', 'changes']

/** The field a key names in an event on this resource type: the table's column, else a key of the audited functions. */
export function auditField(resourceType: string, key: string): AuditField | undefined {
  const columns = Object.hasOwn(AUDIT_COLUMNS, resourceType) ? AUDIT_COLUMNS[resourceType] : undefined
  if (columns && Object.hasOwn(columns, key)) return columns[key]
  return Object.hasOwn(AUDIT_DETAIL_FIELDS, key) ? AUDIT_DETAIL_FIELDS[key] : undefined
}

const labelOr = (labels: Record<string, string>, key: string) => (Object.hasOwn(labels, key) ? (labels[key] as string) : key)

export const auditActionLabel = (action: string) => labelOr(AUDIT_ACTION_LABELS, action)
export const auditResourceLabel = (type: string) => labelOr(AUDIT_RESOURCE_LABELS, type)
export const auditFieldLabel = (resourceType: string, key: string) => auditField(resourceType, key)?.label ?? key

/** The French word of a coded value, or undefined when the kind holds no codes or the code is unknown. */
export function auditCodeLabel(kind: AuditValueKind | undefined, code: string): string | undefined {
  const labels = kind ? CODE_LABELS[kind] : undefined
  return labels && Object.hasOwn(labels, code) ? labels[code] : undefined
}

/** The kinds whose values are codes with words of their own. */
export const AUDIT_CODE_KINDS = Object.keys(CODE_LABELS) as AuditValueKind[]

/** What the caller knows to write a value: names of what ids point to, dates the French way. */
export interface AuditValueFormat {
  /** The name, or null when unknown: the value is then left out rather than shown as an id. */
  name(kind: 'user' | 'application' | 'campaign', id: string): string | null
  date(value: string): string
  timestamp(value: string): string
}

export interface AuditDetail {
  label: string
  value: string
}

export interface AuditFieldChange {
  key: string
  label: string
  before: string
  after: string
}

const EMPTY = '(vide)'
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function parametersText(value: unknown): string {
  if (!isObject(value)) return JSON.stringify(value)
  const parts = Object.entries(value).map(([key, inner]) => {
    const shown = Array.isArray(inner) ? inner.map(String).join(', ') : typeof inner === 'string' ? inner : JSON.stringify(inner)
    return `${labelOr(RULE_PARAMETER_LABELS, key)} : ${shown}`
  })
  return parts.length === 0 ? EMPTY : parts.join(', ')
}

/**
 * A value in words, '(vide)' for nothing, or null when it is an id with no name to show (left out of the text).
 */
export function auditValueText(fieldOf: AuditField | undefined, value: unknown, format: AuditValueFormat): string | null {
  if (value === null || value === undefined || value === '') return EMPTY
  const kind = fieldOf?.kind
  switch (kind) {
    case 'user':
    case 'application':
    case 'campaign':
      return typeof value === 'string' ? format.name(kind, value) : null
    case 'users': {
      if (!Array.isArray(value)) return null
      if (value.length === 0) return EMPTY
      const names = value.map((id) => (typeof id === 'string' ? format.name('user', id) : null))
      return names.every((name) => name !== null) ? names.join(', ') : countText(value.length, 'personne', 'personnes')
    }
    case 'reference':
      return null
    case 'references':
      return Array.isArray(value) ? countText(value.length, 'élément', 'éléments') : null
    case 'date':
      return format.date(String(value))
    case 'timestamp':
      return format.timestamp(String(value))
    case 'days':
      return Array.isArray(value) ? `${value.join(', ')} jours` : String(value)
    case 'rule_parameters':
      return parametersText(value)
  }
  if (typeof value === 'string') return auditCodeLabel(kind, value) ?? value
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non'
  if (typeof value === 'number') return String(value)
  if (Array.isArray(value)) return value.map(String).join(', ')
  return JSON.stringify(value)
}

/** Each changed field of an update (`{ changes: { field: { old, new } } }`), ids without a name left out. */
export function auditChanges(resourceType: string, details: unknown, format: AuditValueFormat): AuditFieldChange[] {
  const changes = isObject(details) ? details.changes : undefined
  if (!isObject(changes)) return []
  const list: AuditFieldChange[] = []
  for (const [key, change] of Object.entries(changes)) {
    if (!isObject(change)) continue
    const fieldOf = auditField(resourceType, key)
    const before = auditValueText(fieldOf, change.old, format)
    const after = auditValueText(fieldOf, change.new, format)
    if (before !== null && after !== null) list.push({ key, label: fieldOf?.label ?? key, before, after })
  }
  return list
}

/** The fields of an object in words, skipping the empty, the ids without a name and an id whose name is given beside it. */
function objectDetails(resourceType: string, object: Record<string, unknown>, format: AuditValueFormat): AuditDetail[] {
  const list: AuditDetail[] = []
  for (const [key, value] of Object.entries(object)) {
    if (value === null || value === undefined || value === '') continue
    if (Object.hasOwn(object, `${key.replace(/_id$/, '')}_name`)) continue
    if (isObject(value) && auditField(resourceType, key)?.kind === undefined) {
      list.push(...objectDetails(resourceType, value, format))
      continue
    }
    const shown = auditValueText(auditField(resourceType, key), value, format)
    if (shown !== null) list.push({ label: auditFieldLabel(resourceType, key), value: shown })
  }
  return list
}

/**
 * The details of an event in words, one field a line: the changes « avant → après », the fields of a row created or
 * deleted, or the keys an audited function wrote.
 */
export function auditDetails(event: { resource_type: string; details: unknown }, format: AuditValueFormat): AuditDetail[] {
  const { details, resource_type: type } = event
  if (!isObject(details)) return details === null || details === undefined ? [] : [{ label: 'Détails', value: String(details) }]
  const list: AuditDetail[] = auditChanges(type, details, format).map((change) => ({
    label: change.label,
    value: `${change.before} → ${change.after}`,
  }))
  for (const key of ['new', 'old'] as const) {
    const row = details[key]
    if (isObject(row)) list.push(...objectDetails(type, row, format))
  }
  const rest = Object.fromEntries(Object.entries(details).filter(([key]) => !AUDIT_STRUCTURE_KEYS.includes(key)))
  list.push(...objectDetails(type, rest, format))
  return list
}

export const auditDetailText = (detail: AuditDetail) => `${detail.label} : ${detail.value}`
