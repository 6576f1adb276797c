/** The only file of the compliance feature that calls Supabase: the RSSI dashboard and the compliance page. */
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import {
  type ApplicationOption,
  type ComplianceReport,
  dashboardArgs,
  type DashboardFilters,
  defaultFilters,
  type RightExportRow,
  rightsExportArgs,
  type RssiDashboard,
} from './model'

/** The API's row cap: a page of this size is full, a shorter one is the last. */
export const EXPORT_PAGE_SIZE = 1000

function fail(error: { message: string }): never {
  throw new Error(error.message)
}

export async function fetchRssiDashboard(filters: DashboardFilters): Promise<RssiDashboard> {
  const { data, error } = await getSupabase().rpc('rssi_dashboard', dashboardArgs(filters))
  if (error) fail(error)
  return data as unknown as RssiDashboard
}

export async function fetchApplicationOptions(): Promise<ApplicationOption[]> {
  const { data, error } = await getSupabase().from('applications').select('id, name').order('name')
  if (error) fail(error)
  return data ?? []
}

export async function fetchComplianceReport(applicationId: string): Promise<ComplianceReport> {
  const { data, error } = await getSupabase().rpc('rssi_compliance', { p_application_id: applicationId || undefined })
  if (error) fail(error)
  return data as unknown as ComplianceReport
}

export async function fetchRightsCount(filters: DashboardFilters): Promise<number> {
  const { data, error } = await getSupabase().rpc('rssi_rights_count', rightsExportArgs(filters))
  if (error) fail(error)
  return Number(data ?? 0)
}

/** Every filtered right, page after page (keyset on id), so the file is never cut at the API's 1000 rows. */
export async function fetchAllRightsForExport(
  filters: DashboardFilters,
  onProgress?: (fetched: number) => void,
): Promise<RightExportRow[]> {
  const rows: RightExportRow[] = []
  let afterId: string | undefined
  for (;;) {
    const { data, error } = await getSupabase().rpc('rssi_rights_export', {
      ...rightsExportArgs(filters),
      p_after_id: afterId,
      p_limit: EXPORT_PAGE_SIZE,
    })
    if (error) fail(error)
    const page = (data ?? []) as unknown as RightExportRow[]
    rows.push(...page)
    onProgress?.(rows.length)
    if (page.length < EXPORT_PAGE_SIZE) return rows
    afterId = page[page.length - 1]?.id
  }
}

export const complianceKeys = {
  all: ['compliance'] as const,
  dashboard: (filters: DashboardFilters) => ['compliance', 'dashboard', filters] as const,
  applications: () => ['compliance', 'applications'] as const,
  report: (applicationId: string) => ['compliance', 'report', applicationId] as const,
}

export const rssiDashboardQuery = (filters: DashboardFilters) =>
  queryOptions({ queryKey: complianceKeys.dashboard(filters), queryFn: () => fetchRssiDashboard(filters) })

/**
 * Asks for the dashboard's first figures (default filters) before its code has arrived, so that the RSSI's landing
 * page waits for the slower of the two rather than for both in turn.
 */
export const prefetchRssiDashboard = (queryClient: QueryClient) => queryClient.prefetchQuery(rssiDashboardQuery(defaultFilters()))

export const applicationOptionsQuery = () =>
  queryOptions({ queryKey: complianceKeys.applications(), queryFn: fetchApplicationOptions, staleTime: 60_000 })

export const complianceReportQuery = (applicationId: string) =>
  queryOptions({ queryKey: complianceKeys.report(applicationId), queryFn: () => fetchComplianceReport(applicationId) })

/**
 * The figures follow the decisions, campaigns, applications and rules as they change. They are aggregates over
 * every right, so a stream of decisions refreshes them at most every few seconds rather than on each one.
 */
export const useLiveCompliance = () =>
  useLiveInvalidation(['user_rights', 'campaigns', 'applications', 'control_rules', 'users'], complianceKeys.all, {
    debounceMs: 1000,
    maxWaitMs: 5000,
  })
export const useRssiDashboard = (filters: DashboardFilters) => useQuery(rssiDashboardQuery(filters))
export const useApplicationOptions = () => useQuery(applicationOptionsQuery())
export const useComplianceReport = (applicationId: string) => useQuery(complianceReportQuery(applicationId))
