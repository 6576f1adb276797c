/** The RSSI dashboard's and the compliance page's data and pure rules (SPEC §2, §9). */
import { format, subDays, subMonths } from 'date-fns'
import type { CsvCell } from '@/lib/csv'
import { formatDate } from '@/lib/dates'
import type { AccountType } from '@/lib/labels'

export type Level = 'green' | 'orange' | 'red'

export interface DashboardCounters {
  total_rights: number
  validated_rights: number
  compliance_rate: number | null
  compliance_level: Level | null
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
}

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

export interface ApplicationOption {
  id: string
  name: string
}

// ---------------------------------------------------------------- filters and period

export type Period = 'semaine' | 'mois' | 'trimestre' | 'personnalisee'

export const PERIOD_BUTTONS: readonly { period: Exclude<Period, 'personnalisee'>; label: string }[] = [
  { period: 'semaine', label: 'Semaine' },
  { period: 'mois', label: 'Mois' },
  { period: 'trimestre', label: 'Trimestre' },
]

/** SPEC §9: default date range, the last 30 days. */
export const DEFAULT_WINDOW_DAYS = 30

export interface DashboardFilters {
  search: string
  applicationId: string
  accountType: AccountType | ''
  /** 'yyyy-MM-dd', both included. */
  from: string
  to: string
  period: Period
}

const isoDay = (date: Date) => format(date, 'yyyy-MM-dd')

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
  return { search: '', applicationId: '', accountType: '', ...periodWindow('personnalisee', today), period: 'personnalisee' }
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

// ---------------------------------------------------------------- colours and CSV

/** SPEC §9: 90 % or more green, 75 % or more orange, otherwise red; no rate (no rights) has no colour. */
export function levelOf(rate: number | null | undefined): Level | null {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return null
  if (rate >= 90) return 'green'
  if (rate >= 75) return 'orange'
  return 'red'
}

export const formatRate = (rate: number | null | undefined) => (rate === null || rate === undefined ? '-' : `${rate}%`)

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

// ---------------------------------------------------------------- compliance page

export interface ComplianceCards {
  total_rights: number
  compliant_rights: number
  non_compliant_rights: number
  compliance_rate: number | null
  compliance_level: Level | null
  active_rules: number
  validated_rights: number
}

export interface ComplianceRule {
  id: string
  name: string
  description: string | null
  global: boolean
  application_id: string | null
  application_name: string | null
  parameters: Record<string, unknown> | null
  enabled: boolean
  state: 'evaluated' | 'disabled' | 'unsupported'
  violations: number | null
  violations_by_parameter: Record<string, number> | null
  ignored_parameters: string[] | null
}

export interface ApplicationConformity {
  application_id: string
  application_name: string
  total_rights: number
  compliant_rights: number
  non_compliant_rights: number
  rate: number | null
  level: Level | null
}

export interface ComplianceReport {
  as_of: string
  cards: ComplianceCards
  rules: ComplianceRule[]
  applications: ApplicationConformity[]
}

export const RULE_STATE_LABELS: Record<ComplianceRule['state'], string> = {
  evaluated: 'Évaluée',
  disabled: 'Désactivée',
  unsupported: 'Non évaluable',
}

/** What the violations column shows: a count only when the rule was evaluated. */
export function ruleViolationsText(rule: ComplianceRule): string {
  if (rule.state !== 'evaluated' || rule.violations === null) return '-'
  return String(rule.violations)
}

export function ruleScopeText(rule: ComplianceRule): string {
  return rule.global ? 'Globale' : (rule.application_name ?? '-')
}

export function complianceFileName(today: Date = new Date()): string {
  return `conformite-${isoDay(today)}.csv`
}

export function complianceCsvSections(report: ComplianceReport) {
  return [
    {
      title: 'Règles de contrôle',
      header: ['Règle', 'Description', 'Portée', 'État', 'Violations'],
      rows: report.rules.map((rule) => [
        rule.name,
        rule.description ?? '',
        ruleScopeText(rule),
        RULE_STATE_LABELS[rule.state] ?? rule.state,
        rule.state === 'evaluated' ? rule.violations : '',
      ]),
    },
    {
      title: 'Conformité par application',
      header: ['Application', 'Total', 'Conformes', 'Non conformes', 'Taux (%)'],
      rows: report.applications.map((app) => [
        app.application_name,
        app.total_rights,
        app.compliant_rights,
        app.non_compliant_rights,
        app.rate,
      ]),
    },
  ]
}
