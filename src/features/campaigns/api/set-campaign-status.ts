import { useMutation } from '@tanstack/react-query'
import type { CampaignStatus } from '@/domain/labels'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import { useInvalidateCampaigns } from './campaign-keys'

/** Starts, completes or archives a campaign: the database checks the transition and does what it sets off. */
export async function setCampaignStatus(id: string, status: CampaignStatus): Promise<void> {
  const { data, error } = await getSupabase().from('campaigns').update({ status }).eq('id', id).select('id')
  if (error) throwApiError(error)
  if (!data?.length) throw new Error("Le statut de la campagne n'a pas pu être modifié.")
}

export function useSetCampaignStatus() {
  const invalidate = useInvalidateCampaigns()
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: CampaignStatus }) => setCampaignStatus(id, status),
    onSuccess: invalidate,
  })
}
