import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { ReassignInput } from '../reviewers-model'
import { useReviewersMutation } from './reviewer-keys'

/** Moves a reviewer's items of a campaign to another person, for a reason and until a date. */
export async function reassignItems(input: ReassignInput): Promise<void> {
  const { error } = await getSupabase().rpc('reassign_review_items', {
    p_campaign_id: input.campaignId,
    p_from_id: input.fromId,
    p_to_id: input.toId,
    p_reason: input.reason,
    p_ends_on: input.endsOn,
  })
  if (error) throwApiError(error)
}

export const useReassignItems = (campaignId: string) => useReviewersMutation(campaignId, reassignItems)
