import { useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import { controlKeys } from './control-rule-keys'

/** The role names the rights bear today on one application, or on any when null, by name (rpc control_rule_roles). */
export async function fetchRoleChoices(applicationId: string | null): Promise<string[]> {
  const { data, error } = await getSupabase().rpc('control_rule_roles', { p_application_id: applicationId ?? undefined })
  if (error) throwApiError(error, 'Les rôles n’ont pas pu être lus.')
  return (data ?? []).map((row) => (typeof row === 'string' ? row : (row as { role_name: string }).role_name))
}

/** Read once a scope is chosen: `applicationId` undefined while a rule's application is not picked yet. */
export const useRoleChoices = (applicationId: string | null | undefined) =>
  useQuery({
    queryKey: controlKeys.roles(applicationId ?? null),
    queryFn: () => fetchRoleChoices(applicationId ?? null),
    enabled: applicationId !== undefined,
  })
