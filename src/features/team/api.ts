/** The only file of the team feature that calls Supabase. */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { RIGHTS_QUERY_ROOT } from '@/lib/query-keys'
import { getSupabase } from '@/lib/supabase'
import type { TeamMember } from './model'

export async function fetchTeamMembers(): Promise<TeamMember[]> {
  const { data, error } = await getSupabase().rpc('team_progress', {})
  if (error) throwApiError(error)
  return (data ?? []) as unknown as TeamMember[]
}

// The team's figures count decisions: under the rights root, which every decision invalidates.
export const teamKeys = {
  members: () => [RIGHTS_QUERY_ROOT, 'team', 'members'] as const,
}

export const teamMembersQuery = () => queryOptions({ queryKey: teamKeys.members(), queryFn: fetchTeamMembers })

export const useTeamMembers = () => useQuery(teamMembersQuery())
