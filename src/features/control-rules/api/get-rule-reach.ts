import { useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import type { Json } from '@/lib/database.types'
import { getSupabase } from '@/lib/supabase'
import type { JsonObject, RuleReach } from '../parameters'
import { controlKeys } from './control-rule-keys'

/** What a rule being written would find today, by the compliance page's own count (rpc control_rule_reach). */
export async function fetchRuleReach(parameters: JsonObject, applicationId: string | null): Promise<RuleReach> {
  const { data, error } = await getSupabase().rpc('control_rule_reach', { p_parameters: parameters as Json, p_application_id: applicationId ?? undefined })
  if (error) throwApiError(error, 'Le nombre de personnes concernées n’a pas pu être calculé.')
  return (data ?? {}) as RuleReach
}

/** `draft` null while the rule states nothing complete or its scope is not chosen. */
export const useRuleReach = (draft: { parameters: JsonObject; applicationId: string | null } | null) =>
  useQuery({
    queryKey: controlKeys.reach(draft?.parameters ?? {}, draft?.applicationId ?? null),
    queryFn: () => fetchRuleReach(draft!.parameters, draft!.applicationId),
    enabled: draft !== null,
  })
