/** The query cache's keys of the control rules feature, all under ['control-rules'] so that one invalidation refreshes them. */
import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { PageRequest } from '@/lib/paging'
import type { JsonObject } from '../parameters'

export const controlKeys = {
  all: ['control-rules'] as const,
  page: (request: PageRequest<string>) => ['control-rules', 'page', request] as const,
  applications: () => ['control-rules', 'application-choices'] as const,
  roles: (applicationId: string | null) => ['control-rules', 'role-choices', applicationId] as const,
  reach: (parameters: JsonObject, applicationId: string | null) => ['control-rules', 'reach', applicationId, parameters] as const,
  rulesReach: (ruleIds: string[]) => ['control-rules', 'rules-reach', ruleIds] as const,
}

/** A change to the rules: once done, every control rules query reads again. */
export function useInvalidatingMutation<T>(mutationFn: (variables: T) => Promise<void>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: controlKeys.all }) })
}
