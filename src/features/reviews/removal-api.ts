/** The RA's request for a refused right's removal (request_right_removal), and the applications the connector manages. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { RIGHTS_QUERY_ROOT } from '@/lib/query-keys'
import { getSupabase } from '@/lib/supabase'

export type RemovalMethod = 'ticket' | 'connector'

export interface RemovalRequest {
  rightId: string
  method: RemovalMethod
  ticket: string | null
}

async function requestRemoval({ rightId, method, ticket }: RemovalRequest): Promise<void> {
  const { error } = await getSupabase().rpc('request_right_removal', {
    p_right_id: rightId,
    p_method: method,
    ...(ticket ? { p_ticket: ticket } : {}),
  })
  if (error) throwApiError(error)
}

async function fetchConnectorApplications(): Promise<ReadonlySet<string>> {
  const { data, error } = await getSupabase().from('remediation_settings').select('application_id').eq('connector_managed', true)
  if (error) throwApiError(error)
  return new Set(data.map((row) => row.application_id))
}

export const useConnectorApplications = () =>
  useQuery({ queryKey: [RIGHTS_QUERY_ROOT, 'connector-applications'], queryFn: fetchConnectorApplications })

export function useRequestRemoval() {
  const queryClient = useQueryClient()
  return useMutation<void, Error, RemovalRequest>({
    mutationFn: requestRemoval,
    onSettled: () => queryClient.invalidateQueries({ queryKey: [RIGHTS_QUERY_ROOT] }),
  })
}
