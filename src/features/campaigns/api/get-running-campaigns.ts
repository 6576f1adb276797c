import { useQuery } from '@tanstack/react-query'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import type { RunningCampaign } from '../burndown-model'
import { campaignKeys } from './campaign-keys'

/** The running campaigns, oldest first, whatever page of the list is on screen: those the burndown can draw. */
export function fetchRunningCampaigns(): Promise<RunningCampaign[]> {
  return readAllPages((from, to) =>
    getSupabase()
      .from('campaigns')
      .select('id,name,start_date,end_date')
      .eq('status', 'active')
      .order('start_date')
      .order('id')
      .range(from, to),
  )
}
export const useRunningCampaigns = () => useQuery({ queryKey: campaignKeys.running(), queryFn: fetchRunningCampaigns })
