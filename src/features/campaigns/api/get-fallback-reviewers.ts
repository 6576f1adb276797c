import { useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { ReviewerChoice } from '../reviewers-model'
import { reviewerKeys } from './reviewer-keys'

/** The people who decide for a campaign's reviewers who cannot. */
export async function fetchFallbackReviewers(campaignId: string): Promise<ReviewerChoice[]> {
  const { data, error } = await getSupabase()
    .from('campaign_fallback_reviewers')
    .select('user_id, person:users!campaign_fallback_reviewers_user_id_fkey(first_name, last_name, email)')
    .eq('campaign_id', campaignId)
    .order('user_id')
  if (error) throwApiError(error)
  return ((data ?? []) as unknown as { user_id: string; person: { first_name: string; last_name: string; email: string } | null }[]).map((row) => ({
    id: row.user_id,
    full_name: row.person ? `${row.person.first_name} ${row.person.last_name}` : row.user_id,
    email: row.person?.email ?? '',
  }))
}

export const useFallbackReviewers = (campaignId: string) =>
  useQuery({ queryKey: reviewerKeys.fallback(campaignId), queryFn: () => fetchFallbackReviewers(campaignId) })
