import { useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { CampaignSignoff } from '../reviewers-model'
import { reviewerKeys } from './reviewer-keys'

/** Each reviewer of each stage of a campaign, who signed and who has not; a null reviewer: items without reviewer. */
export async function fetchCampaignSignoffs(campaignId: string): Promise<CampaignSignoff[]> {
  const { data, error } = await getSupabase().rpc('campaign_signoffs_for_evidence', { p_campaign_id: campaignId })
  if (error) throwApiError(error)
  return (data ?? []) as unknown as CampaignSignoff[]
}

export const useCampaignSignoffs = (campaignId: string) =>
  useQuery({ queryKey: reviewerKeys.signoffs(campaignId), queryFn: () => fetchCampaignSignoffs(campaignId) })
