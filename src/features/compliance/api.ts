/** The only file of the compliance feature that calls Supabase. */
import { queryOptions } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { useLiveInvalidation } from '@/lib/realtime'
import { getSupabase } from '@/lib/supabase'
import type { ComplianceReport } from './model'

export async function fetchComplianceReport(applicationId: string): Promise<ComplianceReport> {
  const { data, error } = await getSupabase().rpc('rssi_compliance', { p_application_id: applicationId || undefined })
  if (error) throwApiError(error)
  return data as unknown as ComplianceReport
}

export const complianceKeys = {
  all: ['compliance'] as const,
  report: (applicationId: string) => ['compliance', 'report', applicationId] as const,
}

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
