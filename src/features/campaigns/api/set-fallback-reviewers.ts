import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import { useReviewersMutation } from './reviewer-keys'

export async function setFallbackReviewers({ campaignId, userIds }: { campaignId: string; userIds: string[] }): Promise<void> {
  const { error } = await getSupabase().rpc('set_campaign_fallback_reviewers', { p_campaign_id: campaignId, p_user_ids: userIds })
  if (error) throwApiError(error)
}

export const useSetFallbackReviewers = (campaignId: string) => useReviewersMutation(campaignId, setFallbackReviewers)
