/** The evidence pack of a closed campaign (« Rapport de campagne »): what the database hands over, and its sheets. */
import { format } from 'date-fns'
import { REVIEW_RATE_BASIS, REVIEWED_MEANING, UNDECIDED_AT_CLOSURE_LABEL } from '@/domain/campaign-figures'
import { formatDate, formatDateTime } from '@/lib/dates'
import { accountTypeLabel, campaignStatusLabel, rightStatusLabel } from '@/domain/labels'
import { auditActionLabel, auditDetails, auditDetailText, auditResourceLabel, type AuditValueFormat } from '@/domain/audit-labels'
import { safeCell } from './model'

export type EvidenceStage = 'user' | 'manager' | 'bpo_metier' | 'bpo_groupe' | 'ra'

/** What `verify_audit_chain` answered when the pack was made. */
export interface EvidenceSeal {
  intact: boolean
  rows_checked: number
  head_id: number | null
  head_hash: string | null
  first_broken_id: number | null
  reason: string | null
}

/** `campaign_evidence`'s answer. */
export interface EvidenceSummary {
  campaign: {
    id: string
    name: string
    description: string
    status: string
    start_date: string
    end_date: string
    created_at: string
    created_by_name: string | null
    application_name: string | null
    account_type: string | null
  }
  started: { at: string; by_name: string | null } | null
  completed: { at: string; by_name: string | null } | null
  /** The items, those reviewed (« revus »), those Terminer sent to the RA undecided, and reviewed / items. */
  items: number
  reviewed: number
  undecided: number
  progress: number | null
  by_status: Record<string, number>
  stages: { stage: EvidenceStage; approved: number; refused: number; awaiting: number }[]
  decisions_after_end: number
  generated_at: string
  /** Null for an administrator: verifying the chain is the RSSI's. */
  seal: EvidenceSeal | null
}

/** Times of the items and their decisions are milliseconds since 1970, as `campaign_evidence_items` sends them. */
export interface EvidenceDecision {
  decision: 'approved' | 'refused'
  decided_by_name: string | null
  decided_at: number
  comment: string | null
  ip_address: string | null
}

/** An item of the campaign and its latest decision at each stage. */
export interface EvidenceItem {
  right_id: string
  holder_name: string
  holder_email: string
  manager_name: string | null
  application_name: string
  role_name: string
  account_type: string
  granted_at: number
  last_used_at: number | null
  justification: string | null
  status: string
  decisions: Partial<Record<EvidenceStage, EvidenceDecision>>
  /** The removal the RA asked for after this campaign's refusal (right_removals), read beside the items. */
  removal?: EvidenceRemoval | null
}

/** A right_removals row as the Traitements RA sheet reports it. */
export interface EvidenceRemoval {
  right_id: string
  state: 'requested' | 'verified' | 'unverified'
  method: 'ticket' | 'connector'
  ticket: string | null
  requested_at: string
  requested_by_name: string
  verified_at: string | null
  verified_source: 'csv' | 'connector' | null
  unverified_at: string | null
  apply_outcome: 'removed' | 'already_absent' | 'failed' | null
}

type EvidenceDecisionRow = [
  stage: EvidenceStage,
  decision: EvidenceDecision['decision'],
  decided_by_name: string | null,
  decided_at: number,
  comment: string | null,
  ip_address: string | null,
]

/** One item as `campaign_evidence_items` sends it: an array in the function's fixed order, to keep its pages small. */
export type EvidenceItemRow = [
  right_id: string,
  holder_name: string,
  holder_email: string,
  manager_name: string | null,
  application_name: string,
  role_name: string,
  account_type: string,
  granted_at: number,
  last_used_at: number | null,
  justification: string | null,
  status: string,
  decisions: EvidenceDecisionRow[] | null,
]

export function evidenceItem(row: EvidenceItemRow): EvidenceItem {
  const decisions: EvidenceItem['decisions'] = {}
  for (const [stage, decision, decided_by_name, decided_at, comment, ip_address] of row[11] ?? []) {
    decisions[stage] = { decision, decided_by_name, decided_at, comment, ip_address }
  }
  return {
    right_id: row[0],
    holder_name: row[1],
    holder_email: row[2],
    manager_name: row[3],
    application_name: row[4],
    role_name: row[5],
    account_type: row[6],
    granted_at: row[7],
    last_used_at: row[8],
    justification: row[9],
    status: row[10],
    decisions,
  }
}

/** One `campaign_evidence_journal` row. */
export interface EvidenceEvent {
  id: number
  timestamp: string
  user_name: string | null
  user_email: string | null
  action: string
  resource_type: string
  resource_id: string | null
  details: unknown
  ip_address: string | null
}

/** One `campaign_signoffs_for_evidence` row: a reviewer of a stage, what they had and their signature, if any. */
export interface EvidenceSignoff {
  stage: EvidenceStage
  /** Null: the items of that stage with no reviewer, decided by the campaign's fallback reviewers. */
  reviewer_id: string | null
  reviewer_name: string | null
  reviewer_email: string | null
  items_count: number
  open_count: number
  signed_at: string | null
  ip_address: string | null
}

export interface EvidencePack {
  summary: EvidenceSummary
  items: EvidenceItem[]
  events: EvidenceEvent[]
  signoffs: EvidenceSignoff[]
}

export const EVIDENCE_SHEETS = ['Synthèse', 'Signatures', 'Décisions', 'Traitements RA', 'Journal'] as const

export const SEAL_RESERVED = 'Vérification réservée au RSSI'

const STAGES: readonly EvidenceStage[] = ['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra']

const STAGE_LABELS: Record<EvidenceStage, string> = {
  user: 'Titulaire',
  manager: 'Manager',
  bpo_metier: 'BPO Métier',
  bpo_groupe: 'BPO Groupe',
  ra: 'RA',
}

/** The final outcomes the summary counts, in the order a reader follows the workflow. */
const OUTCOMES: readonly string[] = [
  'validated_user',
  'validated_manager',
  'validated_bpo_metier',
  'validated_bpo_groupe',
  'refused_user',
  'refused_manager',
  'refused_bpo_metier',
  'refused_bpo_groupe',
  'treatment_required',
  'treated',
  'pending',
]

/** The items the RA had to treat: every refusal and whatever Terminer sent them undecided. */
const FOR_RA = new Set(['refused_user', 'refused_manager', 'refused_bpo_metier', 'refused_bpo_groupe', 'treatment_required', 'treated'])

/** The Traitements RA sheet's rows, from the summary's counts: those of the items treatmentRows keeps. */
export function treatmentCount(summary: EvidenceSummary): number {
  return Object.entries(summary.by_status).reduce((total, [status, count]) => total + (FOR_RA.has(status) ? count : 0), 0)
}

const SEAL_REASONS: Record<string, string> = {
  missing_row: 'ligne manquante',
  prev_hash_mismatch: 'chaînage rompu',
  hash_mismatch: 'contenu modifié',
}

const labelOr = (labels: Record<string, string>, key: string) => (Object.hasOwn(labels, key) ? (labels[key] as string) : key)
const decisionText = (decision: EvidenceDecision | undefined) =>
  decision ? (decision.decision === 'approved' ? 'Validé' : 'Refusé') : ''
const count = (value: number) => String(value)

function sealRows(seal: EvidenceSeal | null): string[][] {
  if (!seal) return [['Sceau du journal', SEAL_RESERVED]]
  const state = seal.intact
    ? 'Intact'
    : `Rompu à la ligne ${seal.first_broken_id ?? '?'} (${labelOr(SEAL_REASONS, seal.reason ?? '')})`
  return [
    ['Sceau du journal', state],
    ['Lignes vérifiées', count(seal.rows_checked)],
    ['Dernière ligne', seal.head_id === null ? '' : String(seal.head_id)],
    ['Empreinte de tête (SHA-256)', seal.head_hash ?? ''],
  ]
}

/** What the rate counts, in the words of the RSSI dashboard and its CSV (SPEC §9's « Taux de conformité »). */
export const COMPLIANCE_RATE_BASIS = 'droits validés / tous les droits'

function complianceRate(summary: EvidenceSummary): string {
  if (summary.items === 0) return ''
  const validated = Object.entries(summary.by_status).reduce((sum, [status, items]) => (status.startsWith('validated_') ? sum + items : sum), 0)
  return `${Math.round((100 * validated) / summary.items)} %`
}

export function synthesisRows(summary: EvidenceSummary): string[][] {
  const { campaign } = summary
  const stageRows = summary.stages.map(({ stage, approved, refused, awaiting }) => {
    const decided = approved + refused
    const reached = decided + awaiting
    const rate = reached === 0 ? '' : `${Math.round((100 * decided) / reached)} %`
    return [STAGE_LABELS[stage], count(approved), count(refused), count(awaiting), rate]
  })
  const rows: string[][] = [
    ['Rapport de campagne'],
    ['Campagne', campaign.name],
    ['Description', campaign.description],
    ['Statut', campaignStatusLabel(campaign.status)],
    ['Applications', campaign.application_name ?? 'Toutes'],
    ['Types de compte', campaign.account_type ? accountTypeLabel(campaign.account_type) : 'Tous'],
    ['Début', formatDate(campaign.start_date)],
    ['Fin', formatDate(campaign.end_date)],
    ['Créée par', campaign.created_by_name ?? ''],
    ['Créée le', formatDateTime(campaign.created_at)],
    ['Lancée le', formatDateTime(summary.started?.at, '')],
    ['Lancée par', summary.started?.by_name ?? ''],
    ['Clôturée le', formatDateTime(summary.completed?.at, '')],
    ['Clôturée par', summary.completed?.by_name ?? ''],
    [],
    ['Droits de la campagne', count(summary.items)],
    ['Droits revus', count(summary.reviewed), REVIEWED_MEANING],
    [UNDECIDED_AT_CLOSURE_LABEL, count(summary.undecided)],
    ['Progression', summary.progress === null ? '' : `${summary.progress} %`, REVIEW_RATE_BASIS],
    ['Décisions après la date de fin', count(summary.decisions_after_end)],
    ['Taux de conformité', complianceRate(summary), COMPLIANCE_RATE_BASIS],
    [],
    ['Résultat final', 'Droits'],
    ...OUTCOMES.map((status) => [rightStatusLabel(status), count(summary.by_status[status] ?? 0)]),
    [],
    ['Étape', 'Validés', 'Refusés', 'En attente', 'Achèvement'],
    ...stageRows,
    [],
    ['Rapport établi le', formatDateTime(summary.generated_at)],
    ...sealRows(summary.seal),
  ]
  return rows.map((row) => row.map(safeCell))
}

export const DECISION_COLUMNS = [
  'Identifiant du droit',
  'Titulaire',
  'E-mail',
  'Manager',
  'Application',
  'Rôle',
  'Type de compte',
  'Date d’attribution',
  'Dernière utilisation',
  'Justification',
  'Résultat final',
  ...STAGES.flatMap((stage) => {
    const label = STAGE_LABELS[stage]
    return [`Décision ${label}`, `Par (${label})`, `Le (${label})`, `Commentaire (${label})`, `IP (${label})`]
  }),
]

/**
 * The item's Décisions row written into `cells` (DECISION_COLUMNS.length long), every cell formula-safe: one array
 * reused for a whole pack rather than several made per item, since a pack has hundreds of thousands of items.
 */
export function writeDecisionCells(item: EvidenceItem, cells: string[]): string[] {
  cells[0] = safeCell(item.right_id)
  cells[1] = safeCell(item.holder_name)
  cells[2] = safeCell(item.holder_email)
  cells[3] = safeCell(item.manager_name)
  cells[4] = safeCell(item.application_name)
  cells[5] = safeCell(item.role_name)
  cells[6] = safeCell(accountTypeLabel(item.account_type))
  cells[7] = safeCell(formatDate(item.granted_at, ''))
  cells[8] = safeCell(formatDate(item.last_used_at, 'Jamais'))
  cells[9] = safeCell(item.justification)
  cells[10] = safeCell(rightStatusLabel(item.status))
  let c = 11
  for (const stage of STAGES) {
    const decision = item.decisions[stage]
    cells[c] = safeCell(decisionText(decision))
    cells[c + 1] = safeCell(decision?.decided_by_name)
    cells[c + 2] = safeCell(formatDateTime(decision?.decided_at, ''))
    cells[c + 3] = safeCell(decision?.comment)
    cells[c + 4] = safeCell(decision?.ip_address)
    c += 5
  }
  return cells
}

export function decisionRows(items: readonly EvidenceItem[]): string[][] {
  return items.map((item) => writeDecisionCells(item, new Array<string>(DECISION_COLUMNS.length)))
}

export const TREATMENT_COLUMNS = [
  'Identifiant du droit',
  'Titulaire',
  'Application',
  'Rôle',
  'Résultat final',
  'Refusé par',
  'Motif du refus',
  'Traitement RA',
  'Traité par',
  'Traité le',
  'Commentaire RA',
  'Suppression',
  'Demandée le',
  'Moyen',
  'Constatée le',
  'Source du constat',
  'Non constatée le',
]

const REMOVAL_STATES: Record<EvidenceRemoval['state'], string> = {
  requested: 'Suppression demandée',
  verified: 'Suppression constatée',
  unverified: 'Suppression non constatée',
}

/** Where a removal stands: asked for and how, then seen gone (when, by which list) or still there past its delay. */
function removalCells(item: EvidenceItem): string[] {
  const removal = item.removal
  if (!removal) return [item.status === 'treated' ? 'Non demandée' : 'À supprimer', '', '', '', '', '']
  const connector = removal.apply_outcome === 'removed' ? ', retiré de l’annuaire' : removal.apply_outcome === 'failed' ? ', échec du retrait' : ''
  return [
    REMOVAL_STATES[removal.state],
    `${formatDateTime(removal.requested_at, '')} par ${removal.requested_by_name}`,
    removal.method === 'ticket' ? `Ticket ${removal.ticket ?? ''}` : `Connecteur d’annuaire${connector}`,
    formatDateTime(removal.verified_at, ''),
    removal.verified_source === 'connector' ? 'Connecteur d’annuaire' : removal.verified_source === 'csv' ? 'Import CSV des droits' : '',
    formatDateTime(removal.unverified_at, ''),
  ]
}

/** The latest refusal before the RA's treatment, if the item was refused rather than left undecided. */
function refusalOf(item: EvidenceItem): EvidenceDecision | undefined {
  return STAGES.filter((stage) => stage !== 'ra')
    .map((stage) => item.decisions[stage])
    .find((decision) => decision?.decision === 'refused')
}

export function treatmentRows(items: readonly EvidenceItem[]): string[][] {
  return items
    .filter((item) => FOR_RA.has(item.status))
    .map((item) => {
      const refusal = refusalOf(item)
      const ra = item.decisions.ra
      return [
        item.right_id,
        item.holder_name,
        item.application_name,
        item.role_name,
        rightStatusLabel(item.status),
        refusal?.decided_by_name ?? 'Non décidé à la clôture',
        refusal?.comment ?? '',
        ra ? (ra.decision === 'approved' ? 'Traité' : 'Traitement requis') : 'Non traité',
        ra?.decided_by_name ?? '',
        formatDateTime(ra?.decided_at, ''),
        ra?.comment ?? '',
        ...removalCells(item),
      ].map(safeCell)
    })
}

export const SIGNOFF_COLUMNS = ['Étape', 'Relecteur', 'E-mail', 'Droits confiés', 'Non décidés', 'Signé le', 'IP']

export const NO_REVIEWER = 'Aucun relecteur désigné (relecteurs de secours)'

/** Who certified having reviewed everything entrusted to them, stage by stage, and who did not. */
export function signoffRows(signoffs: readonly EvidenceSignoff[]): string[][] {
  return signoffs.map((signoff) =>
    [
      STAGE_LABELS[signoff.stage] ?? signoff.stage,
      signoff.reviewer_id ? (signoff.reviewer_name ?? '') : NO_REVIEWER,
      signoff.reviewer_email ?? '',
      String(signoff.items_count),
      String(signoff.open_count),
      signoff.reviewer_id ? formatDateTime(signoff.signed_at, 'Non signé') : '',
      signoff.ip_address ?? '',
    ].map(safeCell),
  )
}

export const JOURNAL_COLUMNS = ['N°', 'Date', 'Acteur', 'Action', 'Ressource', 'Identifiant', 'IP', 'Détails']

/** The pack names no one by id: a person, an application or a campaign only an id points to is left out. */
const JOURNAL_FORMAT: AuditValueFormat = {
  name: () => null,
  date: (value) => formatDate(value, value),
  timestamp: (value) => formatDateTime(value, value),
}

/** The journal's events in French (src/domain/audit-labels.ts, as the audit page): « Décision : Refusé ; Commentaire : … ». */
export function journalRows(events: readonly EvidenceEvent[]): string[][] {
  return events.map((event) =>
    [
      String(event.id),
      formatDateTime(event.timestamp, ''),
      event.user_name || event.user_email || 'Système',
      auditActionLabel(event.action),
      auditResourceLabel(event.resource_type),
      event.resource_id ?? '',
      event.ip_address ?? '',
      auditDetails(event, JOURNAL_FORMAT).map(auditDetailText).join(' ; '),
    ].map(safeCell),
  )
}

/** rapport-campagne-<the name in lower-case ASCII words joined by dashes>-<yyyy-MM-dd>.xlsx */
export function evidenceFileName(campaignName: string, today: Date = new Date()): string {
  const slug = campaignName
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
  return `rapport-campagne-${slug || 'campagne'}-${format(today, 'yyyy-MM-dd')}.xlsx`
}

/** Who may download a pack, and of which campaigns: the database refuses everyone else anyway. */
export const hasEvidencePack = (status: string) => status === 'completed' || status === 'archived'
