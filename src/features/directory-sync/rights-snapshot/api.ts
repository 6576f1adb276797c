/** An application's complete list of rights imported from a file (rpc('import_rights_snapshot')), previewed first. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { readAllPages } from '@/lib/paging'
import { RIGHTS_QUERY_ROOT } from '@/lib/query-keys'
import { getSupabase } from '@/lib/supabase'
import type { SyncLine } from '../parse'
import type { SnapshotReport } from './format'

async function fetchApplicationNames(): Promise<string[]> {
  const rows = await readAllPages((from, to) => getSupabase().from('applications').select('id, name').order('name').order('id').range(from, to))
  return rows.map((row) => row.name)
}

export const useApplicationNames = () => useQuery({ queryKey: ['directory-sync', 'application-names'], queryFn: fetchApplicationNames })

export async function importRightsSnapshot(application: string, rows: readonly SyncLine[], dryRun: boolean): Promise<SnapshotReport> {
  const { data, error } = await getSupabase().rpc('import_rights_snapshot', { p_application: application, p_rows: rows as never, p_dry_run: dryRun })
  if (error) throwApiError(error)
  return data as unknown as SnapshotReport
}

export const useSnapshotPreview = (application: string, rows: readonly SyncLine[] | null) =>
  useQuery({
    queryKey: ['directory-sync', 'rights-snapshot-preview', application, rows],
    queryFn: () => importRightsSnapshot(application, rows ?? [], true),
    enabled: application !== '' && rows !== null && rows.length > 0,
    gcTime: 0,
  })

export function useApplySnapshot() {
  const queryClient = useQueryClient()
  return useMutation<SnapshotReport, Error, { application: string; rows: readonly SyncLine[] }>({
    mutationFn: ({ application, rows }) => importRightsSnapshot(application, rows, false),
    onSettled: () => queryClient.invalidateQueries({ queryKey: [RIGHTS_QUERY_ROOT] }),
  })
}
