import { useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'

/** What Démarrer would do to a draft now: the rights it would take, and those it leaves with the RA. */
export interface StartPreview {
  rightsToAttach: number
  rightsLeftWithRa: number
}

export async function fetchStartPreview(campaignId: string): Promise<StartPreview> {
  const { data, error } = await getSupabase().rpc('campaign_start_preview', { p_campaign_id: campaignId })
  if (error) throwApiError(error)
  const preview = data as { rights_to_attach: number; rights_left_with_ra: number }
  return { rightsToAttach: preview.rights_to_attach, rightsLeftWithRa: preview.rights_left_with_ra }
}

export const useStartPreview = (campaignId: string) =>
  useQuery({ queryKey: ['campaigns', 'start-preview', campaignId], queryFn: () => fetchStartPreview(campaignId), staleTime: 0 })
