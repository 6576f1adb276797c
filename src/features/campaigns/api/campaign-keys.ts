/** The query cache's keys of the campaigns feature, all under ['campaigns'] so that one invalidation refreshes them. */
import { useQueryClient } from '@tanstack/react-query'
import type { PageRequest } from '@/lib/paging'
import type { CampaignSort } from './get-campaigns-page'

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: () => ['campaigns', 'list'] as const,
  page: (request: PageRequest<CampaignSort>) => ['campaigns', 'page', request] as const,
  one: (id: string) => ['campaigns', 'one', id] as const,
  burndown: (id: string) => ['campaigns', 'burndown', id] as const,
  running: () => ['campaigns', 'running'] as const,
  applicationOptions: () => ['campaigns', 'application-options'] as const,
  importReference: () => ['campaigns', 'import-reference'] as const,
}

/** After a change to campaigns: every campaigns query reads again. */
export function useInvalidateCampaigns() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: campaignKeys.all })
}
