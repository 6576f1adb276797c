import { useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { BurndownDay } from '../burndown-model'
import { campaignKeys } from './campaign-keys'

/** A campaign's days, in the browser's time zone: decisions per day, rights still undecided, the steady pace. */
export async function fetchCampaignBurndown(campaignId: string): Promise<BurndownDay[]> {
  const { data, error } = await getSupabase().rpc('campaign_burndown', {
    p_campaign_id: campaignId,
    p_time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  })
  if (error) throwApiError(error)
  // numeric arrives as a string from PostgREST.
  return ((data ?? []) as unknown as BurndownDay[]).map((row) => ({ ...row, ideal: Number(row.ideal) }))
}
export const useCampaignBurndown = (campaignId: string) =>
  useQuery({ queryKey: campaignKeys.burndown(campaignId), queryFn: () => fetchCampaignBurndown(campaignId) })
