/** The only file of the dashboards feature that calls Supabase: each audience's figures (SPEC §2). */
import { keepPreviousData, queryOptions, usePrefetchQuery, useQuery } from '@tanstack/react-query'
import { ApiError, throwApiError } from '@/lib/api-error'
import { readAllPages } from '@/lib/paging'
import { RIGHTS_QUERY_ROOT } from '@/lib/query-keys'
import { useLiveInvalidation } from '@/lib/realtime'
import { getSupabase } from '@/lib/supabase'
import {
  dashboardArgs,
  defaultFilters,
  EMPTY_TEAM_SUMMARY,
  rightsExportArgs,
  riskListArgs,
  type AdminCounters,
  type ApplicationSummary,
  type AwaitingRight,
  type DashboardFilters,
  type DirectoryUser,
  type QueueSummaryRow,
  type ReviewDeadline,
  type RightExportRow,
  type RightsSummary,
  type RiskList,
  type RssiDashboard,
  type TeamSummary,
} from './model'
import type { RssiTrends } from './components/charts/model'

/** rpc('admin_alerts'). */
export interface AdminAlerts {
  /** Campaigns still active past their end date. */
  overdue_campaigns: number
}

/** How many of the rights awaiting the manager the dashboard lists; Mes revues has them all. */
export const DASHBOARD_AWAITING_ROWS = 10
/** The API's row cap: a page of this size is full, a shorter one is the last. */
export const EXPORT_PAGE_SIZE = 1000

function firstRow<T>(data: unknown): Partial<T> | null | undefined {
  return (Array.isArray(data) ? data[0] : data) as Partial<T> | null | undefined
}

// ---------------------------------------------------------------- user

export async function fetchRightsSummary(): Promise<RightsSummary> {
  const { data, error } = await getSupabase().rpc('my_rights_summary')
  if (error) throwApiError(error)
  const row = firstRow<RightsSummary>(data)
  return {
    rights_count: Number(row?.rights_count ?? 0),
    pending_count: Number(row?.pending_count ?? 0),
    validated_count: Number(row?.validated_count ?? 0),
    refused_count: Number(row?.refused_count ?? 0),
    treatment_required_count: Number(row?.treatment_required_count ?? 0),
    treated_count: Number(row?.treated_count ?? 0),
  }
}

export async function fetchReviewDeadline(): Promise<ReviewDeadline | null> {
  const { data, error } = await getSupabase().rpc('my_review_deadline')
  if (error) throwApiError(error)
  const rows = (data ?? []) as unknown as ReviewDeadline[]
  return rows[0] ?? null
}

/** The caller's whole queue counted per campaign and stage in Postgres: the same rights the header's bell counts. */
export async function fetchReviewQueueSummary(): Promise<QueueSummaryRow[]> {
  const { data, error } = await getSupabase().rpc('review_queue_summary')
  if (error) throwApiError(error)
  return (data ?? []) as unknown as QueueSummaryRow[]
}

// ---------------------------------------------------------------- manager

/** Counted in Postgres over the whole team, so the figures hold past the API's 1000-row page. */
export async function fetchTeamSummary(): Promise<TeamSummary> {
  const { data, error } = await getSupabase().rpc('manager_dashboard', {})
  if (error) throwApiError(error)
  return { ...EMPTY_TEAM_SUMMARY, ...firstRow<TeamSummary>(data) }
}

/** The first page of the caller's review queue: a manager's queue is their team's rights awaiting them. */
export async function fetchAwaitingRights(limit = DASHBOARD_AWAITING_ROWS): Promise<AwaitingRight[]> {
  const { data, error } = await getSupabase().rpc('review_queue', { p_limit: limit })
  if (error) throwApiError(error)
  return (data ?? []) as unknown as AwaitingRight[]
}

// ---------------------------------------------------------------- admin

export async function fetchAdminCounters(): Promise<AdminCounters> {
  const { data, error } = await getSupabase().rpc('admin_dashboard')
  if (error) throwApiError(error)
  const row = firstRow<AdminCounters>(data)
  return {
    active_campaigns: row?.active_campaigns ?? 0,
    draft_campaigns: row?.draft_campaigns ?? 0,
    completed_campaigns: row?.completed_campaigns ?? 0,
    archived_campaigns: row?.archived_campaigns ?? 0,
    users: row?.users ?? 0,
    applications: row?.applications ?? 0,
  }
}

export function fetchDirectoryUsers(): Promise<DirectoryUser[]> {
  return readAllPages((from, to) =>
    getSupabase().from('users').select('id,first_name,last_name,email,role,department').order('last_name').order('first_name').order('id').range(from, to),
  )
}

export function fetchApplicationSummaries(): Promise<ApplicationSummary[]> {
  return readAllPages((from, to) =>
    getSupabase().from('applications').select('id,name,description,created_at').order('name').order('id').range(from, to),
  )
}

/**
 * What waits for an administrator or the security officer: the header's bell for them. The RPC answers one object; any
 * other answer is an error, so that the bell never says « rien en attente » for a figure it could not read.
 */
export async function fetchAdminAlerts(): Promise<AdminAlerts> {
  const { data, error } = await getSupabase().rpc('admin_alerts')
  if (error) throwApiError(error)
  const overdue = data !== null && typeof data === 'object' && !Array.isArray(data) ? data.overdue_campaigns : undefined
  if (typeof overdue !== 'number') throw new ApiError({ message: 'Les alertes reçues du serveur sont illisibles.' })
  return { overdue_campaigns: overdue }
}

// ---------------------------------------------------------------- RSSI

export async function fetchRssiDashboard(filters: DashboardFilters): Promise<RssiDashboard> {
  const { data, error } = await getSupabase().rpc('rssi_dashboard', dashboardArgs(filters))
  if (error) throwApiError(error)
  return data as unknown as RssiDashboard
}

/**
 * The RSSI dashboard's trends under its filters and period: one point per campaign of the period, the decisions of each
 * of its days, and the running campaigns per stage.
 */
export async function fetchRssiTrends(filters: DashboardFilters): Promise<RssiTrends> {
  const { data, error } = await getSupabase().rpc('rssi_trends', dashboardArgs(filters))
  if (error) throwApiError(error)
  return data as unknown as RssiTrends
}

/** One page of what a risk of the dashboard counts, under the dashboard's filters, with the risk's whole count. */
export async function fetchRiskList(filters: DashboardFilters, risk: string, page: { page: number; size: number }): Promise<RiskList> {
  const { data, error } = await getSupabase().rpc('rssi_risk_list', riskListArgs(filters, risk, page))
  if (error) throwApiError(error)
  return data as unknown as RiskList
}

/** Every filtered right, page after page (keyset on id), so the file is never cut at the API's 1000 rows. */
export async function fetchAllRightsForExport(filters: DashboardFilters, onProgress?: (fetched: number) => void): Promise<RightExportRow[]> {
  const rows: RightExportRow[] = []
  let afterId: string | undefined
  for (;;) {
    const { data, error } = await getSupabase().rpc('rssi_rights_export', {
      ...rightsExportArgs(filters),
      p_after_id: afterId,
      p_limit: EXPORT_PAGE_SIZE,
    })
    if (error) throwApiError(error)
    const page = (data ?? []) as unknown as RightExportRow[]
    rows.push(...page)
    onProgress?.(rows.length)
    if (page.length < EXPORT_PAGE_SIZE) return rows
    afterId = page[page.length - 1]?.id
  }
}

// ---------------------------------------------------------------- keys, queries, hooks

/**
 * The reviewers' dashboards sit under the rights root, which every decision invalidates. The admin's and the RSSI's
 * do not: neither role decides, and their aggregates follow others' decisions through a slower live refresh.
 */
export const dashboardKeys = {
  rightsSummary: () => [RIGHTS_QUERY_ROOT, 'dashboard', 'summary'] as const,
  deadline: () => [RIGHTS_QUERY_ROOT, 'dashboard', 'deadline'] as const,
  queueSummary: () => [RIGHTS_QUERY_ROOT, 'dashboard', 'queue-summary'] as const,
  teamSummary: () => [RIGHTS_QUERY_ROOT, 'dashboard', 'team-summary'] as const,
  awaiting: () => [RIGHTS_QUERY_ROOT, 'dashboard', 'awaiting'] as const,
  admin: ['dashboard', 'admin'] as const,
  adminCounters: () => ['dashboard', 'admin', 'counters'] as const,
  adminUsers: () => ['dashboard', 'admin', 'users'] as const,
  adminApplications: () => ['dashboard', 'admin', 'applications'] as const,
  rssi: ['dashboard', 'rssi'] as const,
  rssiFigures: (filters: DashboardFilters) => ['dashboard', 'rssi', filters] as const,
  rssiTrends: (filters: DashboardFilters) => ['dashboard', 'rssi', 'trends', filters] as const,
  rssiRisk: (filters: DashboardFilters, risk: string, page: { page: number; size: number }) =>
    ['dashboard', 'rssi', 'risk', risk, filters, page.page, page.size] as const,
  alerts: () => ['dashboard', 'alerts'] as const,
}

export const rightsSummaryQuery = () => queryOptions({ queryKey: dashboardKeys.rightsSummary(), queryFn: fetchRightsSummary })
export const reviewDeadlineQuery = () => queryOptions({ queryKey: dashboardKeys.deadline(), queryFn: fetchReviewDeadline })
export const reviewQueueSummaryQuery = () => queryOptions({ queryKey: dashboardKeys.queueSummary(), queryFn: fetchReviewQueueSummary })
export const teamSummaryQuery = () => queryOptions({ queryKey: dashboardKeys.teamSummary(), queryFn: fetchTeamSummary })
export const awaitingRightsQuery = () => queryOptions({ queryKey: dashboardKeys.awaiting(), queryFn: () => fetchAwaitingRights() })
export const adminCountersQuery = () => queryOptions({ queryKey: dashboardKeys.adminCounters(), queryFn: fetchAdminCounters })
export const directoryUsersQuery = () => queryOptions({ queryKey: dashboardKeys.adminUsers(), queryFn: fetchDirectoryUsers })
export const applicationSummariesQuery = () => queryOptions({ queryKey: dashboardKeys.adminApplications(), queryFn: fetchApplicationSummaries })
export const rssiDashboardQuery = (filters: DashboardFilters) =>
  queryOptions({ queryKey: dashboardKeys.rssiFigures(filters), queryFn: () => fetchRssiDashboard(filters) })
export const rssiTrendsQuery = (filters: DashboardFilters) =>
  queryOptions({ queryKey: dashboardKeys.rssiTrends(filters), queryFn: () => fetchRssiTrends(filters) })
// The page read keeps showing while the next one loads, so that paging never blanks the list.
export const rssiRiskListQuery = (filters: DashboardFilters, risk: string, page: { page: number; size: number }) =>
  queryOptions({ queryKey: dashboardKeys.rssiRisk(filters, risk, page), queryFn: () => fetchRiskList(filters, risk, page), placeholderData: keepPreviousData })

/**
 * Asks for the RSSI's first figures (default filters) while the dashboard's route renders, before the view's code has
 * arrived, so that the landing page waits for the slower of the two rather than for both in turn. During render, not
 * in an effect: the effect waits for the lazy view's Suspense boundary to commit, which React throttles (about 250 ms
 * later at sign-in, measured at scale 10).
 */
export const usePrefetchRssiDashboard = () => usePrefetchQuery(rssiDashboardQuery(defaultFilters()))

export const useRightsSummary = () => useQuery(rightsSummaryQuery())
export const useReviewDeadline = () => useQuery(reviewDeadlineQuery())
export const useReviewQueueSummary = () => useQuery(reviewQueueSummaryQuery())
export const useTeamSummary = () => useQuery(teamSummaryQuery())
export const useAwaitingRights = () => useQuery(awaitingRightsQuery())
export const useAdminCounters = () => useQuery(adminCountersQuery())
/** The bell's alerts, followed live: a campaign completed or started elsewhere changes them. */
export function useAdminAlerts() {
  useLiveInvalidation(['campaigns'], dashboardKeys.alerts(), AGGREGATE_TIMING)
  return useQuery({ queryKey: dashboardKeys.alerts(), queryFn: fetchAdminAlerts })
}
export const useDirectoryUsers = () => useQuery(directoryUsersQuery())
export const useApplicationSummaries = () => useQuery(applicationSummariesQuery())

// Aggregates over every right: a stream of changes refreshes them every few seconds rather than on each one.
const AGGREGATE_TIMING = { debounceMs: 1000, maxWaitMs: 5000 }

/** The admin's counters and lists follow campaigns, people and applications as others change them. */
export const useLiveAdminDashboard = () => useLiveInvalidation(['campaigns', 'user_rights', 'applications', 'users'], dashboardKeys.admin, AGGREGATE_TIMING)
/** The RSSI's figures follow the decisions, campaigns, applications and rules as they change. */
export const useLiveRssiDashboard = () =>
  useLiveInvalidation(['user_rights', 'campaigns', 'applications', 'control_rules', 'users'], dashboardKeys.rssi, AGGREGATE_TIMING)
