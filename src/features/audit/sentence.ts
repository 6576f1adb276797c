/**
 * Each audit event as a French sentence a person can read, from what the database writes in `details`:
 * the row triggers (create: `{ new }`, delete: `{ old }`, update: `{ changes: { field: { old, new } } }`),
 * validate_user_right (decide) and the campaign transitions (start_campaign, complete_campaign). Pure: the names of the
 * people, applications, campaigns and rights an event points to come in `AuditNames`, read by the api.
 */
import { formatDate, formatDateTime } from '@/lib/dates'
import { accountTypeLabel, campaignStatusLabel, rightStatusLabel, roleLabel } from '@/domain/labels'
import { countText } from '@/domain/plural'
import type { AuditEvent } from './model'

export interface AuditRightName {
  role_name: string
  user_id: string
  application_id: string
}

/** A decision's own copy of what was decided on: it outlives the right, the holder and the application. */
export interface AuditDecisionName {
  role_name: string
  holder_name: string
  application_name: string
}

export interface AuditNames {
  users: ReadonlyMap<string, string>
  applications: ReadonlyMap<string, string>
  campaigns: ReadonlyMap<string, string>
  rules: ReadonlyMap<string, string>
  rights: ReadonlyMap<string, AuditRightName>
  decisions: ReadonlyMap<string, AuditDecisionName>
}

export const NO_NAMES: AuditNames = {
  users: new Map(),
  applications: new Map(),
  campaigns: new Map(),
  rules: new Map(),
  rights: new Map(),
  decisions: new Map(),
}

/** The ids whose names the sentences need, per table. */
export interface AuditReferences {
  users: string[]
  applications: string[]
  campaigns: string[]
  rules: string[]
  rights: string[]
  decisions: string[]
}

export interface AuditChange {
  label: string
  before: string
  after: string
}

export interface AuditStory {
  sentence: string
  changes: AuditChange[]
}

const RESOURCE_TYPE_LABELS: Record<string, string> = {
  users: 'Utilisateur',
  user_rights: 'Droit',
  campaigns: 'Campagne',
  applications: 'Application',
  control_rules: 'Règle de contrôle',
  campaign_items: 'Élément de revue',
  right_decisions: 'Décision',
  right_removals: 'Suppression de droit',
  remediation_settings: 'Réglage des suppressions',
}

/** French for the known tables, the raw name otherwise. */
export function resourceTypeLabel(type: string): string {
  return Object.hasOwn(RESOURCE_TYPE_LABELS, type) ? (RESOURCE_TYPE_LABELS[type] as string) : type
}

type Kind = 'user' | 'application' | 'campaign' | 'date' | 'timestamp' | 'role' | 'account_type' | 'right_status' | 'campaign_status' | 'removal'

// A removal's states, means, sources and the connector's outcomes, as the RSSI's tile and the evidence pack name them.
const REMOVAL_LABELS: Record<string, string> = {
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

interface Field {
  label: string
  kind?: Kind
}

const USER_FIELD = (label: string): Field => ({ label, kind: 'user' })

// Per table, as the columns of the migrations; a column not listed keeps its own name.
const FIELDS: Record<string, Record<string, Field>> = {
  users: {
    email: { label: 'E-mail' },
    first_name: { label: 'Prénom' },
    last_name: { label: 'Nom' },
    role: { label: 'Rôle', kind: 'role' },
    position: { label: 'Poste' },
    department: { label: 'Département' },
    manager_id: USER_FIELD('Manager'),
    last_login: { label: 'Dernière connexion', kind: 'timestamp' },
  },
  applications: {
    name: { label: 'Nom' },
    description: { label: 'Description' },
    ra_id: USER_FIELD("Responsable d'application"),
    bpo_metier_id: USER_FIELD('BPO Métier'),
    bpo_groupe_id: USER_FIELD('BPO Groupe'),
    rssi_id: USER_FIELD('RSSI'),
  },
  campaigns: {
    name: { label: 'Nom' },
    description: { label: 'Description' },
    application_id: { label: 'Application', kind: 'application' },
    account_type: { label: 'Type de compte', kind: 'account_type' },
    start_date: { label: 'Date de début', kind: 'date' },
    end_date: { label: 'Date de fin', kind: 'date' },
    status: { label: 'Statut', kind: 'campaign_status' },
    created_by: USER_FIELD('Créée par'),
  },
  user_rights: {
    user_id: USER_FIELD('Titulaire'),
    application_id: { label: 'Application', kind: 'application' },
    role_name: { label: 'Rôle' },
    account_type: { label: 'Type de compte', kind: 'account_type' },
    justification: { label: 'Justification' },
    status: { label: 'Statut', kind: 'right_status' },
    granted_at: { label: "Date d'attribution", kind: 'date' },
    last_used_at: { label: 'Dernière utilisation', kind: 'date' },
    validated_at: { label: 'Validé le', kind: 'timestamp' },
    validated_by: USER_FIELD('Validé par'),
    review_comment: { label: 'Commentaire de revue' },
    campaign_id: { label: 'Campagne', kind: 'campaign' },
  },
  right_removals: {
    state: { label: 'État', kind: 'removal' },
    method: { label: 'Moyen', kind: 'removal' },
    ticket: { label: 'Ticket' },
    verified_at: { label: 'Constatée le', kind: 'timestamp' },
    verified_source: { label: 'Source du constat', kind: 'removal' },
    unverified_at: { label: 'Non constatée le', kind: 'timestamp' },
    applied_at: { label: 'Appliquée par le connecteur le', kind: 'timestamp' },
    apply_outcome: { label: 'Résultat du connecteur', kind: 'removal' },
    apply_message: { label: 'Message du connecteur' },
  },
  control_rules: {
    name: { label: 'Nom' },
    description: { label: 'Description' },
    global: { label: 'Globale' },
    application_id: { label: 'Application', kind: 'application' },
    parameters: { label: 'Paramètres' },
    enabled: { label: 'Activée' },
  },
}

const DELETED_USER = 'un utilisateur supprimé'

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null)

function detailsOf(event: AuditEvent): Json {
  return isObject(event.details) ? event.details : {}
}

/** The row a create (`new`) or a delete (`old`) wrote. */
function rowOf(event: AuditEvent): Json {
  const details = detailsOf(event)
  const row = event.action === 'delete' ? details.old : details.new
  return isObject(row) ? row : {}
}

function changesOf(event: AuditEvent): [string, Json][] {
  const changes = detailsOf(event).changes
  if (!isObject(changes)) return []
  return Object.entries(changes).filter((entry): entry is [string, Json] => isObject(entry[1]))
}

/** Every id the event's sentence and changes name. */
export function auditReferences(events: readonly AuditEvent[]): AuditReferences {
  const sets = {
    users: new Set<string>(),
    applications: new Set<string>(),
    campaigns: new Set<string>(),
    rules: new Set<string>(),
    rights: new Set<string>(),
    decisions: new Set<string>(),
  }
  const add = (set: Set<string>, value: unknown) => {
    if (typeof value === 'string' && value !== '') set.add(value)
  }
  const addKind = (kind: Kind | undefined, value: unknown) => {
    if (kind === 'user') add(sets.users, value)
    else if (kind === 'application') add(sets.applications, value)
    else if (kind === 'campaign') add(sets.campaigns, value)
  }

  for (const event of events) {
    const details = detailsOf(event)
    const fields = FIELDS[event.resource_type] ?? {}
    if (event.action === 'decide') {
      add(sets.decisions, details.decision_id)
      add(sets.users, details.holder_id)
      add(sets.applications, details.application_id)
      add(sets.rights, event.resource_id)
    } else if (event.action === 'sign_off') {
      add(sets.campaigns, event.resource_id)
    } else if (event.action === 'import_rights_snapshot') {
      add(sets.applications, event.resource_id)
    } else if (event.action === 'start_campaign' || event.action === 'complete_campaign') {
      add(sets.campaigns, event.resource_id)
      if (isObject(details.scope)) add(sets.applications, details.scope.application_id)
    } else if (event.action === 'update') {
      if (event.resource_type === 'users') add(sets.users, event.resource_id)
      if (event.resource_type === 'applications') add(sets.applications, event.resource_id)
      if (event.resource_type === 'campaigns') add(sets.campaigns, event.resource_id)
      if (event.resource_type === 'control_rules') add(sets.rules, event.resource_id)
      if (event.resource_type === 'user_rights') add(sets.rights, event.resource_id)
      for (const [field, change] of changesOf(event)) {
        addKind(fields[field]?.kind, change.old)
        addKind(fields[field]?.kind, change.new)
      }
    } else if (event.resource_type === 'user_rights') {
      const row = rowOf(event)
      add(sets.users, row.user_id)
      add(sets.applications, row.application_id)
    }
  }
  return {
    users: [...sets.users],
    applications: [...sets.applications],
    campaigns: [...sets.campaigns],
    rules: [...sets.rules],
    rights: [...sets.rights],
    decisions: [...sets.decisions],
  }
}

/** The users and applications of the rights found, which only a second read can name. */
export function rightReferences(rights: Iterable<AuditRightName>): Pick<AuditReferences, 'users' | 'applications'> {
  const users = new Set<string>()
  const applications = new Set<string>()
  for (const right of rights) {
    users.add(right.user_id)
    applications.add(right.application_id)
  }
  return { users: [...users], applications: [...applications] }
}

function userName(names: AuditNames, id: unknown): string {
  return (typeof id === 'string' && names.users.get(id)) || DELETED_USER
}

function applicationName(names: AuditNames, id: unknown): string {
  if (typeof id !== 'string' || id === '') return 'une application supprimée'
  return names.applications.get(id) ?? `l'application ${id}`
}

function campaignName(names: AuditNames, id: unknown): string {
  if (typeof id !== 'string' || id === '') return 'une campagne supprimée'
  const name = names.campaigns.get(id)
  return name ? `« ${name} »` : id
}

function valueText(field: Field | undefined, value: unknown, names: AuditNames): string {
  if (value === null || value === undefined || value === '') return '(vide)'
  switch (field?.kind) {
    case 'user':
      return userName(names, value)
    case 'application':
      return applicationName(names, value)
    case 'campaign':
      return campaignName(names, value)
    case 'date':
      return formatDate(value as string, String(value))
    case 'timestamp':
      return formatDateTime(value as string, String(value))
    case 'role':
      return roleLabel(String(value))
    case 'account_type':
      return accountTypeLabel(String(value))
    case 'right_status':
      return rightStatusLabel(String(value))
    case 'campaign_status':
      return campaignStatusLabel(String(value))
    case 'removal':
      return REMOVAL_LABELS[String(value)] ?? String(value)
  }
  if (typeof value === 'boolean') return value ? 'Oui' : 'Non'
  if (typeof value === 'string') return value
  return JSON.stringify(value)
}

function changeList(event: AuditEvent, names: AuditNames): AuditChange[] {
  const fields = FIELDS[event.resource_type] ?? {}
  return changesOf(event).map(([key, change]) => {
    const field = fields[key]
    return { label: field?.label ?? key, before: valueText(field, change.old, names), after: valueText(field, change.new, names) }
  })
}

/** « de Julie Martin », « d'Emma Girard »: French elides before a vowel. */
const of = (name: string) => (/^[aeiouyàâäéèêëîïôöùûü]/i.test(name) ? `d'${name}` : `de ${name}`)

function rightPhrase(role: string | null, holder: string, application: string): string {
  return `le droit ${role ? `« ${role} » ` : ''}${of(holder)} sur ${application}`
}

/** The resource with its article: « l'application « SAP Finance » », « le droit « Lecteur » de Julie Martin sur SAP Finance ». */
function subjectPhrase(event: AuditEvent, names: AuditNames): string {
  const row = rowOf(event)
  const id = event.resource_id ?? ''
  switch (event.resource_type) {
    case 'users': {
      const own = [text(row.first_name), text(row.last_name)].filter(Boolean).join(' ')
      const name = own || names.users.get(id)
      return name ? `l'utilisateur ${name}` : DELETED_USER
    }
    case 'applications': {
      const name = text(row.name) ?? names.applications.get(id)
      return name ? `l'application « ${name} »` : `l'application ${id}`
    }
    case 'campaigns': {
      const name = text(row.name) ?? names.campaigns.get(id)
      return name ? `la campagne « ${name} »` : `la campagne ${id}`
    }
    case 'control_rules': {
      const name = text(row.name) ?? names.rules.get(id)
      return name ? `la règle de contrôle « ${name} »` : `la règle de contrôle ${id}`
    }
    case 'user_rights': {
      const right = names.rights.get(id)
      const role = text(row.role_name) ?? right?.role_name ?? null
      const holder = row.user_id ?? right?.user_id
      const application = row.application_id ?? right?.application_id
      if (!role && holder === undefined) return `le droit ${id}`
      return rightPhrase(role, userName(names, holder), applicationName(names, application))
    }
    case 'right_removals': {
      const role = text(row.role_name)
      if (!role) return `la suppression de droit ${id}`
      return `la suppression du ${rightPhrase(role, text(row.holder_name) ?? DELETED_USER, text(row.application_name) ?? '').replace(/^le /, '')}`
    }
    default:
      return `${resourceTypeLabel(event.resource_type).toLowerCase()} ${id}`.trim()
  }
}

/** The person who acted as the row recorded them; the system when nobody did. */
function actorText(event: AuditEvent): string {
  if (event.user_name) return event.user_name
  if (event.user_email) return event.user_email
  return event.user_id ? 'Un utilisateur supprimé' : 'Le système'
}

const VERBS: Record<string, string> = { create: 'a créé', update: 'a modifié', delete: 'a supprimé' }

function decisionStory(event: AuditEvent, names: AuditNames): AuditStory {
  const details = detailsOf(event)
  const copy = typeof details.decision_id === 'string' ? names.decisions.get(details.decision_id) : undefined
  const right = event.resource_id ? names.rights.get(event.resource_id) : undefined
  const role = copy?.role_name ?? right?.role_name ?? null
  const holder = copy?.holder_name ?? userName(names, details.holder_id)
  const application = copy?.application_name ?? applicationName(names, details.application_id)
  const verb = details.stage === 'ra' ? 'a traité' : details.decision === 'refused' ? 'a refusé' : 'a validé'
  const comment = text(details.comment)
  // A delegate decides for the reviewer, a fallback reviewer for an item without one (validate_user_right).
  const onBehalf = text(details.on_behalf_of_name)
  const acting = onBehalf ? ` pour le compte de ${onBehalf}` : details.acting_as === 'fallback' ? ' comme relecteur de secours' : ''
  const sentence = `${actorText(event)} ${verb} ${rightPhrase(role, holder, application)}${acting}${comment ? ` — « ${comment} »` : ''}`
  const changes =
    details.from_status || details.to_status
      ? [{ label: 'Statut', before: valueText(FIELDS.user_rights?.status, details.from_status, names), after: valueText(FIELDS.user_rights?.status, details.to_status, names) }]
      : []
  return { sentence, changes }
}

function startStory(event: AuditEvent, names: AuditNames): string {
  const details = detailsOf(event)
  const attached = count(details.rights_attached)
  let sentence = `${actorText(event)} a lancé la campagne ${campaignName(names, event.resource_id)}`
  if (attached !== null) sentence += ` : ${countText(attached, 'droit à revoir', 'droits à revoir')}`
  if (isObject(details.scope)) {
    const application = details.scope.application_id ? applicationName(names, details.scope.application_id) : 'toutes les applications'
    const type = text(details.scope.account_type)
    sentence += ` (périmètre : ${application}, ${type ? `comptes ${accountTypeLabel(type)}` : 'tous les types de compte'})`
  }
  const leftWithRa = count(details.rights_left_with_ra)
  if (leftWithRa) {
    sentence += ` ; ${countText(leftWithRa, "droit en attente de traitement par le RA n'a pas été repris", "droits en attente de traitement par le RA n'ont pas été repris")}`
  }
  return sentence
}

function completeStory(event: AuditEvent, names: AuditNames): string {
  const details = detailsOf(event)
  const items = count(details.items)
  const sent = count(details.rights_sent_to_ra)
  const parts = [
    items === null ? null : countText(items, 'élément de revue', 'éléments de revue'),
    sent === null ? null : `${countText(sent, 'droit envoyé', 'droits envoyés')} au responsable d'application`,
  ].filter(Boolean)
  return `${actorText(event)} a clôturé la campagne ${campaignName(names, event.resource_id)}${parts.length ? ` : ${parts.join(', ')}` : ''}`
}

/** An application's complete list of rights, from a CSV or the directory connector, and the removals it settled. */
function snapshotStory(event: AuditEvent, names: AuditNames): string {
  const details = detailsOf(event)
  const source = details.source === 'connector' ? 'par le connecteur d’annuaire' : 'par un fichier CSV'
  const parts = [
    countText(count(details.created) ?? 0, 'droit ajouté', 'droits ajoutés'),
    countText(count(details.verified) ?? 0, 'suppression constatée', 'suppressions constatées'),
    countText(count(details.unverified) ?? 0, 'suppression non constatée', 'suppressions non constatées'),
  ]
  const name = applicationName(names, event.resource_id)
  return `${actorText(event)} a importé la liste des droits de ${name.startsWith("l'application") ? name : `« ${name} »`} ${source} : ${parts.join(', ')}`
}

/** The event as a sentence and, for an update or a decision, each changed field « avant → après ». */
export function auditStory(event: AuditEvent, names: AuditNames = NO_NAMES): AuditStory {
  switch (event.action) {
    case 'decide':
      return decisionStory(event, names)
    case 'start_campaign':
      return { sentence: startStory(event, names), changes: [] }
    case 'complete_campaign':
      return { sentence: completeStory(event, names), changes: [] }
    case 'import_rights_snapshot':
      return { sentence: snapshotStory(event, names), changes: [] }
    case 'sign_off': {
      const statement = text(detailsOf(event).statement)
      return { sentence: `${actorText(event)} a signé la campagne ${campaignName(names, event.resource_id)}${statement ? ` : « ${statement} »` : ''}`, changes: [] }
    }
    case 'create':
    case 'update':
    case 'delete': {
      const changes = event.action === 'update' ? changeList(event, names) : []
      // A sign-in moves last_login and nothing else.
      if (event.resource_type === 'users' && changes.length === 1 && changesOf(event)[0]?.[0] === 'last_login') {
        return { sentence: `Connexion ${of(subjectPhrase(event, names))}`, changes }
      }
      return { sentence: `${actorText(event)} ${VERBS[event.action]} ${subjectPhrase(event, names)}`, changes }
    }
    default: {
      const target = `${resourceTypeLabel(event.resource_type)}${event.resource_id ? ` ${event.resource_id}` : ''}`
      return { sentence: `${actorText(event)} : action « ${event.action} » sur ${target}`, changes: [] }
    }
  }
}

export const changeText = (change: AuditChange) => `${change.label} : ${change.before} → ${change.after}`

/** The sentence and its changes on one line, as the CSV's « Événement » column gives it. */
export function auditEventText(event: AuditEvent, names: AuditNames = NO_NAMES): string {
  const { sentence, changes } = auditStory(event, names)
  return changes.length === 0 ? sentence : `${sentence} (${changes.map(changeText).join(' ; ')})`
}
