import { useMutation } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { CampaignPayload } from '../model'
import { useInvalidateCampaigns } from './campaign-keys'

export async function createCampaign(payload: CampaignPayload): Promise<void> {
  const { error } = await getSupabase().from('campaigns').insert(payload)
  if (error) throwApiError(error)
}

export async function updateCampaign(id: string, payload: CampaignPayload): Promise<void> {
  const { data, error } = await getSupabase().from('campaigns').update(payload).eq('id', id).select('id')
  if (error) throwApiError(error)
  if (!data?.length) throw new Error("La campagne n'a pas pu être modifiée.")
}

/** Creates the campaign, or updates it when it has an id. */
export function useSaveCampaign() {
  const invalidate = useInvalidateCampaigns()
  return useMutation({
    mutationFn: ({ id, payload }: { id?: string; payload: CampaignPayload }) =>
      id ? updateCampaign(id, payload) : createCampaign(payload),
    onSuccess: invalidate,
  })
}
