/** The dashboards' data and pure rules: the reviewers' counters, the manager's team, the admin's and the RSSI's figures (SPEC §2, §9). */
import { subDays, subMonths } from 'date-fns'
import type { CsvCell } from '@/lib/csv'
import { formatDate, isoDay } from '@/lib/dates'
import { campaignStatusLabel, type AccountType, type CampaignStatus, type RightStatus } from '@/domain/labels'
import type { Level } from '@/domain/rates'

// ---------------------------------------------------------------- user and manager

/**
 * Rights counted by where they stand: every status is in exactly one of the five parts, so they add up to
 * rights_count, and a screen that shows the total shows all five beside it.
 */
export interface RightsCounts {
  rights_count: number
  pending_count: number
  validated_count: number
  refused_count: number
  /** Refused, awaiting the RA's treatment (status treatment_required). */
  treatment_required_count: number
  treated_count: number
}

/** The caller's own rights counted (rpc('my_rights_summary')). */
export type RightsSummary = RightsCounts

/** The nearest campaign end among the caller's pending rights (rpc('my_review_deadline')). */
export interface ReviewDeadline {
  campaign_id: string
  campaign_name: string
  end_date: string
  pending_count: number
}

/** The stages of a review, as the reviewers' dashboard names them. */
export const REVIEW_STAGE_LABELS: Record<string, string> = {
  user: 'Titulaire',
  manager: 'Manager',
  bpo_metier: 'BPO Métier',
  bpo_groupe: 'BPO Groupe',
  ra: "Responsable d'Application",
}

/**
 * One line of what awaits the caller, counted per campaign, stage and for whom (rpc('review_queue_summary')): their own
 * queue, and the rights they decide for someone else. The lines add up to the header's bell.
 */
export interface QueueSummaryRow {
  /** Null for rights in no campaign. */
  campaign_id: string | null
  campaign_name: string | null
  campaign_status: CampaignStatus | null
  end_date: string | null
  stage: string
  /** Null for the caller's own queue; 'delegate' (delegated to them) or 'fallback' (a right without reviewer). */
  acting_as: 'delegate' | 'fallback' | null
  /** The reviewer a delegate decides for. */
  on_behalf_of: string | null
  on_behalf_of_name: string | null
  rights_count: number
}

/** The stage of a line, and for whom the caller decides there when it is not their own queue. */
export function queueStageText(row: Pick<QueueSummaryRow, 'stage' | 'acting_as' | 'on_behalf_of_name'>): string {
  const stage = REVIEW_STAGE_LABELS[row.stage] ?? row.stage
  if (row.acting_as === 'delegate') return `${stage}, pour le compte de ${row.on_behalf_of_name ?? 'un autre relecteur'}`
  if (row.acting_as === 'fallback') return `${stage}, relecteur de secours`
  return stage
}

/** How many of the summarised rights the caller decides for someone else (delegated, or as a fallback reviewer). */
export function confidedCount(rows: readonly QueueSummaryRow[]): number {
  return rows.reduce((sum, row) => sum + (row.acting_as === null ? 0 : row.rights_count), 0)
}

/** The deadline as the reviewer reads it: a completed campaign's end date is past, and says so. */
export function queueDeadlineText(row: Pick<QueueSummaryRow, 'campaign_status' | 'end_date'>): string {
  if (row.end_date === null) return '-'
  const date = formatDate(row.end_date)
  return row.campaign_status === 'active' || row.campaign_status === null ? date : `${date} (campagne ${campaignStatusLabel(row.campaign_status).toLowerCase()})`
}

/** The manager dashboard's counters, over every right of the caller's team (rpc('manager_dashboard')). */
export interface TeamSummary extends RightsCounts {
  team_size: number
  progress: number | null
  awaiting_decision_count: number
}

export const EMPTY_TEAM_SUMMARY: TeamSummary = {
  team_size: 0,
  rights_count: 0,
  pending_count: 0,
  validated_count: 0,
  refused_count: 0,
  treatment_required_count: 0,
  treated_count: 0,
  progress: null,
  awaiting_decision_count: 0,
}

/** A right of the team awaiting the caller's decision, as the dashboard lists it (rows of rpc('review_queue')). */
export interface AwaitingRight {
  right_id: string
  holder_name: string
  application_name: string
  role_name: string
  status: RightStatus
  last_used_at: string | null
  recommendation: string | null
  /** The statuses the manager's Valider and Refuser give (rpc('review_queue')). */
  approve_status: RightStatus | null
  refuse_status: RightStatus | null
}

/** The dashboard shows a first page of the queue; sorted by person then application so that it reads as a list. */
export function sortAwaiting(rights: readonly AwaitingRight[]): AwaitingRight[] {
  return [...rights].sort(
    (a, b) =>
      a.holder_name.localeCompare(b.holder_name, 'fr') ||
      a.application_name.localeCompare(b.application_name, 'fr') ||
      a.role_name.localeCompare(b.role_name, 'fr'),
  )
}

// ---------------------------------------------------------------- admin

export interface AdminCounters {
  active_campaigns: number
  draft_campaigns: number
  completed_campaigns: number
  archived_campaigns: number
  users: number
  applications: number
}

export interface DirectoryUser {
  id: string
  first_name: string
  last_name: string
  email: string
  role: string
  department: string | null
}

export interface ApplicationSummary {
  id: string
  name: string
  description: string | null
  created_at: string
}

// ---------------------------------------------------------------- RSSI

/**
 * What the RSSI dashboard's Taux de conformité counts (SPEC §9), said under the figure: it is not the compliance page's
 * rate (rights neither refused nor inactive), and both carry SPEC's same label.
 */
export const VALIDATION_RATE_BASIS = 'droits validés / tous les droits'

/** What Comptes à risque counts (SPEC §9), said under the figure. */
export const AT_RISK_BASIS = 'droits jamais utilisés ou inutilisés depuis plus de 90 jours'

export interface DashboardCounters {
  total_rights: number
  validated_rights: number
  /** validated / all rights in scope (SPEC §9 'Taux de conformité' on the RSSI dashboard). */
  validation_rate: number | null
  validation_level: Level | null
  at_risk_rights: number
  reviews_in_progress: number
  reviews_completed: number
}

export interface ApplicationCompliance {
  application_id: string
  application_name: string
  total_rights: number
  validated_rights: number
  rate: number | null
  level: Level | null
}

export interface Risk {
  key: string
  label: string
  count: number
  /** The dashboard's filters set that this risk does not apply ('search', 'account_type'). */
  ignored_filters: string[]
}

/** What each risk counts (ARCHITECTURE §6), said under its label and atop its list. */
export const RISK_BASIS: Record<string, string> = {
  expired: 'droits encore détenus par des personnes désactivées, non traités par le RA',
  inactive: AT_RISK_BASIS,
  incompatible_roles: 'violations des règles de séparation des tâches actives, une par règle et par personne, comme la page Conformité',
  duplicates: 'même rôle détenu deux fois, ou deux comptes (types de compte) d’une personne sur une application',
}

const FILTER_NAMES: Record<string, string> = { search: 'la recherche', account_type: 'le type de compte' }

/** The filters set that a risk leaves aside, in French, or null when it applies them all. */
export function ignoredFiltersText(filters: readonly string[]): string | null {
  if (filters.length === 0) return null
  const names = filters.map((filter) => FILTER_NAMES[filter] ?? filter)
  return `${names.length > 1 ? 'Filtres non appliqués' : 'Filtre non appliqué'} : ${names.join(' et ')}.`
}

/** A right behind « Comptes expirés », « Comptes inactifs » or « Doublons » (rssi_risk_list). */
export interface RiskRight {
  id: string
  user_id: string
  user_name: string
  user_email: string
  user_active: boolean
  application_id: string
  application_name: string
  role_name: string
  account_type: string
  status: string
  status_label: string
  last_used_at: string | null
}

/** A separation-of-duties violation behind « Rôles incompatibles »: a rule, a person, the rights that make it. */
export interface RiskConflict {
  rule_id: string
  rule_name: string
  user_id: string
  user_name: string
  user_email: string
  user_active: boolean
  rights: { id: string; role_name: string; application_id: string; application_name: string }[]
}

interface RiskListBase {
  label: string
  /** The risk's count under the same filters: the length of the whole list. */
  total: number
  ignored_filters: string[]
}

/** One page of what a risk counts (rssi_risk_list). */
export type RiskList =
  | (RiskListBase & { key: 'incompatible_roles'; rows: RiskConflict[] })
  | (RiskListBase & { key: 'expired' | 'inactive' | 'duplicates'; rows: RiskRight[] })

export interface ActiveCampaign {
  id: string
  name: string
  description: string | null
  application_id: string | null
  application_name: string | null
  account_type: string | null
  start_date: string | null
  end_date: string | null
  total_rights: number
  reviewed_rights: number
  progress: number | null
  scope_rights: number
  scope_reviewed_rights: number
  scope_progress: number | null
}

export interface RssiDashboard {
  as_of: string
  counters: DashboardCounters
  compliance_by_application: ApplicationCompliance[]
  risks: Risk[]
  active_campaigns: ActiveCampaign[]
  activity: { decisions: number; approved: number; refused: number } | null
}

/** One row of rssi_rights_export (the generated types only say Json). */
export interface RightExportRow {
  id: string
  application_id: string
  application_name: string
  user_id: string
  user_name: string | null
  user_email: string | null
  role_name: string
  account_type: string
  status: string
  status_label: string
  granted_at: string | null
  last_used_at: string | null
  validated_at: string | null
  campaign_id: string | null
  campaign_name: string | null
}

// ---------------------------------------------------------------- filters and period

export type Period = 'semaine' | 'mois' | 'trimestre' | 'personnalisee'

export const PERIOD_BUTTONS: readonly { period: Exclude<Period, 'personnalisee'>; label: string }[] = [
  { period: 'semaine', label: 'Semaine' },
  { period: 'mois', label: 'Mois' },
  { period: 'trimestre', label: 'Trimestre' },
]

/** SPEC §9: default date range, the last 30 days: what a custom range starts from. */
export const DEFAULT_WINDOW_DAYS = 30

/**
 * The period the dashboard opens on: Mois, SPEC's default of about 30 days, so that a button shows what the figures
 * cover from the start.
 */
export const DEFAULT_PERIOD = 'mois' satisfies Period

export interface DashboardFilters {
  search: string
  applicationId: string
  accountType: AccountType | ''
  /** 'yyyy-MM-dd', both included. */
  from: string
  to: string
  period: Period
}


/** SPEC §9: week = 7 days, month = 1 month, quarter = 3 months, ending today; 'personnalisee' = the last 30 days. */
export function periodWindow(period: Period, today: Date = new Date()): { from: string; to: string } {
  const start =
    period === 'semaine'
      ? subDays(today, 7)
      : period === 'mois'
        ? subMonths(today, 1)
        : period === 'trimestre'
          ? subMonths(today, 3)
          : subDays(today, DEFAULT_WINDOW_DAYS)
  return { from: isoDay(start), to: isoDay(today) }
}

export function defaultFilters(today: Date = new Date()): DashboardFilters {
  return { search: '', applicationId: '', accountType: '', ...periodWindow(DEFAULT_PERIOD, today), period: DEFAULT_PERIOD }
}

/** The date line beside the period buttons: « Du 24 octobre 2026 au 24 novembre 2026 », the window the figures cover. */
export function periodText(filters: Pick<DashboardFilters, 'from' | 'to'>): string {
  if (filters.from === '' && filters.to === '') return 'Depuis toujours'
  if (filters.from === '') return `Jusqu’au ${formatDate(filters.to)}`
  if (filters.to === '') return `Depuis le ${formatDate(filters.from)}`
  return `Du ${formatDate(filters.from)} au ${formatDate(filters.to)}`
}

export function withPeriod(filters: DashboardFilters, period: Period, today: Date = new Date()): DashboardFilters {
  return { ...filters, ...periodWindow(period, today), period }
}

/** How many filters differ from 'everything' (the dates are always set, so they do not count). */
export function activeFilterCount(filters: DashboardFilters): number {
  return [filters.search.trim(), filters.applicationId, filters.accountType].filter((value) => value !== '').length
}

/** The filters as the RPC arguments; an empty field is left out, which the SQL reads as 'no filter'. */
export function dashboardArgs(filters: DashboardFilters) {
  return {
    p_search: filters.search.trim() || undefined,
    p_application_id: filters.applicationId || undefined,
    p_account_type: filters.accountType || undefined,
    p_from: filters.from || undefined,
    p_to: filters.to || undefined,
  }
}

export function rightsExportArgs(filters: DashboardFilters) {
  return {
    p_search: filters.search.trim() || undefined,
    p_application_id: filters.applicationId || undefined,
    p_account_type: filters.accountType || undefined,
  }
}

/** One page of a risk's list under the dashboard's filters (no window: the risks are states). */
export function riskListArgs(filters: DashboardFilters, risk: string, page: { page: number; size: number }) {
  return { p_risk: risk, ...rightsExportArgs(filters), p_offset: page.page * page.size, p_limit: page.size }
}

// ---------------------------------------------------------------- CSV

/** SPEC §9: revue-droits-{period}-{date}.csv, the date being the day of the export. */
export function rightsExportFileName(period: Period, today: Date = new Date()): string {
  return `revue-droits-${period}-${isoDay(today)}.csv`
}

export const RIGHTS_CSV_HEADER = [
  'Application',
  'Utilisateur',
  'Rôle',
  'Statut',
  "Date d'attribution",
  'Dernière utilisation',
  'Campagne',
] as const

export function rightsCsvRow(row: RightExportRow): CsvCell[] {
  return [
    row.application_name,
    row.user_name || row.user_email || '',
    row.role_name,
    row.status_label,
    formatDate(row.granted_at, ''),
    formatDate(row.last_used_at, 'Jamais'),
    row.campaign_name ?? '',
  ]
}
