import { throwApiError } from '@/lib/api-error'
import type { Json } from '@/lib/database.types'
import { getSupabase } from '@/lib/supabase'
import type { ControlRuleInput } from '../model'
import { useInvalidatingMutation } from './control-rule-keys'

const toRow = (input: ControlRuleInput) => ({ ...input, parameters: input.parameters as Json })

export async function createControlRule(input: ControlRuleInput): Promise<void> {
  const { error } = await getSupabase().from('control_rules').insert(toRow(input))
  if (error) throwApiError(error, 'Erreur lors de la création de la règle de contrôle')
}

export async function updateControlRule(id: string, input: ControlRuleInput): Promise<void> {
  const { error } = await getSupabase().from('control_rules').update(toRow(input)).eq('id', id)
  if (error) throwApiError(error, 'Erreur lors de la mise à jour de la règle de contrôle')
}

export const useSaveControlRule = () =>
  useInvalidatingMutation(({ id, input }: { id: string | null; input: ControlRuleInput }) => (id ? updateControlRule(id, input) : createControlRule(input)))
