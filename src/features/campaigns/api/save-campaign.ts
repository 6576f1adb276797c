import { useMutation } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { CampaignPayload, CampaignSettingsPayload } from '../model'
import { useInvalidateCampaigns } from './campaign-keys'

export async function createCampaign(payload: CampaignPayload): Promise<void> {
  const { error } = await getSupabase().from('campaigns').insert(payload)
  if (error) throwApiError(error)
}

/** A draft's whole form, or a running campaign's e-mail settings (the database refuses any other change to it). */
export async function updateCampaign(id: string, payload: CampaignPayload | CampaignSettingsPayload): Promise<void> {
  const { data, error } = await getSupabase().from('campaigns').update(payload).eq('id', id).select('id')
  if (error) throwApiError(error)
  if (!data?.length) throw new Error("La campagne n'a pas pu être modifiée.")
}

export type SaveCampaignInput = { id?: undefined; payload: CampaignPayload } | { id: string; payload: CampaignPayload | CampaignSettingsPayload }

/** Creates the campaign, or updates it when it has an id. */
export function useSaveCampaign() {
  const invalidate = useInvalidateCampaigns()
  return useMutation({
    mutationFn: (input: SaveCampaignInput) => (input.id === undefined ? createCampaign(input.payload) : updateCampaign(input.id, input.payload)),
    onSuccess: invalidate,
  })
}
