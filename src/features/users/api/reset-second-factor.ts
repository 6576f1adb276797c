import { useMutation } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'

/**
 * An administrator resets another person's second factor (a lost phone): their factors are deleted and their sessions
 * ended, so that they enrol a new one at their next sign-in. The database refuses anyone else, and one's own factor,
 * in French; the reset is audited there.
 */
export async function resetSecondFactor(userId: string): Promise<void> {
  const { error } = await getSupabase().rpc('reset_second_factor', { p_user_id: userId })
  if (error) throwApiError(error, 'Le second facteur n’a pas pu être réinitialisé.')
}

export const useResetSecondFactor = () => useMutation({ mutationFn: resetSecondFactor })
