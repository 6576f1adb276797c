/** The only file of the profile feature that calls Supabase. */
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { DEFAULT_ERROR_MESSAGE } from '@/components/ui/ErrorBox'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import { nextHistoryCursor, type DecisionEntry, type HistoryCursor, type HistoryScope, type MyRight, type ProfileDetails } from './model'

/** Decisions per page of the history; older ones come with 'Afficher plus'. */
export const HISTORY_PAGE_SIZE = 50

function fail(error: { message: string }): never {
  throw new Error(error.message?.trim() ? error.message : DEFAULT_ERROR_MESSAGE)
}

export async function fetchProfile(userId: string): Promise<ProfileDetails> {
  const { data, error } = await getSupabase()
    .from('users')
    .select('id, email, first_name, last_name, role, position, department, last_login, manager:manager_id(first_name, last_name)')
    .eq('id', userId)
    .single()
  if (error) fail(error)
  return data as unknown as ProfileDetails
}

/** Every right the caller holds, newest grant first. */
export function fetchMyRights(userId: string): Promise<MyRight[]> {
  return readAllPages(
    (from, to) =>
      getSupabase()
        .from('user_rights')
        .select('id, status, role_name, account_type, granted_at, last_used_at, application:application_id(name), campaign:campaign_id(name)')
        .eq('user_id', userId)
        .order('granted_at', { ascending: false })
        .order('id', { ascending: true })
        .range(from, to)
        .overrideTypes<MyRight[], { merge: false }>(),
    fail,
  )
}

/** One page of the caller's decision history, newest first. */
export async function fetchDecisionHistory(scope: HistoryScope, cursor?: HistoryCursor): Promise<DecisionEntry[]> {
  const { data, error } = await getSupabase().rpc('decision_history', {
    p_scope: scope,
    p_limit: HISTORY_PAGE_SIZE,
    ...(cursor ? { p_before_at: cursor.beforeAt, p_before_id: cursor.beforeId } : {}),
  })
  if (error) fail(error)
  return (data ?? []) as unknown as DecisionEntry[]
}

export const profileKeys = {
  all: ['profile'] as const,
  details: (userId: string) => ['profile', 'details', userId] as const,
  rights: (userId: string) => ['profile', 'rights', userId] as const,
  history: (userId: string, scope: HistoryScope) => ['profile', 'history', userId, scope] as const,
}

export const profileQuery = (userId: string) => queryOptions({ queryKey: profileKeys.details(userId), queryFn: () => fetchProfile(userId) })
export const myRightsQuery = (userId: string) => queryOptions({ queryKey: profileKeys.rights(userId), queryFn: () => fetchMyRights(userId) })
export const decisionHistoryQuery = (userId: string, scope: HistoryScope) =>
  infiniteQueryOptions({
    queryKey: profileKeys.history(userId, scope),
    queryFn: ({ pageParam }) => fetchDecisionHistory(scope, pageParam),
    initialPageParam: undefined as HistoryCursor | undefined,
    getNextPageParam: (lastPage) => nextHistoryCursor(lastPage, HISTORY_PAGE_SIZE),
  })

export const useProfile = (userId: string) => useQuery(profileQuery(userId))
export const useMyRights = (userId: string) => useQuery(myRightsQuery(userId))
export const useDecisionHistory = (userId: string, scope: HistoryScope) => useInfiniteQuery(decisionHistoryQuery(userId, scope))

/** A decision on one of my rights (it changes the right) or a change to my profile shows without a reload. */
export const useLiveProfile = () => useLiveInvalidation(['user_rights', 'users'], profileKeys.all)
