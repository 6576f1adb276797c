import { queryOptions, useQuery } from '@tanstack/react-query'
import type { ApplicationChoice } from '@/domain/applications'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { campaignKeys } from './campaign-keys'

/** Every application a campaign may target, not only the first thousand. */
export function fetchApplicationOptions(): Promise<ApplicationChoice[]> {
  return readAllPages((from, to) => getSupabase().from('applications').select('id,name').order('name').order('id').range(from, to))
}

export const applicationOptionsQuery = () =>
  queryOptions({ queryKey: campaignKeys.applicationOptions(), queryFn: fetchApplicationOptions, staleTime: 60_000 })
export const useApplicationOptions = (enabled = true) => useQuery({ ...applicationOptionsQuery(), enabled })
