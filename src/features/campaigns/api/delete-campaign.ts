import { useMutation } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import { useInvalidateCampaigns } from './campaign-keys'

export async function deleteCampaign(id: string): Promise<void> {
  const { data, error } = await getSupabase().from('campaigns').delete().eq('id', id).select('id')
  if (error) throwApiError(error)
  if (!data?.length) throw new Error("La campagne n'a pas pu être supprimée.")
}

export function useDeleteCampaign() {
  const invalidate = useInvalidateCampaigns()
  return useMutation({ mutationFn: (id: string) => deleteCampaign(id), onSuccess: invalidate })
}
