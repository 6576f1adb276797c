/** The only file of the applications feature that calls Supabase. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import { groupOwnerChoices, type ApplicationInput, type ApplicationOwnerChoices, type ApplicationRow, type OwnerChoice } from './model'

const APPLICATION_SELECT =
  '*, ra:ra_id(first_name,last_name), bpo_metier:bpo_metier_id(first_name,last_name), bpo_groupe:bpo_groupe_id(first_name,last_name), rssi:rssi_id(first_name,last_name)'

/** Every application by name; the id breaks ties so that pages neither overlap nor skip. */
export function fetchApplications(): Promise<ApplicationRow[]> {
  return readAllPages((from, to) =>
    getSupabase()
      .from('applications')
      .select(APPLICATION_SELECT)
      .order('name')
      .order('id')
      .range(from, to)
      .overrideTypes<ApplicationRow[], { merge: false }>(),
  )
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
  list: () => ['applications', 'list'] as const,
  ownerChoices: () => ['applications', 'owner-choices'] as const,
}

export const applicationsQuery = () => queryOptions({ queryKey: applicationKeys.list(), queryFn: fetchApplications })
export const ownerChoicesQuery = () => queryOptions({ queryKey: applicationKeys.ownerChoices(), queryFn: fetchOwnerChoices })

export const useApplications = () => useQuery(applicationsQuery())
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
