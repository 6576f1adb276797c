/** The only file of the controls feature that calls Supabase. Only admin and rssi may read control rules (RLS). */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import type { Json } from '@/lib/database.types'
import type { ApplicationChoice, ControlRuleInput, ControlRuleRow } from './model'

const toRow = (input: ControlRuleInput) => ({ ...input, parameters: input.parameters as Json })

/** Every rule, newest first; the id breaks ties so that pages neither overlap nor skip. */
export function fetchControlRules(): Promise<ControlRuleRow[]> {
  return readAllPages((from, to) =>
    getSupabase()
      .from('control_rules')
      .select('*, application:application_id(name)')
      .order('created_at', { ascending: false })
      .order('id')
      .range(from, to)
      .overrideTypes<ControlRuleRow[], { merge: false }>(),
  )
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
  list: () => ['control-rules', 'list'] as const,
  applications: () => ['control-rules', 'application-choices'] as const,
}

export const controlRulesQuery = () => queryOptions({ queryKey: controlKeys.list(), queryFn: fetchControlRules })
export const applicationChoicesQuery = () => queryOptions({ queryKey: controlKeys.applications(), queryFn: fetchApplicationChoices })

/** Rules changed by another administrator, or an application renamed, show without a reload. */
export const useLiveControlRules = () => useLiveInvalidation(['control_rules', 'applications'], controlKeys.all)
export const useControlRules = () => useQuery(controlRulesQuery())
export const useApplicationChoices = (enabled: boolean) => useQuery({ ...applicationChoicesQuery(), enabled })

function useInvalidatingMutation<T>(mutationFn: (variables: T) => Promise<void>) {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: controlKeys.all }) })
}

export const useSaveControlRule = () =>
  useInvalidatingMutation(({ id, input }: { id: string | null; input: ControlRuleInput }) => (id ? updateControlRule(id, input) : createControlRule(input)))
export const useToggleControlRule = () => useInvalidatingMutation(({ id, enabled }: { id: string; enabled: boolean }) => setControlRuleEnabled(id, enabled))
export const useDeleteControlRule = () => useInvalidatingMutation(deleteControlRule)
