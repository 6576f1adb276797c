/** The only file of the profile feature that calls Supabase. */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { RIGHTS_QUERY_ROOT } from '@/lib/query-keys'
import { useLiveInvalidation } from '@/lib/realtime'
import { getSupabase } from '@/lib/supabase'
import { nextHistoryCursor, type DecisionEntry, type HistoryCursor, type HistoryScope, type ProfileDetails } from './model'

/** Decisions per page of the history; older ones come with 'Afficher plus'. */
export const HISTORY_PAGE_SIZE = 50

export async function fetchProfile(userId: string): Promise<ProfileDetails> {
  const { data, error } = await getSupabase()
    .from('users')
    .select('id, email, first_name, last_name, role, position, department, last_login, manager:manager_id(first_name, last_name)')
    .eq('id', userId)
    .single()
  if (error) throwApiError(error)
  return data as unknown as ProfileDetails
}

/** One page of the caller's decision history, newest first. */
export async function fetchDecisionHistory(scope: HistoryScope, cursor?: HistoryCursor): Promise<DecisionEntry[]> {
  const { data, error } = await getSupabase().rpc('decision_history', {
    p_scope: scope,
    p_limit: HISTORY_PAGE_SIZE,
    ...(cursor ? { p_before_at: cursor.beforeAt, p_before_id: cursor.beforeId } : {}),
  })
  if (error) throwApiError(error)
  return (data ?? []) as unknown as DecisionEntry[]
}

export const profileKeys = {
  all: ['profile'] as const,
  details: (userId: string) => ['profile', 'details', userId] as const,
  // Decisions: under the rights root, which every decision invalidates.
  history: (userId: string, scope: HistoryScope) => [RIGHTS_QUERY_ROOT, 'history', userId, scope] as const,
}

export const profileQuery = (userId: string) => queryOptions({ queryKey: profileKeys.details(userId), queryFn: () => fetchProfile(userId) })
export const decisionHistoryQuery = (userId: string, scope: HistoryScope) =>
  infiniteQueryOptions({
    queryKey: profileKeys.history(userId, scope),
    queryFn: ({ pageParam }) => fetchDecisionHistory(scope, pageParam),
    initialPageParam: undefined as HistoryCursor | undefined,
    getNextPageParam: (lastPage) => nextHistoryCursor(lastPage, HISTORY_PAGE_SIZE),
  })

export const useProfile = (userId: string) => useQuery(profileQuery(userId))
export const useDecisionHistory = (userId: string, scope: HistoryScope) => useInfiniteQuery(decisionHistoryQuery(userId, scope))

/** A change to my profile (a new manager, say) shows without a reload; the rights' own live refresh covers the rest. */
export const useLiveProfile = () => useLiveInvalidation(['users'], profileKeys.all)
