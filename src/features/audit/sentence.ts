/**
 * Each audit event as a French sentence a person can read, from what the database writes in `details`:
 * the row triggers (create: `{ new }`, delete: `{ old }`, update: `{ changes: { field: { old, new } } }`),
 * validate_user_right (decide), the campaign transitions, and the other audited functions (sign-offs, delegations,
 * imports…), in the words of src/domain/audit-labels.ts. Pure: the names of the people, applications, campaigns and
 * rights an event points to come in `AuditNames`, read by the api; an id is never shown in place of a name.
 */
import { formatDate, formatDateTime } from '@/lib/dates'
import { accountTypeLabel } from '@/domain/labels'
import {
  AUDIT_COLUMNS,
  auditActionLabel,
  auditChanges,
  auditDetails,
  auditDetailText,
  auditField,
  auditResourceLabel,
  auditValueText,
  AUDIT_STAGE_LABELS,
  type AuditValueFormat,
  type AuditValueKind,
} from '@/domain/audit-labels'
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
  /** What else the event says, one « field : value » a line, when its sentence does not tell it. */
  facts?: string[]
}

/** French for the known tables, the raw name otherwise. */
export const resourceTypeLabel = auditResourceLabel

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

/** The ids of people, applications and campaigns an object's fields hold, by the fields' kinds, nested ones included. */
function collectIds(type: string, object: Json, addKind: (kind: AuditValueKind | undefined, value: unknown) => void) {
  for (const [key, value] of Object.entries(object)) {
    const kind = auditField(type, key)?.kind
    if (key === 'changes' && isObject(value)) {
      for (const [field, change] of Object.entries(value)) {
        if (!isObject(change)) continue
        addKind(auditField(type, field)?.kind, change.old)
        addKind(auditField(type, field)?.kind, change.new)
      }
    } else if (isObject(value) && kind === undefined) {
      collectIds(type, value, addKind)
    } else {
      addKind(kind, value)
    }
  }
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
  const addKind = (kind: AuditValueKind | undefined, value: unknown) => {
    if (kind === 'user') add(sets.users, value)
    else if (kind === 'users' && Array.isArray(value)) value.forEach((id) => add(sets.users, id))
    else if (kind === 'application') add(sets.applications, value)
    else if (kind === 'campaign') add(sets.campaigns, value)
  }

  for (const event of events) {
    const details = detailsOf(event)
    if (event.action === 'decide') {
      add(sets.decisions, details.decision_id)
      add(sets.rights, event.resource_id)
    } else if (event.action !== 'create' && event.action !== 'delete') {
      // The resource an event names by its id: a created or deleted row names itself.
      if (event.resource_type === 'users') add(sets.users, event.resource_id)
      if (event.resource_type === 'applications') add(sets.applications, event.resource_id)
      if (event.resource_type === 'campaigns') add(sets.campaigns, event.resource_id)
      if (event.resource_type === 'control_rules') add(sets.rules, event.resource_id)
      if (event.resource_type === 'user_rights') add(sets.rights, event.resource_id)
    }
    collectIds(event.resource_type, details, addKind)
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
  return (typeof id === 'string' && names.applications.get(id)) || 'une application supprimée'
}

function campaignName(names: AuditNames, id: unknown): string {
  const name = typeof id === 'string' ? names.campaigns.get(id) : undefined
  return name ? `« ${name} »` : 'une campagne supprimée'
}

/** « la campagne « Revue T4 » », or « une campagne supprimée ». */
function theCampaign(names: AuditNames, id: unknown): string {
  const name = typeof id === 'string' ? names.campaigns.get(id) : undefined
  return name ? `la campagne « ${name} »` : 'une campagne supprimée'
}

/** « campagne « Revue T4 » », as an aside in parentheses. */
const inCampaign = (names: AuditNames, id: unknown) => theCampaign(names, id).replace(/^la /, '')

/** Values as the page shows them: names for ids (a removed one said so), dates the French way. */
function pageFormat(names: AuditNames): AuditValueFormat {
  return {
    name: (kind, id) => (kind === 'user' ? userName(names, id) : kind === 'application' ? applicationName(names, id) : campaignName(names, id)),
    date: (value) => formatDate(value, value),
    timestamp: (value) => formatDateTime(value, value),
  }
}

function changeList(event: AuditEvent, names: AuditNames): AuditChange[] {
  return auditChanges(event.resource_type, event.details, pageFormat(names)).map(({ label, before, after }) => ({ label, before, after }))
}

/** The details the sentence does not tell, « field : value », without those it names. */
function factList(event: AuditEvent, names: AuditNames, told: readonly string[] = []): string[] {
  const details = detailsOf(event)
  const rest = Object.fromEntries(Object.entries(details).filter(([key]) => !told.includes(key)))
  return auditDetails({ resource_type: event.resource_type, details: rest }, pageFormat(names)).map(auditDetailText)
}

const withFacts = (sentence: string, facts: string[]): AuditStory => (facts.length > 0 ? { sentence, changes: [], facts } : { sentence, changes: [] })

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
    case 'remediation_settings': {
      const application = text(row.application_id) && names.applications.get(row.application_id as string)
      return `le réglage des suppressions${application ? ` de ${application}` : ''}`
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

const statusText = (value: unknown, names: AuditNames) => auditValueText(AUDIT_COLUMNS.user_rights?.status, value, pageFormat(names)) ?? ''

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
      ? [{ label: 'Statut', before: statusText(details.from_status, names), after: statusText(details.to_status, names) }]
      : []
  return { sentence, changes }
}

function startStory(event: AuditEvent, names: AuditNames): string {
  const details = detailsOf(event)
  const attached = count(details.rights_attached)
  let sentence = `${actorText(event)} a lancé ${theCampaign(names, event.resource_id)}`
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
  return `${actorText(event)} a clôturé ${theCampaign(names, event.resource_id)}${parts.length ? ` : ${parts.join(', ')}` : ''}`
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
  const name = typeof event.resource_id === 'string' ? names.applications.get(event.resource_id) : undefined
  return `${actorText(event)} a importé la liste des droits ${name ? `de « ${name} »` : "d'une application supprimée"} ${source} : ${parts.join(', ')}`
}

const stageText = (stage: unknown) => (typeof stage === 'string' ? (AUDIT_STAGE_LABELS[stage] ?? stage) : '')
const reasonText = (details: Json) => (text(details.reason) ? ` — « ${text(details.reason)} »` : '')

function signOffStory(event: AuditEvent, names: AuditNames): string {
  const details = detailsOf(event)
  const campaign = theCampaign(names, event.resource_id)
  const what = text(details.stage) ? `l'étape ${stageText(details.stage)} ${of(campaign)}` : campaign
  const items = count(details.items)
  const statement = text(details.statement)
  return `${actorText(event)} a signé ${what}${items === null ? '' : ` (${countText(items, 'élément de revue', 'éléments de revue')})`}${
    statement ? ` : « ${statement} »` : ''
  }`
}

/** A reviewer's items handed to someone else until a date (delegate: by the reviewer; reassign: by an administrator). */
function delegationStory(event: AuditEvent, names: AuditNames): string {
  const details = detailsOf(event)
  const delegator = text(details.delegator_name) ?? userName(names, details.delegator_id)
  const delegate = text(details.delegate_name) ?? userName(names, details.delegate_id)
  const items = count(details.items)
  // A reviewer handing over their own items: « ses revues », « 3 revues » rather than their own name.
  const own = delegator === actorText(event)
  const counted = items === null ? (own ? 'ses revues' : 'les revues') : countText(items, 'revue', 'revues')
  const what = own ? counted : `${counted} ${of(delegator)}`
  const until = text(details.ends_on) ? ` jusqu'au ${formatDate(details.ends_on as string, String(details.ends_on))}` : ''
  const stage = text(details.stage) ? `, étape ${stageText(details.stage)}` : ''
  const verb = event.action === 'reassign' ? 'a réaffecté' : 'a délégué'
  return `${actorText(event)} ${verb} ${what} à ${delegate}${until} (${inCampaign(names, details.campaign_id)}${stage})${reasonText(details)}`
}

function revocationStory(event: AuditEvent, names: AuditNames): string {
  const details = detailsOf(event)
  const delegator = userName(names, details.delegator_id)
  const delegate = userName(names, details.delegate_id)
  return `${actorText(event)} a mis fin à la délégation des revues ${of(delegator)} à ${delegate} (${inCampaign(names, details.campaign_id)})${reasonText(details)}`
}

/** The actions told by a verb, whose details follow as facts. */
const ACTION_VERBS: Record<string, string> = {
  import_directory: "a importé l'annuaire",
  import_applications: 'a importé la liste des applications',
}

/** The actions of the audited functions, told in full. */
function functionStory(event: AuditEvent, names: AuditNames): AuditStory {
  const details = detailsOf(event)
  const actor = actorText(event)
  switch (event.action) {
    case 'sign_off':
      return { sentence: signOffStory(event, names), changes: [] }
    case 'delegate':
    case 'reassign':
      return { sentence: delegationStory(event, names), changes: [] }
    case 'revoke_delegation':
      return { sentence: revocationStory(event, names), changes: [] }
    case 'set_fallback_reviewers':
      return { sentence: `${actor} a changé les relecteurs de secours ${of(theCampaign(names, event.resource_id))}`, changes: changeList(event, names) }
    case 'invite_users':
      return { sentence: `${actor} a invité ${countText(count(details.invited) ?? 0, 'personne', 'personnes')} à créer leur compte`, changes: [] }
    case 'reset_second_factor': {
      const person = (event.resource_id && names.users.get(event.resource_id)) || text(details.email) || DELETED_USER
      return withFacts(`${actor} a réinitialisé le second facteur ${of(person)}`, factList(event, names, ['email']))
    }
    case 'requeue_notifications':
      return { sentence: `${actor} a relancé ${countText(count(details.messages) ?? 0, 'message en attente', 'messages en attente')}`, changes: [] }
  }
  const verb = Object.hasOwn(ACTION_VERBS, event.action) ? ACTION_VERBS[event.action] : undefined
  const sentence = verb ? `${actor} ${verb}` : `${actor} : ${auditActionLabel(event.action)} — ${resourceTypeLabel(event.resource_type)}`
  return withFacts(sentence, factList(event, names))
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
    default:
      return functionStory(event, names)
  }
}

export const changeText = (change: AuditChange) => `${change.label} : ${change.before} → ${change.after}`

/** The sentence, its changes and its facts on one line, as the CSV's « Événement » column gives it. */
export function auditEventText(event: AuditEvent, names: AuditNames = NO_NAMES): string {
  const { sentence, changes, facts = [] } = auditStory(event, names)
  const lines = [...changes.map(changeText), ...facts]
  return lines.length === 0 ? sentence : `${sentence} (${lines.join(' ; ')})`
}
