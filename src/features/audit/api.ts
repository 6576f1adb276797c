/** The only file of the audit feature that calls Supabase. */
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import {
  AUDIT_EXPORT_PAGE_SIZE,
  AUDIT_PAGE_SIZE,
  auditArgs,
  type AuditEvent,
  type AuditSeal,
  type AuditFilterOptions,
  type AuditFilters,
} from './model'

/** One page of the filtered events, newest first; page 0 is the newest. */
export async function fetchAuditPage(filters: AuditFilters, page: number): Promise<AuditEvent[]> {
  const { data, error } = await getSupabase().rpc('rssi_audit_events', {
    ...auditArgs(filters),
    p_limit: AUDIT_PAGE_SIZE,
    p_offset: page * AUDIT_PAGE_SIZE,
  })
  if (error) throwApiError(error)
  return (data ?? []) as AuditEvent[]
}

export async function fetchAuditCount(filters: AuditFilters): Promise<number> {
  const { data, error } = await getSupabase().rpc('rssi_audit_count', auditArgs(filters))
  if (error) throwApiError(error)
  return Number(data ?? 0)
}

export async function fetchAuditFilterOptions(): Promise<AuditFilterOptions> {
  const { data, error } = await getSupabase().rpc('rssi_audit_filters')
  if (error) throwApiError(error)
  const options = (data ?? {}) as Partial<AuditFilterOptions>
  return { actions: options.actions ?? [], users: options.users ?? [] }
}

/** Every filtered event for the export, keyset-paged on id so that nothing is cut at 1000 or repeated. */
export async function fetchAllAuditEvents(filters: AuditFilters, onProgress?: (fetched: number) => void): Promise<AuditEvent[]> {
  const events: AuditEvent[] = []
  let beforeId: number | undefined
  for (;;) {
    const { data, error } = await getSupabase().rpc('rssi_audit_events', {
      ...auditArgs(filters),
      p_limit: AUDIT_EXPORT_PAGE_SIZE,
      p_before_id: beforeId,
    })
    if (error) throwApiError(error)
    const page = (data ?? []) as AuditEvent[]
    events.push(...page)
    onProgress?.(events.length)
    if (page.length < AUDIT_EXPORT_PAGE_SIZE) return events
    beforeId = page[page.length - 1]?.id
  }
}

/** Walks the whole chain on the server: seconds on a large trail, so it runs on opening the page and on request only. */
export async function fetchAuditSeal(): Promise<AuditSeal> {
  const { data, error } = await getSupabase().rpc('verify_audit_chain')
  if (error) throwApiError(error)
  return data as unknown as AuditSeal
}

export const auditKeys = {
  all: ['audit'] as const,
  page: (filters: AuditFilters, page: number) => ['audit', 'page', filters, page] as const,
  count: (filters: AuditFilters) => ['audit', 'count', filters] as const,
  filterOptions: () => ['audit', 'filter-options'] as const,
}

export const auditPageQuery = (filters: AuditFilters, page: number) =>
  queryOptions({ queryKey: auditKeys.page(filters, page), queryFn: () => fetchAuditPage(filters, page), placeholderData: keepPreviousData })

export const auditCountQuery = (filters: AuditFilters) =>
  queryOptions({ queryKey: auditKeys.count(filters), queryFn: () => fetchAuditCount(filters) })

// Outside auditKeys.all on purpose: a new event must not re-walk the whole chain; the RSSI asks for it again.
export const auditSealQuery = () =>
  queryOptions({ queryKey: ['audit-seal'] as const, queryFn: fetchAuditSeal, staleTime: Infinity, gcTime: 0 })

export const auditFilterOptionsQuery = () =>
  queryOptions({ queryKey: auditKeys.filterOptions(), queryFn: fetchAuditFilterOptions, staleTime: 60_000 })

/** New events appear on the page being read without a reload. */
export const useLiveAudit = () => useLiveInvalidation(['audit_logs'], auditKeys.all)
export const useAuditPage = (filters: AuditFilters, page: number) => useQuery(auditPageQuery(filters, page))
export const useAuditCount = (filters: AuditFilters) => useQuery(auditCountQuery(filters))
export const useAuditFilterOptions = () => useQuery(auditFilterOptionsQuery())
export const useAuditSeal = () => useQuery(auditSealQuery())
