/** The only file of the users feature that calls Supabase. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { DEFAULT_ERROR_MESSAGE } from '@/components/ui/ErrorBox'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import type { UserInput, UserRow } from './model'

/** The server's French message, or SPEC §8's fallback in French when it gave none. */
function fail(error: { message: string }, fallback = DEFAULT_ERROR_MESSAGE): never {
  throw new Error(error.message?.trim() ? error.message : fallback)
}

export async function fetchUsers(): Promise<UserRow[]> {
  const { data, error } = await getSupabase().from('users').select('*, manager:manager_id(first_name,last_name)').order('last_name')
  if (error) fail(error)
  return (data ?? []) as unknown as UserRow[]
}

export async function createUser(input: UserInput): Promise<void> {
  const { error } = await getSupabase().from('users').insert(input)
  if (error) fail(error, "Erreur lors de la création de l'utilisateur")
}

export async function updateUser(id: string, input: UserInput): Promise<void> {
  const { error } = await getSupabase().from('users').update(input).eq('id', id)
  if (error) fail(error, "Erreur lors de la mise à jour de l'utilisateur")
}

export async function deleteUser(id: string): Promise<void> {
  const { error } = await getSupabase().from('users').delete().eq('id', id)
  if (error) fail(error, "Erreur lors de la suppression de l'utilisateur")
}

export const userKeys = {
  all: ['users'] as const,
  list: () => ['users', 'list'] as const,
}

export const usersQuery = () => queryOptions({ queryKey: userKeys.list(), queryFn: fetchUsers })
export const useUsers = () => useQuery(usersQuery())
/** People added, edited or removed by another administrator (or an import) show without a reload. */
export const useLiveUsers = () => useLiveInvalidation(['users'], userKeys.all)

export function useSaveUser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: UserInput }) => (id ? updateUser(id, input) : createUser(input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  })
}

export function useDeleteUser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  })
}
