import { useMutation } from '@tanstack/react-query'
import type { CampaignStatus } from '@/domain/labels'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import { useInvalidateCampaigns } from './campaign-keys'

/**
 * Starts, completes or archives a campaign: the database checks the transition and does what it sets off, through
 * set_campaign_status, whose own time limit a large campaign's start or completion fits (a PATCH has the role's 8 s).
 */
export async function setCampaignStatus(id: string, status: CampaignStatus): Promise<void> {
  const { error } = await getSupabase().rpc('set_campaign_status', { p_campaign_id: id, p_status: status })
  if (error) throwApiError(error)
}

export function useSetCampaignStatus() {
  const invalidate = useInvalidateCampaigns()
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: CampaignStatus }) => setCampaignStatus(id, status),
    onSuccess: invalidate,
  })
}
