import { useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { RuleReach } from '../parameters'
import { controlKeys } from './control-rule-keys'

/** What each of these saved rules finds today over its own scope, by rule id (rpc control_rules_reach). */
export async function fetchRulesReach(ruleIds: string[]): Promise<Record<string, RuleReach>> {
  const { data, error } = await getSupabase().rpc('control_rules_reach', { p_rule_ids: ruleIds })
  if (error) throwApiError(error, 'Le nombre de personnes concernées n’a pas pu être calculé.')
  const rows = (data ?? []) as unknown as { rule_id: string; violations: RuleReach }[]
  return Object.fromEntries(rows.map((row) => [row.rule_id, row.violations]))
}

/** The rules of the page on screen; read apart from the page so that the table never waits for the counts. */
export const useRulesReach = (ruleIds: string[]) =>
  useQuery({ queryKey: controlKeys.rulesReach(ruleIds), queryFn: () => fetchRulesReach(ruleIds), enabled: ruleIds.length > 0 })
