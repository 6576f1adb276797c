import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { narrowToPage, type Page, type PageRequest } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import type { ControlRuleRow } from '../model'
import { controlKeys } from './control-rule-keys'

/** The columns the rules page sorts on, each read as its orders; the id comes last as a tie-breaker. */
export const CONTROL_RULE_SORTS = {
  created_at: ['created_at'],
  name: ['name'],
  description: ['description'],
  global: ['global'],
  application: ['application(name)'],
  parameters: ['parameters'],
  enabled: ['enabled'],
} as const satisfies Record<string, readonly string[]>
export type ControlRuleSort = keyof typeof CONTROL_RULE_SORTS

/** What a search of the rules page looks in: each column has a trigram index (the control rules migration). */
const CONTROL_RULE_SEARCH_COLUMNS = ['name', 'description'] as const

/** One page of the rules, searched and sorted on the server, with how many the search finds in all. Admin and rssi only (RLS). */
export async function fetchControlRulesPage(request: PageRequest<ControlRuleSort>): Promise<Page<ControlRuleRow>> {
  const query = getSupabase().from('control_rules').select('*, application:application_id(name)', { count: 'exact' })
  const columns = { search: CONTROL_RULE_SEARCH_COLUMNS, sort: CONTROL_RULE_SORTS[request.sort] }
  const { data, error, count } = await narrowToPage(query, request, columns).overrideTypes<ControlRuleRow[], { merge: false }>()
  if (error) throwApiError(error)
  return { rows: data ?? [], total: count ?? 0 }
}

// The page read keeps showing while the next one loads, so that paging and typing never blank the table.
export const controlRulesPageQuery = (request: PageRequest<ControlRuleSort>) =>
  queryOptions({ queryKey: controlKeys.page(request), queryFn: () => fetchControlRulesPage(request), placeholderData: keepPreviousData })
export const useControlRulesPage = (request: PageRequest<ControlRuleSort>) => useQuery(controlRulesPageQuery(request))
