/** The only file of the team feature that calls Supabase. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { DEFAULT_ERROR_MESSAGE } from '@/components/ui/ErrorBox'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import { EMPTY_SUMMARY, type AwaitingRight, type MemberRight, type TeamMember, type TeamSummary } from './model'

/** How many of the rights awaiting the manager the dashboard lists; Mes revues has them all. */
export const DASHBOARD_AWAITING_ROWS = 10

function fail(error: { message: string }): never {
  throw new Error(error.message?.trim() ? error.message : DEFAULT_ERROR_MESSAGE)
}

/** Counted in Postgres over the whole team, so the figures hold past the API's 1000-row page. */
export async function fetchTeamSummary(): Promise<TeamSummary> {
  const { data, error } = await getSupabase().rpc('manager_dashboard', {})
  if (error) fail(error)
  const row = (Array.isArray(data) ? data[0] : data) as Partial<TeamSummary> | null | undefined
  return { ...EMPTY_SUMMARY, ...row }
}

export async function fetchTeamMembers(): Promise<TeamMember[]> {
  const { data, error } = await getSupabase().rpc('team_progress', {})
  if (error) fail(error)
  return (data ?? []) as unknown as TeamMember[]
}

/** The first page of the caller's review queue: a manager's queue is their team's rights awaiting them. */
export async function fetchAwaitingRights(limit = DASHBOARD_AWAITING_ROWS): Promise<AwaitingRight[]> {
  const { data, error } = await getSupabase().rpc('review_queue', { p_limit: limit })
  if (error) fail(error)
  return (data ?? []) as unknown as AwaitingRight[]
}

/** Every right of one team member, newest grant first; row-level security lets a manager read their reports'. */
export function fetchMemberRights(userId: string): Promise<MemberRight[]> {
  return readAllPages(
    (from, to) =>
      getSupabase()
        .from('user_rights')
        .select('id, status, role_name, account_type, granted_at, last_used_at, application:application_id(name), campaign:campaign_id(name)')
        .eq('user_id', userId)
        .order('granted_at', { ascending: false })
        .order('id', { ascending: true })
        .range(from, to)
        .overrideTypes<MemberRight[], { merge: false }>(),
    fail,
  )
}

export const teamKeys = {
  all: ['team'] as const,
  summary: () => ['team', 'summary'] as const,
  members: () => ['team', 'members'] as const,
  awaiting: () => ['team', 'awaiting'] as const,
  memberRights: (userId: string) => ['team', 'member-rights', userId] as const,
}

export const teamSummaryQuery = () => queryOptions({ queryKey: teamKeys.summary(), queryFn: fetchTeamSummary })
export const teamMembersQuery = () => queryOptions({ queryKey: teamKeys.members(), queryFn: fetchTeamMembers })
export const awaitingRightsQuery = () => queryOptions({ queryKey: teamKeys.awaiting(), queryFn: () => fetchAwaitingRights() })
export const memberRightsQuery = (userId: string) =>
  queryOptions({ queryKey: teamKeys.memberRights(userId), queryFn: () => fetchMemberRights(userId) })

export const useTeamSummary = () => useQuery(teamSummaryQuery())
export const useTeamMembers = () => useQuery(teamMembersQuery())
export const useAwaitingRights = () => useQuery(awaitingRightsQuery())
export const useMemberRights = (userId: string) => useQuery(memberRightsQuery(userId))

/** Decisions on the team's rights, people joining or leaving the team, campaigns started or closed: all live. */
export const useLiveTeam = () => useLiveInvalidation(['user_rights', 'users', 'campaigns'], teamKeys.all)
