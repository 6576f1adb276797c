/** The only file of the applications feature that calls Supabase. */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { rowOrNull, throwApiError } from '@/lib/api-error'
import { narrowToPage, readAllPages, type Page, type PageRequest } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import { groupOwnerChoices, type ApplicationInput, type ApplicationOwnerChoices, type ApplicationRow, type OwnerChoice } from './model'

const APPLICATION_SELECT =
  '*, ra:ra_id(first_name,last_name), bpo_metier:bpo_metier_id(first_name,last_name), bpo_groupe:bpo_groupe_id(first_name,last_name), rssi:rssi_id(first_name,last_name)'

/** The columns the applications page sorts on, each read as its orders; the id comes last as a tie-breaker. */
export const APPLICATION_SORTS = {
  name: ['name'],
  description: ['description'],
  ra: ['ra(last_name)', 'ra(first_name)'],
  bpo_metier: ['bpo_metier(last_name)', 'bpo_metier(first_name)'],
  bpo_groupe: ['bpo_groupe(last_name)', 'bpo_groupe(first_name)'],
  rssi: ['rssi(last_name)', 'rssi(first_name)'],
  created_at: ['created_at'],
} as const satisfies Record<string, readonly string[]>
export type ApplicationSort = keyof typeof APPLICATION_SORTS

/** What a search of the applications page looks in: each column has a trigram index (the applications migration). */
const APPLICATION_SEARCH_COLUMNS = ['name', 'description'] as const

/** One page of the applications, searched and sorted on the server, with how many the search finds in all. */
export async function fetchApplicationsPage(request: PageRequest<ApplicationSort>): Promise<Page<ApplicationRow>> {
  const query = getSupabase().from('applications').select(APPLICATION_SELECT, { count: 'exact' })
  const columns = { search: APPLICATION_SEARCH_COLUMNS, sort: APPLICATION_SORTS[request.sort] }
  const { data, error, count } = await narrowToPage(query, request, columns).overrideTypes<ApplicationRow[], { merge: false }>()
  if (error) throwApiError(error)
  return { rows: data ?? [], total: count ?? 0 }
}

/** The application a link names (the admin dashboard's « Détails »), or null when there is none with this id. */
export async function fetchApplication(id: string): Promise<ApplicationRow | null> {
  return rowOrNull(await getSupabase().from('applications').select(APPLICATION_SELECT).eq('id', id).overrideTypes<ApplicationRow[], { merge: false }>())
}

/** Every person who may own an application, however many there are. */
export async function fetchOwnerChoices(): Promise<ApplicationOwnerChoices> {
  const people = await readAllPages<OwnerChoice>((from, to) =>
    getSupabase()
      .from('users')
      .select('id, first_name, last_name, role')
      .in('role', ['ra', 'bpo_metier', 'bpo_groupe', 'rssi'])
      .order('last_name')
      .order('first_name')
      .order('id')
      .range(from, to),
  )
  return groupOwnerChoices(people)
}

export async function createApplication(input: ApplicationInput): Promise<void> {
  const { error } = await getSupabase().rpc('create_application', input)
  if (error) throwApiError(error, "Erreur lors de la création de l'application")
}

export async function updateApplication(id: string, input: ApplicationInput): Promise<void> {
  const { error } = await getSupabase().rpc('update_application', { application_id: id, ...input })
  if (error) throwApiError(error, "Erreur lors de la mise à jour de l'application")
}

export async function deleteApplication(id: string): Promise<void> {
  const { error } = await getSupabase().rpc('delete_application', { application_id: id })
  if (error) throwApiError(error, "Erreur lors de la suppression de l'application")
}

export const applicationKeys = {
  all: ['applications'] as const,
  page: (request: PageRequest<ApplicationSort>) => ['applications', 'page', request] as const,
  one: (id: string) => ['applications', 'one', id] as const,
  ownerChoices: () => ['applications', 'owner-choices'] as const,
}

// The page read keeps showing while the next one loads, so that paging and typing never blank the table.
export const applicationsPageQuery = (request: PageRequest<ApplicationSort>) =>
  queryOptions({ queryKey: applicationKeys.page(request), queryFn: () => fetchApplicationsPage(request), placeholderData: keepPreviousData })
export const ownerChoicesQuery = () => queryOptions({ queryKey: applicationKeys.ownerChoices(), queryFn: fetchOwnerChoices })

export const useApplicationsPage = (request: PageRequest<ApplicationSort>) => useQuery(applicationsPageQuery(request))
export const useApplication = (id: string | null) =>
  useQuery({ queryKey: applicationKeys.one(id ?? ''), queryFn: () => fetchApplication(id ?? ''), enabled: id !== null })
export const useOwnerChoices = (enabled: boolean) => useQuery({ ...ownerChoicesQuery(), enabled })
/** Applications changed by another administrator, and renamed owners, show without a reload. */
export const useLiveApplications = () => useLiveInvalidation(['applications', 'users'], applicationKeys.all)

export function useSaveApplication() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: ApplicationInput }) =>
      id ? updateApplication(id, input) : createApplication(input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationKeys.all }),
  })
}

export function useDeleteApplication() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteApplication,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationKeys.all }),
  })
}
