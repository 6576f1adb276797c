/** The only file of the rights feature that calls Supabase: a person's rights and the application choices. */
import type { ApplicationChoice } from '@/domain/applications'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { readAllPages } from '@/lib/paging'
import { RIGHTS_QUERY_ROOT } from '@/lib/query-keys'
import { useLiveInvalidation } from '@/lib/realtime'
import { getSupabase } from '@/lib/supabase'
import type { HeldRight } from './model'

/** Every right of one person, newest grant first; row-level security decides whose rights the caller may read. */
export function fetchPersonRights(userId: string): Promise<HeldRight[]> {
  return readAllPages((from, to) =>
    getSupabase()
      .from('user_rights')
      .select('id, status, role_name, account_type, granted_at, last_used_at, application:application_id(name), campaign:campaign_id(name,end_date)')
      .eq('user_id', userId)
      .order('granted_at', { ascending: false })
      .order('id', { ascending: true })
      .range(from, to)
      .overrideTypes<HeldRight[], { merge: false }>(),
  )
}

export async function fetchApplicationOptions(): Promise<ApplicationChoice[]> {
  const { data, error } = await getSupabase().from('applications').select('id, name').order('name')
  if (error) throwApiError(error)
  return data ?? []
}

export const rightsKeys = {
  all: [RIGHTS_QUERY_ROOT] as const,
  person: (userId: string) => [RIGHTS_QUERY_ROOT, 'person', userId] as const,
}
// Under the applications feature's prefix, so that its live refresh and mutations cover the choices too.
export const applicationOptionsKey = ['applications', 'options'] as const

export const personRightsQuery = (userId: string) =>
  queryOptions({ queryKey: rightsKeys.person(userId), queryFn: () => fetchPersonRights(userId) })
export const applicationOptionsQuery = () =>
  queryOptions({ queryKey: applicationOptionsKey, queryFn: fetchApplicationOptions, staleTime: 60_000 })

export const usePersonRights = (userId: string) => useQuery(personRightsQuery(userId))
export const useApplicationOptions = (enabled = true) => useQuery({ ...applicationOptionsQuery(), enabled })

/**
 * Decisions taken elsewhere (another reviewer, another tab), a campaign started or closed, a person renamed or moved
 * to another team: every view of rights and decisions refreshes without a reload.
 */
export const useLiveRights = () => useLiveInvalidation(['user_rights', 'campaigns', 'users'], rightsKeys.all)
