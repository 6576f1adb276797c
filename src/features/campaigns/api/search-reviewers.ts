import { useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { ReviewerChoice } from '../reviewers-model'
import { reviewerKeys } from './reviewer-keys'

/** At most 20 active people matching the search, looked up on the server. */
export async function searchReviewers(search: string): Promise<ReviewerChoice[]> {
  if (search.trim().length < 2) return []
  const { data, error } = await getSupabase().rpc('delegate_candidates', { p_search: search })
  if (error) throwApiError(error)
  return (data ?? []) as unknown as ReviewerChoice[]
}

export const useReviewerSearch = (search: string) => useQuery({ queryKey: reviewerKeys.search(search), queryFn: () => searchReviewers(search) })
