import { useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { ReviewerGap } from '../reviewers-model'
import { reviewerKeys } from './reviewer-keys'

/** For the running campaigns among these, the rights waiting at a stage where nobody may decide them (admin, rssi). */
export async function fetchReviewerGaps(campaignIds: readonly string[]): Promise<ReviewerGap[]> {
  if (campaignIds.length === 0) return []
  const { data, error } = await getSupabase().rpc('campaign_reviewer_gaps', { p_campaign_ids: [...campaignIds] })
  if (error) throwApiError(error)
  return (data ?? []) as unknown as ReviewerGap[]
}

/** Asked again after any change to campaigns or their reviewers (naming a fallback reviewer, reassigning, deciding). */
export const useReviewerGaps = (campaignIds: readonly string[], enabled = true) =>
  useQuery({
    queryKey: reviewerKeys.gaps(campaignIds),
    queryFn: () => fetchReviewerGaps(campaignIds),
    enabled: enabled && campaignIds.length > 0,
  })
