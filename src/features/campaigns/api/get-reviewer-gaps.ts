import { useQuery } from '@tanstack/react-query'
import { useLiveInvalidation } from '@/lib/realtime'
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

/**
 * Asked again when campaigns, applications or people change (a start, an owner, a deactivation) and after naming a
 * fallback reviewer or reassigning; not on each decision, which would count every running item again every few
 * seconds while reviewers work.
 */
export function useReviewerGaps(campaignIds: readonly string[], enabled = true) {
  useLiveInvalidation(['campaigns', 'applications', 'users'], reviewerKeys.gapsRoot, { debounceMs: 1000, maxWaitMs: 5000 })
  return useQuery({
    queryKey: reviewerKeys.gaps(campaignIds),
    queryFn: () => fetchReviewerGaps(campaignIds),
    enabled: enabled && campaignIds.length > 0,
  })
}
