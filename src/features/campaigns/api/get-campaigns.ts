import { queryOptions, useQuery } from '@tanstack/react-query'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import type { Campaign } from '../model'
import { campaignKeys } from './campaign-keys'
import { CAMPAIGN_SELECT, toCampaign, type CampaignRow, type ProgressRow } from './campaign-rows'

/** Every campaign, newest first, with its progress; both reads go past the API's 1000 rows. */
export async function fetchCampaigns(): Promise<Campaign[]> {
  const supabase = getSupabase()
  const [campaigns, progress] = await Promise.all([
    readAllPages((from, to) =>
      supabase
        .from('campaigns')
        .select(CAMPAIGN_SELECT)
        .order('created_at', { ascending: false })
        .order('id')
        .range(from, to)
        .overrideTypes<CampaignRow[], { merge: false }>(),
    ),
    readAllPages<ProgressRow>((from, to) => supabase.from('campaign_progress').select('*').order('campaign_id').range(from, to)),
  ])
  const byCampaign = new Map(progress.map((row) => [row.campaign_id, row]))
  return campaigns.map((row) => toCampaign(row, byCampaign.get(row.id)))
}

export const campaignsQuery = () => queryOptions({ queryKey: campaignKeys.list(), queryFn: fetchCampaigns })
export const useCampaigns = () => useQuery(campaignsQuery())
