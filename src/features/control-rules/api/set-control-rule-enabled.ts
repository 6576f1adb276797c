import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import { useInvalidatingMutation } from './control-rule-keys'

export async function setControlRuleEnabled(id: string, enabled: boolean): Promise<void> {
  const { error } = await getSupabase().from('control_rules').update({ enabled }).eq('id', id)
  if (error) throwApiError(error, 'Erreur lors du changement de statut de la règle de contrôle')
}

export const useToggleControlRule = () => useInvalidatingMutation(({ id, enabled }: { id: string; enabled: boolean }) => setControlRuleEnabled(id, enabled))
