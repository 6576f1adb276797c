import type { ApplicationChoice } from '@/domain/applications'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { controlKeys } from './control-rule-keys'

/** Every application a rule may target, not only the first thousand. */
export function fetchApplicationChoices(): Promise<ApplicationChoice[]> {
  return readAllPages((from, to) => getSupabase().from('applications').select('id, name').order('name').order('id').range(from, to))
}

export const applicationChoicesQuery = () => queryOptions({ queryKey: controlKeys.applications(), queryFn: fetchApplicationChoices })
export const useApplicationChoices = (enabled: boolean) => useQuery({ ...applicationChoicesQuery(), enabled })
