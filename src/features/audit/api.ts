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
import { auditReferences, rightReferences, type AuditDecisionName, type AuditNames, type AuditRightName } from './sentence'

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

/** Ids per request: about 5 kB of URL, well under what proxies accept. */
const IDS_PER_READ = 150

/** The rows of `table` with these ids, read by chunks of IDS_PER_READ, a few chunks at a time. */
async function readByIds<T>(table: 'users' | 'applications' | 'campaigns' | 'control_rules' | 'user_rights' | 'right_decisions', columns: string, ids: readonly string[]): Promise<T[]> {
  const chunks: string[][] = []
  for (let start = 0; start < ids.length; start += IDS_PER_READ) chunks.push(ids.slice(start, start + IDS_PER_READ))
  const rows: T[] = []
  // Four reads in flight: the CSV export of a large trail names tens of thousands of rights.
  for (let start = 0; start < chunks.length; start += 4) {
    const results = await Promise.all(
      chunks.slice(start, start + 4).map((chunk) => getSupabase().from(table).select(columns).in('id', chunk)),
    )
    for (const { data, error } of results) {
      if (error) throwApiError(error)
      rows.push(...((data ?? []) as T[]))
    }
  }
  return rows
}

interface Named {
  id: string
  name: string
}

const byId = <T extends { id: string }, V>(rows: T[], value: (row: T) => V) => new Map(rows.map((row) => [row.id, value(row)]))

/**
 * The names the events' sentences need: the rights and decisions first, then the people, applications, campaigns and
 * rules, those of the rights included. What is gone (deleted since) is simply missing: the sentence says so.
 */
export async function fetchAuditNames(events: readonly AuditEvent[]): Promise<AuditNames> {
  const refs = auditReferences(events)
  const [rights, decisions] = await Promise.all([
    readByIds<AuditRightName & { id: string }>('user_rights', 'id, role_name, user_id, application_id', refs.rights),
    readByIds<AuditDecisionName & { id: string }>('right_decisions', 'id, role_name, holder_name, application_name', refs.decisions),
  ])
  const more = rightReferences(rights)
  const [users, applications, campaigns, rules] = await Promise.all([
    readByIds<{ id: string; first_name: string; last_name: string }>('users', 'id, first_name, last_name', [...new Set([...refs.users, ...more.users])]),
    readByIds<Named>('applications', 'id, name', [...new Set([...refs.applications, ...more.applications])]),
    readByIds<Named>('campaigns', 'id, name', refs.campaigns),
    readByIds<Named>('control_rules', 'id, name', refs.rules),
  ])
  return {
    users: byId(users, (user) => `${user.first_name} ${user.last_name}`),
    applications: byId(applications, (application) => application.name),
    campaigns: byId(campaigns, (campaign) => campaign.name),
    rules: byId(rules, (rule) => rule.name),
    rights: byId(rights, ({ role_name, user_id, application_id }) => ({ role_name, user_id, application_id })),
    decisions: byId(decisions, ({ role_name, holder_name, application_name }) => ({ role_name, holder_name, application_name })),
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

/** A page of events with the names their sentences need, so that a sentence never shows before its names. */
export async function fetchNamedAuditPage(filters: AuditFilters, page: number): Promise<{ events: AuditEvent[]; names: AuditNames }> {
  const events = await fetchAuditPage(filters, page)
  return { events, names: await fetchAuditNames(events) }
}

export const auditPageQuery = (filters: AuditFilters, page: number) =>
  queryOptions({ queryKey: auditKeys.page(filters, page), queryFn: () => fetchNamedAuditPage(filters, page), placeholderData: keepPreviousData })

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
