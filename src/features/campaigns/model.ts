/** Pure logic of the campaigns feature: form rules, table figures, the three Excel files (SPEC §2, §3, §4, §5, §9). */
import { addMonths, isAfter } from 'date-fns'
import { formatDate, isoDay, numericDate, parseApiDate } from '@/lib/dates'
import {
  ACCOUNT_TYPES,
  CAMPAIGN_RECURRENCES,
  CAMPAIGN_RECURRENCE_LABELS,
  accountTypeLabel,
  campaignStatusLabel,
  rightStatusLabel,
  type AccountType,
  type CampaignRecurrence,
  type CampaignStatus,
} from '@/domain/labels'
import { STAGE_FILE_LABELS, stageFileColumns, type StageFile } from '@/domain/stage-files'
import type { Tone } from '@/lib/tones'
import {
  DEFAULT_REMINDER_DAYS,
  REMINDER_MESSAGES,
  parseEscalationDelay,
  reminderDaysError,
  sortReminderDays,
} from './reminders-model'

export interface Campaign {
  id: string
  name: string
  description: string
  applicationId: string | null
  applicationName: string | null
  accountType: AccountType | null
  startDate: string
  endDate: string
  status: CampaignStatus
  createdBy: string | null
  creatorName: string | null
  createdAt: string
  /** How often the campaign comes back; null for a one-off. */
  recurrence: CampaignRecurrence | null
  /** Started by the scheduled pass on its start date. */
  autoStart: boolean
  /** The occurrence the scheduled pass created after this one, once it exists (read with the Campagnes page only). */
  nextOccurrence: NextOccurrence | null
  /** E-mails to its reviewers and creator (start, stages, completion), and reminders before its end date. */
  notificationsEnabled: boolean
  remindersEnabled: boolean
  /** Days before the end date the reminders go, largest first. */
  reminderDays: number[]
  /** Days after the day after the end date before the late reviewers' managers and the creator are told. */
  escalationDelayDays: number
  /** The review rate, rounded percent of rights reviewed (« revus »); null when the campaign has no rights. */
  progress: number | null
  rightsCount: number
  /** Rights whose review reached an outcome: refused at some stage, or approved at the last one. */
  reviewedCount: number
  /** A closed campaign's rights Terminer sent to the RA undecided; 0 while it runs. */
  undecidedCount: number
  pendingCount: number
  validatedManagerCount: number
  validatedBpoMetierCount: number
}

export interface NextOccurrence {
  id: string
  name: string
  startDate: string
}

const RECURRENCE_MONTHS: Record<CampaignRecurrence, number> = { quarterly: 3, semiannual: 6, annual: 12 }

/**
 * When the scheduled pass makes the next occurrence of a recurring campaign that has started: one period after its
 * start, or the first such start not yet past when periods were missed (as run_campaign_schedule counts them). Null for
 * a one-off, a draft, or one whose next occurrence exists.
 */
export function nextOccurrenceDate(campaign: Pick<Campaign, 'recurrence' | 'status' | 'startDate' | 'nextOccurrence'>, today: Date): Date | null {
  if (!campaign.recurrence || campaign.status === 'draft' || campaign.nextOccurrence) return null
  const months = RECURRENCE_MONTHS[campaign.recurrence]
  let next = addMonths(parseApiDate(campaign.startDate), months)
  while (!isAfter(addMonths(next, months), today)) next = addMonths(next, months)
  return next
}

/** Under a recurring campaign's name in the list: how often, and its next occurrence (made, or when it will be). */
export function recurrenceText(campaign: Pick<Campaign, 'recurrence' | 'status' | 'startDate' | 'nextOccurrence'>, today: Date): string | null {
  if (!campaign.recurrence) return null
  const label = CAMPAIGN_RECURRENCE_LABELS[campaign.recurrence]
  if (campaign.nextOccurrence) return `${label} · occurrence suivante : « ${campaign.nextOccurrence.name} »`
  const next = nextOccurrenceDate(campaign, today)
  return next ? `${label} · prochaine occurrence le ${formatDate(next)}` : `${label} · prochaine occurrence un ${RECURRENCE_PERIOD[campaign.recurrence]} après le démarrage`
}

const RECURRENCE_PERIOD: Record<CampaignRecurrence, string> = { quarterly: 'trimestre', semiannual: 'semestre', annual: 'an' }

/**
 * A recurring campaign in short, for the list's line under its name: how often (« Trimestrielle ») and its next
 * occurrence (« prochaine le 01/02/2027 », « suivante créée »), with the whole sentence of recurrenceText for the tooltip.
 */
export function recurrenceLines(campaign: Pick<Campaign, 'recurrence' | 'status' | 'startDate' | 'nextOccurrence'>, today: Date) {
  if (!campaign.recurrence) return null
  const sentence = recurrenceText(campaign, today) ?? ''
  const next = nextOccurrenceDate(campaign, today)
  const nextLine = campaign.nextOccurrence ? 'suivante créée' : next ? `prochaine le ${numericDate(next)}` : 'dès le démarrage'
  return { label: CAMPAIGN_RECURRENCE_LABELS[campaign.recurrence], next: nextLine, sentence }
}

// ─── Table ──────────────────────────────────────────────────────────────────────────────────────────────────────

export const applicationScopeLabel = (campaign: Pick<Campaign, 'applicationName'>) => campaign.applicationName ?? 'Toutes'
export const accountTypeScopeLabel = (campaign: Pick<Campaign, 'accountType'>) =>
  campaign.accountType ? accountTypeLabel(campaign.accountType) : 'Tous'
export const campaignStatusText = (status: string) => campaignStatusLabel(status)

const STATUS_TONES: Record<CampaignStatus, Tone> = { draft: 'grey', active: 'blue', completed: 'green', archived: 'amber' }
export const campaignStatusTone = (status: CampaignStatus): Tone => STATUS_TONES[status] ?? 'grey'

export type CampaignTransition = 'start' | 'complete' | 'archive'

/** The one lifecycle step a campaign in this status offers (SPEC §4), if any. */
export function nextTransition(status: CampaignStatus): { action: CampaignTransition; to: CampaignStatus; label: string } | null {
  switch (status) {
    case 'draft':
      return { action: 'start', to: 'active', label: 'Démarrer' }
    case 'active':
      return { action: 'complete', to: 'completed', label: 'Terminer' }
    case 'completed':
      return { action: 'archive', to: 'archived', label: 'Archiver' }
    default:
      return null
  }
}

export const TRANSITION_CONFIRMATIONS: Record<CampaignTransition, (name: string) => string> = {
  start: (name) =>
    `Démarrer la campagne « ${name} » ? Les droits de son périmètre y seront rattachés et repasseront en attente de revue.`,
  complete: (name) =>
    `Terminer la campagne « ${name} » ? Les droits encore non décidés seront transmis au Responsable d'Application pour traitement.`,
  archive: (name) => `Archiver la campagne « ${name} » ? Elle ne pourra plus évoluer.`,
}

export const deleteConfirmation = (name: string) =>
  `Êtes-vous sûr de vouloir supprimer la campagne « ${name} » ? Cette action est irréversible et supprime également les droits associés.`

export const isEditable = (campaign: Pick<Campaign, 'status'>) => campaign.status === 'draft'

/** A running campaign's e-mails (notifications, reminders, escalation) still change; the rest of it no longer does. */
export const hasEditableSettings = (campaign: Pick<Campaign, 'status'>) => campaign.status === 'active'

/** The query parameter of a link to one campaign (/app/campaigns?campagne=<id>, the admin dashboard's « Détails »). */
export const CAMPAIGN_LINK_PARAM = 'campagne'

// ─── Form (SPEC §5) ─────────────────────────────────────────────────────────────────────────────────────────────

export interface CampaignFormValues {
  name: string
  description: string
  applicationId: string
  accountType: string
  startDate: string
  endDate: string
  recurrence: string
  autoStart: boolean
  notificationsEnabled: boolean
  remindersEnabled: boolean
  reminderDays: number[]
  /** As typed: whole days from 0 to 30. */
  escalationDelayDays: string
}

export type CampaignFormErrors = Partial<Record<keyof CampaignFormValues, string>>

export interface CampaignPayload {
  name: string
  description: string
  application_id: string | null
  account_type: AccountType | null
  start_date: string
  end_date: string
  recurrence: CampaignRecurrence | null
  auto_start: boolean
  notifications_enabled: boolean
  reminders_enabled: boolean
  reminder_days: number[]
  escalation_delay_days: number
}

/** What a running campaign's form sends: its e-mail settings only. */
export type CampaignSettingsPayload = Pick<CampaignPayload, 'notifications_enabled' | 'reminders_enabled' | 'reminder_days' | 'escalation_delay_days'>

export const EMPTY_CAMPAIGN_FORM: CampaignFormValues = {
  name: '',
  description: '',
  applicationId: '',
  accountType: '',
  startDate: '',
  endDate: '',
  recurrence: '',
  autoStart: false,
  notificationsEnabled: true,
  remindersEnabled: true,
  reminderDays: [...DEFAULT_REMINDER_DAYS],
  escalationDelayDays: '0',
}

export const CAMPAIGN_FORM_MESSAGES = {
  nameRequired: 'Le nom de la campagne est obligatoire.',
  nameTooLong: 'Le nom ne peut pas dépasser 200 caractères.',
  descriptionTooLong: 'La description ne peut pas dépasser 2000 caractères.',
  startRequired: 'La date de début est obligatoire.',
  endRequired: 'La date de fin est obligatoire.',
  invalidDate: 'Date invalide.',
  endBeforeStart: 'La date de fin doit être postérieure ou égale à la date de début.',
  invalidAccountType: 'Type de compte inconnu.',
  invalidRecurrence: 'Récurrence inconnue.',
} as const

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const isIsoDate = (value: string) => ISO_DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))

export function formFromCampaign(campaign: Campaign): CampaignFormValues {
  return {
    name: campaign.name,
    description: campaign.description,
    applicationId: campaign.applicationId ?? '',
    accountType: campaign.accountType ?? '',
    startDate: campaign.startDate.slice(0, 10),
    endDate: campaign.endDate.slice(0, 10),
    recurrence: campaign.recurrence ?? '',
    autoStart: campaign.autoStart,
    notificationsEnabled: campaign.notificationsEnabled,
    remindersEnabled: campaign.remindersEnabled,
    reminderDays: sortReminderDays(campaign.reminderDays),
    escalationDelayDays: String(campaign.escalationDelayDays),
  }
}

export function validateCampaignForm(values: CampaignFormValues): CampaignFormErrors {
  const errors: CampaignFormErrors = {}
  const name = values.name.trim()
  if (!name) errors.name = CAMPAIGN_FORM_MESSAGES.nameRequired
  else if (name.length > 200) errors.name = CAMPAIGN_FORM_MESSAGES.nameTooLong
  if (values.description.length > 2000) errors.description = CAMPAIGN_FORM_MESSAGES.descriptionTooLong
  if (!values.startDate) errors.startDate = CAMPAIGN_FORM_MESSAGES.startRequired
  else if (!isIsoDate(values.startDate)) errors.startDate = CAMPAIGN_FORM_MESSAGES.invalidDate
  if (!values.endDate) errors.endDate = CAMPAIGN_FORM_MESSAGES.endRequired
  else if (!isIsoDate(values.endDate)) errors.endDate = CAMPAIGN_FORM_MESSAGES.invalidDate
  if (!errors.startDate && !errors.endDate && values.endDate < values.startDate) errors.endDate = CAMPAIGN_FORM_MESSAGES.endBeforeStart
  if (values.accountType && !(ACCOUNT_TYPES as readonly string[]).includes(values.accountType)) {
    errors.accountType = CAMPAIGN_FORM_MESSAGES.invalidAccountType
  }
  if (values.recurrence && !(CAMPAIGN_RECURRENCES as readonly string[]).includes(values.recurrence)) {
    errors.recurrence = CAMPAIGN_FORM_MESSAGES.invalidRecurrence
  }
  const reminderDays = reminderDaysError(values.reminderDays)
  if (reminderDays) errors.reminderDays = reminderDays
  if (parseEscalationDelay(values.escalationDelayDays) === null) errors.escalationDelayDays = REMINDER_MESSAGES.delayInvalid
  return errors
}

export function toCampaignPayload(values: CampaignFormValues): CampaignPayload {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    application_id: values.applicationId || null,
    account_type: (values.accountType || null) as AccountType | null,
    start_date: values.startDate,
    end_date: values.endDate,
    recurrence: (values.recurrence || null) as CampaignRecurrence | null,
    auto_start: values.autoStart,
    ...toSettingsPayload(values),
  }
}

export function toSettingsPayload(values: CampaignFormValues): CampaignSettingsPayload {
  return {
    notifications_enabled: values.notificationsEnabled,
    reminders_enabled: values.remindersEnabled,
    reminder_days: sortReminderDays(values.reminderDays),
    escalation_delay_days: parseEscalationDelay(values.escalationDelayDays) ?? 0,
  }
}

// ─── Excel exports (SPEC §3, §9) ────────────────────────────────────────────────────────────────────────────────

export const DEFAULT_JUSTIFICATION = 'Accès nécessaire pour les fonctions'
export const DEFAULT_MANAGER_COMMENT = 'Validé par le manager'
/** What happens to a right nobody decided, as Terminer does it: the files promise nothing the product does not do. */
export const CLOSURE_NOTICE =
  "À la clôture de la campagne, les droits qui n'ont pas été décidés sont transmis au Responsable d'Application pour traitement."
const NEVER_USED = 'Jamais'

/** One row of an export file: rpc('campaign_export_rows')'s array made an object. Times are ISO text or milliseconds. */
export interface ExportRow {
  right_id: string
  user_name: string | null
  user_email: string | null
  application_name: string | null
  role_name: string | null
  account_type?: string | null
  granted_at: string | number | null
  last_used_at: string | number | null
  justification: string | null
  status: string | null
  manager_decision: string | null
  manager_comment: string | null
  manager_decided_at: string | number | null
  bpo_metier_decision: string | null
  bpo_metier_comment: string | null
  bpo_metier_decided_at: string | number | null
  bpo_groupe_decision: string | null
  bpo_groupe_comment: string | null
  bpo_groupe_decided_at: string | number | null
}

/** The latest decision at one stage, as `campaign_export_rows` sends it. */
export type ExportDecisionData = [stage: string, decision: string, comment: string | null, decided_at: number, decided_by_name: string | null]

/**
 * One row as `campaign_export_rows` sends it: an array in the function's fixed order, times in milliseconds, so that
 * a page of thousands of rows stays small and is read without parsing dates.
 */
export type ExportRowData = [
  right_id: string,
  user_name: string | null,
  user_email: string | null,
  application_name: string | null,
  role_name: string | null,
  account_type: string | null,
  granted_at: number | null,
  last_used_at: number | null,
  justification: string | null,
  status: string | null,
  decisions: ExportDecisionData[] | null,
]

const EXPORT_STAGES = ['manager', 'bpo_metier', 'bpo_groupe'] as const

export function exportRow(data: ExportRowData): ExportRow {
  const row: ExportRow = {
    right_id: data[0],
    user_name: data[1],
    user_email: data[2],
    application_name: data[3],
    role_name: data[4],
    account_type: data[5],
    granted_at: data[6],
    last_used_at: data[7],
    justification: data[8],
    status: data[9],
    manager_decision: null,
    manager_comment: null,
    manager_decided_at: null,
    bpo_metier_decision: null,
    bpo_metier_comment: null,
    bpo_metier_decided_at: null,
    bpo_groupe_decision: null,
    bpo_groupe_comment: null,
    bpo_groupe_decided_at: null,
  }
  for (const [stage, decision, comment, decidedAt] of data[10] ?? []) {
    const known = EXPORT_STAGES.find((name) => name === stage)
    if (!known) continue
    row[`${known}_decision`] = decision
    row[`${known}_comment`] = comment
    row[`${known}_decided_at`] = decidedAt
  }
  return row
}

/** Widths in characters, one per column of stageFileColumns(file). */
export function exportColumnWidths(file: StageFile): number[] {
  const widths: Record<string, number> = {
    'ID du droit': 38,
    Utilisateur: 26,
    'E-mail': 32,
    Application: 22,
    'Rôle / Profil': 26,
    'Justification métier': 40,
    'Statut final': 22,
  }
  return stageFileColumns(file).map((column) => widths[column] ?? (column.startsWith('Commentaire') ? 36 : 22))
}

function decisionLabel(decision: string | null | undefined): string {
  if (decision === 'approved') return 'Validé'
  if (decision === 'refused') return 'Refusé'
  return ''
}

/** A cell a spreadsheet could take for a formula (=, +, -, @, or a leading tab or carriage return) gets a quote first. */
const FORMULA_STARTS = new Set(['=', '+', '-', '@', '\t', '\r'].map((character) => character.charCodeAt(0)))

export function safeCell(value: string | null | undefined): string {
  const text = value ?? ''
  return FORMULA_STARTS.has(text.charCodeAt(0)) ? `'${text}` : text
}

/** The data rows of one file, in stageFileColumns(file) order, every cell a formula-safe string. */
export function buildExportRows(file: StageFile, rows: readonly ExportRow[]): string[][] {
  return rows.map((row) => {
    const managerComment = row.manager_comment || (row.manager_decision === 'approved' ? DEFAULT_MANAGER_COMMENT : '')
    const cells: (string | null)[] = [
      row.right_id,
      row.user_name,
      row.user_email,
      row.application_name,
      row.role_name,
      formatDate(row.granted_at, ''),
      formatDate(row.last_used_at, NEVER_USED),
      row.justification || DEFAULT_JUSTIFICATION,
      decisionLabel(row.manager_decision),
      managerComment,
      formatDate(row.manager_decided_at, ''),
    ]
    if (file !== 'manager') {
      cells.push(decisionLabel(row.bpo_metier_decision), row.bpo_metier_comment, formatDate(row.bpo_metier_decided_at, ''))
    }
    if (file === 'bpo_groupe') {
      cells.push(
        decisionLabel(row.bpo_groupe_decision),
        row.bpo_groupe_comment,
        formatDate(row.bpo_groupe_decided_at, ''),
        row.status ? rightStatusLabel(row.status) : '',
      )
    }
    return cells.map(safeCell)
  })
}

/**
 * The Instructions sheet: campaign name, its deadline (the campaign's end date, the only one the product holds to),
 * what to do, and what becomes of the rights left undecided.
 */
export function buildInstructionRows(file: StageFile, campaignName: string, deadline: string): string[][] {
  const rows: string[][] = [
    ['Campagne', safeCell(campaignName)],
    ['Fichier', STAGE_FILE_LABELS[file]],
    ['Date limite', formatDate(deadline)],
    [],
    ['Instructions'],
  ]
  const steps: Record<StageFile, string[]> = {
    manager: [
      'Pour chaque droit, indiquez « Validé » ou « Refusé » dans la colonne Validation manager.',
      'Ajoutez un commentaire pour tout refus.',
      'Renvoyez le fichier avant la date limite. Il sera ensuite transmis au BPO Métier.',
    ],
    bpo_metier: [
      'Ces droits ont été validés par le manager.',
      'Pour chaque droit, indiquez « Validé » ou « Refusé » dans la colonne Validation BPO Métier.',
      'Renvoyez le fichier avant la date limite. Il sera ensuite transmis au BPO Groupe.',
    ],
    bpo_groupe: [
      'Ces droits ont été validés par le manager puis par le BPO Métier.',
      'Pour chaque droit, indiquez « Validé » ou « Refusé » dans la colonne Validation BPO Groupe.',
      'Renvoyez le fichier avant la date limite : votre décision est définitive.',
    ],
  }
  return [...rows, ...[...steps[file], CLOSURE_NOTICE].map((line) => [line])]
}

const FILE_TYPES: Record<StageFile, string> = {
  manager: 'Revue_Manager',
  bpo_metier: 'Revue_BPO_Metier',
  bpo_groupe: 'Revue_BPO_Groupe',
}

/** SPEC §9: review type, campaign name with spaces turned into underscores, the date, .xlsx. */
export function exportFileName(file: StageFile, campaignName: string, today: Date = new Date()): string {
  const name = campaignName
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[\\/:*?"<>|]/g, '-')
    .replace(/\p{Cc}/gu, '-')
  return `${FILE_TYPES[file]}_${name || 'campagne'}_${isoDay(today)}.xlsx`
}

/** The three counts of the export dialog, for the three files. */
export function exportCounts(campaign: Pick<Campaign, 'pendingCount' | 'validatedManagerCount' | 'validatedBpoMetierCount'>) {
  return {
    manager: campaign.pendingCount,
    bpo_metier: campaign.validatedManagerCount,
    bpo_groupe: campaign.validatedBpoMetierCount,
  } satisfies Record<StageFile, number>
}
