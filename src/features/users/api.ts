/** The only file of the users feature that calls Supabase. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import type { UserInput, UserRow } from './model'

/** Everyone, by last name then first name; the id breaks ties so that no one falls between two pages. */
export function fetchUsers(): Promise<UserRow[]> {
  return readAllPages((from, to) =>
    getSupabase()
      .from('users')
      .select('*, manager:manager_id(first_name,last_name)')
      .order('last_name')
      .order('first_name')
      .order('id')
      .range(from, to)
      .overrideTypes<UserRow[], { merge: false }>(),
  )
}

export async function createUser(input: UserInput): Promise<void> {
  const { error } = await getSupabase().from('users').insert(input)
  if (error) throwApiError(error, "Erreur lors de la création de l'utilisateur")
}

export async function updateUser(id: string, input: UserInput): Promise<void> {
  const { error } = await getSupabase().from('users').update(input).eq('id', id)
  if (error) throwApiError(error, "Erreur lors de la mise à jour de l'utilisateur")
}

export async function deleteUser(id: string): Promise<void> {
  const { error } = await getSupabase().from('users').delete().eq('id', id)
  if (error) throwApiError(error, "Erreur lors de la suppression de l'utilisateur")
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
