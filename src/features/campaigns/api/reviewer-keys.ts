/** The query cache's keys of a campaign's reviewers, and the mutation that reads them again once it settles. */
import { useMutation, useQueryClient } from '@tanstack/react-query'

export const reviewerKeys = {
  all: (campaignId: string) => ['campaigns', 'reviewers', campaignId] as const,
  signoffs: (campaignId: string) => ['campaigns', 'reviewers', campaignId, 'signoffs'] as const,
  fallback: (campaignId: string) => ['campaigns', 'reviewers', campaignId, 'fallback'] as const,
  // Outside the campaigns' root, which every decision refreshes: counting them reads every item of the running
  // campaigns, and a decision changes them only in the rare case of four eyes.
  gapsRoot: ['reviewer-gaps'] as const,
  gaps: (campaignIds: readonly string[]) => ['reviewer-gaps', [...campaignIds].sort()] as const,
  search: (search: string) => ['campaigns', 'reviewer-search', search] as const,
}

export function useReviewersMutation<T>(campaignId: string, fn: (input: T) => Promise<void>) {
  const queryClient = useQueryClient()
  return useMutation<void, Error, T>({
    mutationFn: fn,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewerKeys.all(campaignId) }),
        queryClient.invalidateQueries({ queryKey: reviewerKeys.gapsRoot }),
      ]),
  })
}
