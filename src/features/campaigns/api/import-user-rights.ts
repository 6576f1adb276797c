import { useMutation } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import type { Json } from '@/lib/database.types'
import { getSupabase } from '@/lib/supabase'
import type { ImportRow, LineReport } from '../import/csv-import'
import { useInvalidateCampaigns } from './campaign-keys'

export interface ImportReport {
  success: boolean
  imported: number
  errors: LineReport[]
}

/** One call, all or nothing: either every line is imported or none is and the report lists every bad line. */
export async function importUserRights(rows: readonly ImportRow[], campaignId: string | null): Promise<ImportReport> {
  const { data, error } = await getSupabase().rpc('import_user_rights', {
    rows: rows as unknown as Json,
    ...(campaignId ? { campaign_id: campaignId } : {}),
  })
  if (error) throwApiError(error)
  const report = data as Partial<ImportReport> | null
  return { success: report?.success === true, imported: report?.imported ?? 0, errors: report?.errors ?? [] }
}

export function useImportUserRights() {
  const invalidate = useInvalidateCampaigns()
  return useMutation({
    mutationFn: ({ rows, campaignId }: { rows: readonly ImportRow[]; campaignId: string | null }) => importUserRights(rows, campaignId),
    onSuccess: (report) => (report.success ? invalidate() : undefined),
  })
}
