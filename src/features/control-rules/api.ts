/** The only file of the controls feature that calls Supabase. Only admin and rssi may read control rules (RLS). */
import type { ApplicationChoice } from '@/domain/applications'
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { pageRange, readAllPages, searchFilter, type Page, type PageRequest } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import type { Json } from '@/lib/database.types'
import type { ControlRuleInput, ControlRuleRow } from './model'

const toRow = (input: ControlRuleInput) => ({ ...input, parameters: input.parameters as Json })

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

/** What a search of the rules page looks in: each column has a trigram index (the review rules migration). */
const CONTROL_RULE_SEARCH_COLUMNS = ['name', 'description'] as const

/** One page of the rules, searched and sorted on the server, with how many the search finds in all. */
export async function fetchControlRulesPage(request: PageRequest<ControlRuleSort>): Promise<Page<ControlRuleRow>> {
  let query = getSupabase().from('control_rules').select('*, application:application_id(name)', { count: 'exact' })
  const search = searchFilter(request.search, CONTROL_RULE_SEARCH_COLUMNS)
  if (search) query = query.or(search)
  for (const column of CONTROL_RULE_SORTS[request.sort]) {
    // Empty cells last whichever the direction, so that the filled ones lead.
    query = query.order(column, { ascending: request.direction === 'asc', nullsFirst: false })
  }
  const { data, error, count } = await query
    .order('id')
    .range(...pageRange(request))
    .overrideTypes<ControlRuleRow[], { merge: false }>()
  if (error) throwApiError(error)
  return { rows: data ?? [], total: count ?? 0 }
}

/** Every application a rule may target, not only the first thousand. */
export function fetchApplicationChoices(): Promise<ApplicationChoice[]> {
  return readAllPages((from, to) => getSupabase().from('applications').select('id, name').order('name').order('id').range(from, to))
}

export async function createControlRule(input: ControlRuleInput): Promise<void> {
  const { error } = await getSupabase().from('control_rules').insert(toRow(input))
  if (error) throwApiError(error, 'Erreur lors de la création de la règle de contrôle')
}

export async function updateControlRule(id: string, input: ControlRuleInput): Promise<void> {
  const { error } = await getSupabase().from('control_rules').update(toRow(input)).eq('id', id)
  if (error) throwApiError(error, 'Erreur lors de la mise à jour de la règle de contrôle')
}

export async function setControlRuleEnabled(id: string, enabled: boolean): Promise<void> {
  const { error } = await getSupabase().from('control_rules').update({ enabled }).eq('id', id)
  if (error) throwApiError(error, 'Erreur lors du changement de statut de la règle de contrôle')
}

export async function deleteControlRule(id: string): Promise<void> {
  const { error } = await getSupabase().from('control_rules').delete().eq('id', id)
  if (error) throwApiError(error, 'Erreur lors de la suppression de la règle de contrôle')
}

export const controlKeys = {
  all: ['control-rules'] as const,
  page: (request: PageRequest<ControlRuleSort>) => ['control-rules', 'page', request] as const,
  applications: () => ['control-rules', 'application-choices'] as const,
}

// The page read keeps showing while the next one loads, so that paging and typing never blank the table.
export const controlRulesPageQuery = (request: PageRequest<ControlRuleSort>) =>
  queryOptions({ queryKey: controlKeys.page(request), queryFn: () => fetchControlRulesPage(request), placeholderData: keepPreviousData })
export const applicationChoicesQuery = () => queryOptions({ queryKey: controlKeys.applications(), queryFn: fetchApplicationChoices })

/** Rules changed by another administrator, or an application renamed, show without a reload. */
export const useLiveControlRules = () => useLiveInvalidation(['control_rules', 'applications'], controlKeys.all)
export const useControlRulesPage = (request: PageRequest<ControlRuleSort>) => useQuery(controlRulesPageQuery(request))
export const useApplicationChoices = (enabled: boolean) => useQuery({ ...applicationChoicesQuery(), enabled })

function useInvalidatingMutation<T>(mutationFn: (variables: T) => Promise<void>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: controlKeys.all }) })
}

export const useSaveControlRule = () =>
  useInvalidatingMutation(({ id, input }: { id: string | null; input: ControlRuleInput }) => (id ? updateControlRule(id, input) : createControlRule(input)))
export const useToggleControlRule = () => useInvalidatingMutation(({ id, enabled }: { id: string; enabled: boolean }) => setControlRuleEnabled(id, enabled))
export const useDeleteControlRule = () => useInvalidatingMutation(deleteControlRule)
