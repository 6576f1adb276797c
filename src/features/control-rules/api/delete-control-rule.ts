import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import { useInvalidatingMutation } from './control-rule-keys'

export async function deleteControlRule(id: string): Promise<void> {
  const { error } = await getSupabase().from('control_rules').delete().eq('id', id)
  if (error) throwApiError(error, 'Erreur lors de la suppression de la règle de contrôle')
}

export const useDeleteControlRule = () => useInvalidatingMutation(deleteControlRule)
