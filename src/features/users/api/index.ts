/** The users feature's calls to Supabase, the only code of the feature that talks to it; each new operation in its own module. */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { rowOrNull, throwApiError } from '@/lib/api-error'
import { narrowToPage, searchFilter, type Page, type PageRequest } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import type { ManagerChoice, UserInput, UserRow } from '../model'

/** The columns the users page sorts on; each is read as the orders that make it up, the id last as a tie-breaker. */
export const USER_SORTS = {
  name: ['last_name', 'first_name'],
  email: ['email'],
  role: ['role'],
  position: ['position'],
  department: ['department'],
  manager: ['manager(last_name)', 'manager(first_name)'],
  last_login: ['last_login'],
} as const satisfies Record<string, readonly string[]>
export type UserSort = keyof typeof USER_SORTS

/**
 * What a search of the users page looks in: search_text, the first and last names, e-mail, position and department in
 * one generated column with one trigram index (the directory migration). Every word must be in it.
 */
const USER_SEARCH_COLUMNS = ['search_text'] as const

/** UserRow's columns: search_text, a copy of five of them, stays on the server. */
const USER_SELECT =
  'id, email, first_name, last_name, role, position, department, manager_id, last_login, active, created_at, updated_at, manager:manager_id(first_name,last_name)'

/** Which accounts the list shows: all of them, those in use, or the leavers'. */
export type AccountFilter = 'all' | 'active' | 'inactive'

/** One page of the people, searched, filtered and sorted on the server, with how many it finds in all. */
export async function fetchUsersPage(request: PageRequest<UserSort>, accounts: AccountFilter = 'all'): Promise<Page<UserRow>> {
  let query = getSupabase().from('users').select(USER_SELECT, { count: 'exact' })
  if (accounts !== 'all') query = query.eq('active', accounts === 'active')
  const columns = { search: USER_SEARCH_COLUMNS, sort: USER_SORTS[request.sort] }
  const { data, error, count } = await narrowToPage(query, request, columns).overrideTypes<UserRow[], { merge: false }>()
  if (error) throwApiError(error)
  return { rows: data ?? [], total: count ?? 0 }
}

/** The person a link names (the admin dashboard's « Détails »), or null when there is none with this id. */
export async function fetchUser(id: string): Promise<UserRow | null> {
  return rowOrNull(await getSupabase().from('users').select(USER_SELECT).eq('id', id).overrideTypes<UserRow[], { merge: false }>())
}

/** How many managers the picker shows at most: the search narrows further. */
export const MANAGER_CHOICES = 20

/** SPEC §5: the managers matching a search, never the person being edited, with how many match in all. */
export async function fetchManagerChoices(search: string, editingId: string | null): Promise<Page<ManagerChoice>> {
  let query = getSupabase().from('users').select('id, first_name, last_name', { count: 'exact' }).eq('role', 'manager')
  if (editingId) query = query.neq('id', editingId)
  const filter = searchFilter(search, ['first_name', 'last_name', 'email'])
  if (filter) query = query.or(filter)
  const { data, error, count } = await query.order('last_name').order('first_name').order('id').limit(MANAGER_CHOICES)
  if (error) throwApiError(error)
  return { rows: data ?? [], total: count ?? 0 }
}

/**
 * Creates the person, then asks for their invitation: invitation_emails writes it into the notification outbox, whose
 * pass mails the link to choose a password (nothing is sent from the browser).
 */
export async function createUser(input: UserInput): Promise<void> {
  const client = getSupabase()
  const { error } = await client.from('users').insert(input)
  if (error) throwApiError(error, "Erreur lors de la création de l'utilisateur")
  const invited = await client.rpc('invitation_emails', { p_emails: [input.email] })
  // The person exists: say so, rather than the bare refusal that would suggest creating them again.
  if (invited.error) {
    throwApiError({
      code: invited.error.code,
      message: `L'utilisateur a été créé, mais son invitation n'a pas pu être préparée (${invited.error.message}) : utilisez « Inviter » sur sa ligne.`,
    })
  }
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
  page: (request: PageRequest<UserSort>, accounts: AccountFilter) => ['users', 'page', request, accounts] as const,
  one: (id: string) => ['users', 'one', id] as const,
  managerChoices: (search: string, editingId: string | null) => ['users', 'manager-choices', search, editingId] as const,
}

// The page read keeps showing while the next one loads, so that paging and typing never blank the table.
export const usersPageQuery = (request: PageRequest<UserSort>, accounts: AccountFilter = 'all') =>
  queryOptions({
    queryKey: userKeys.page(request, accounts),
    queryFn: () => fetchUsersPage(request, accounts),
    placeholderData: keepPreviousData,
  })
export const useUsersPage = (request: PageRequest<UserSort>, accounts: AccountFilter = 'all') =>
  useQuery(usersPageQuery(request, accounts))
export const useUser = (id: string | null) =>
  useQuery({ queryKey: userKeys.one(id ?? ''), queryFn: () => fetchUser(id ?? ''), enabled: id !== null })
export const useManagerChoices = (search: string, editingId: string | null) =>
  useQuery({
    queryKey: userKeys.managerChoices(search, editingId),
    queryFn: () => fetchManagerChoices(search, editingId),
    placeholderData: keepPreviousData,
  })
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

export { resetSecondFactor, useResetSecondFactor } from './reset-second-factor'
