/** The only file of the campaigns feature that calls Supabase. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { uuidSlices, withinSlice, type UuidSlice } from '@/lib/keyset'
import { readAllPages } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import type { Json } from '@/lib/database.types'
import type { AccountType, CampaignStatus } from '@/lib/labels'
import type { EvidenceEvent, EvidenceItem, EvidencePack, EvidenceSummary } from './evidence-model'
import type { Campaign, CampaignPayload, ExportFile, ExportRow } from './model'
import type { ImportReference, ImportRow, LineReport } from './import/csv-import'

interface CampaignRow {
  id: string
  name: string
  description: string | null
  application_id: string | null
  account_type: string | null
  start_date: string
  end_date: string
  status: string
  created_by: string | null
  created_at: string
  application: { name: string } | null
  creator: { first_name: string | null; last_name: string | null; email: string | null } | null
}

interface ProgressRow {
  campaign_id: string | null
  rights_count: number | null
  progress: number | null
  pending_count: number | null
  validated_manager_count: number | null
  validated_bpo_metier_count: number | null
}

/** Every campaign, newest first, with its progress; both reads go past the API's 1000 rows. */
export async function fetchCampaigns(): Promise<Campaign[]> {
  const supabase = getSupabase()
  const [campaigns, progress] = await Promise.all([
    readAllPages((from, to) =>
      supabase
        .from('campaigns')
        .select('*, application:application_id(name), creator:created_by(first_name,last_name,email)')
        .order('created_at', { ascending: false })
        .order('id')
        .range(from, to)
        .overrideTypes<CampaignRow[], { merge: false }>(),
    ),
    readAllPages<ProgressRow>((from, to) => supabase.from('campaign_progress').select('*').order('campaign_id').range(from, to)),
  ])
  const byCampaign = new Map(progress.map((row) => [row.campaign_id, row]))
  return campaigns.map((row) => {
    const figures = byCampaign.get(row.id)
    const creator = row.creator ? [row.creator.first_name, row.creator.last_name].filter(Boolean).join(' ') : ''
    return {
      id: row.id,
      name: row.name,
      description: row.description ?? '',
      applicationId: row.application_id,
      applicationName: row.application?.name ?? null,
      accountType: (row.account_type ?? null) as AccountType | null,
      startDate: row.start_date,
      endDate: row.end_date,
      status: row.status as CampaignStatus,
      createdBy: row.created_by,
      creatorName: creator || row.creator?.email || null,
      createdAt: row.created_at,
      progress: figures?.progress ?? null,
      rightsCount: figures?.rights_count ?? 0,
      pendingCount: figures?.pending_count ?? 0,
      validatedManagerCount: figures?.validated_manager_count ?? 0,
      validatedBpoMetierCount: figures?.validated_bpo_metier_count ?? 0,
    }
  })
}

export interface ApplicationOption {
  id: string
  name: string
}

/** Every application a campaign may target, not only the first thousand. */
export function fetchApplicationOptions(): Promise<ApplicationOption[]> {
  return readAllPages((from, to) => getSupabase().from('applications').select('id,name').order('name').order('id').range(from, to))
}

export async function createCampaign(payload: CampaignPayload): Promise<void> {
  const { error } = await getSupabase().from('campaigns').insert(payload)
  if (error) throwApiError(error)
}

export async function updateCampaign(id: string, payload: CampaignPayload): Promise<void> {
  const { data, error } = await getSupabase().from('campaigns').update(payload).eq('id', id).select('id')
  if (error) throwApiError(error)
  if (!data?.length) throw new Error("La campagne n'a pas pu être modifiée.")
}

export async function setCampaignStatus(id: string, status: CampaignStatus): Promise<void> {
  const { data, error } = await getSupabase().from('campaigns').update({ status }).eq('id', id).select('id')
  if (error) throwApiError(error)
  if (!data?.length) throw new Error("Le statut de la campagne n'a pas pu être modifié.")
}

export async function deleteCampaign(id: string): Promise<void> {
  const { data, error } = await getSupabase().from('campaigns').delete().eq('id', id).select('id')
  if (error) throwApiError(error)
  if (!data?.length) throw new Error("La campagne n'a pas pu être supprimée.")
}

export const EXPORT_PAGE_SIZE = 1000

/** Keyset reads of one export run side by side, each over its own slice of the right ids. */
const EXPORT_STREAMS = 4

/**
 * Every row of one export file, keyset-paged on right_id so that nothing is cut at 1000 rows; the id space is read as
 * four slices at once (a hundred thousand rows are a hundred pages), then put back in right_id order.
 */
export async function fetchExportRows(campaignId: string, file: ExportFile, onProgress?: (fetched: number) => void): Promise<ExportRow[]> {
  let fetched = 0
  const readSlice = async (slice: UuidSlice): Promise<ExportRow[]> => {
    const rows: ExportRow[] = []
    let afterId = slice.after
    for (;;) {
      const { data, error } = await getSupabase().rpc('campaign_export_rows', {
        p_campaign_id: campaignId,
        p_file: file,
        p_limit: EXPORT_PAGE_SIZE,
        ...(afterId ? { p_after_id: afterId } : {}),
      })
      if (error) throwApiError(error)
      const page = withinSlice((data ?? []) as unknown as ExportRow[], (row) => row.right_id, slice, EXPORT_PAGE_SIZE)
      rows.push(...page.rows)
      fetched += page.rows.length
      onProgress?.(fetched)
      if (page.done) return rows
      afterId = page.rows[page.rows.length - 1]!.right_id
    }
  }
  const slices = await Promise.all(uuidSlices(EXPORT_STREAMS).map(readSlice))
  return slices.flat()
}

/**
 * A closed campaign's evidence pack: its summary (with the seal for the RSSI), every item with its decisions, keyset-
 * paged on right_id in slices as the exports are, and its audit events, keyset-paged on id.
 */
export async function fetchEvidencePack(campaignId: string, onProgress?: (fetched: number) => void): Promise<EvidencePack> {
  const supabase = getSupabase()
  let fetched = 0
  const counted = (rows: number) => {
    fetched += rows
    onProgress?.(fetched)
  }
  // The summary verifies the whole audit chain: it runs beside the item and journal pages rather than before them.
  const summaryRequest = supabase.rpc('campaign_evidence', { p_campaign_id: campaignId }).then((summary) => {
    if (summary.error) throwApiError(summary.error)
    return summary.data as unknown as EvidenceSummary
  })

  const readSlice = async (slice: UuidSlice): Promise<EvidenceItem[]> => {
    const rows: EvidenceItem[] = []
    let afterId = slice.after
    for (;;) {
      const { data, error } = await supabase.rpc('campaign_evidence_items', {
        p_campaign_id: campaignId,
        p_limit: EXPORT_PAGE_SIZE,
        ...(afterId ? { p_after_id: afterId } : {}),
      })
      if (error) throwApiError(error)
      const page = withinSlice((data ?? []) as unknown as EvidenceItem[], (row) => row.right_id, slice, EXPORT_PAGE_SIZE)
      rows.push(...page.rows)
      counted(page.rows.length)
      if (page.done) return rows
      afterId = page.rows[page.rows.length - 1]!.right_id
    }
  }
  const readJournal = async (): Promise<EvidenceEvent[]> => {
    const events: EvidenceEvent[] = []
    for (;;) {
      const last = events[events.length - 1]
      const { data, error } = await supabase.rpc('campaign_evidence_journal', {
        p_campaign_id: campaignId,
        p_limit: EXPORT_PAGE_SIZE,
        ...(last ? { p_after_id: last.id } : {}),
      })
      if (error) throwApiError(error)
      const page = (data ?? []) as unknown as EvidenceEvent[]
      events.push(...page)
      counted(page.length)
      if (page.length < EXPORT_PAGE_SIZE) return events
    }
  }
  const [summary, slices, events] = await Promise.all([summaryRequest, Promise.all(uuidSlices(EXPORT_STREAMS).map(readSlice)), readJournal()])
  return { summary, items: slices.flat(), events }
}

// ─── Import of rights ───────────────────────────────────────────────────────────────────────────────────────────

/** The e-mails and applications the caller can read, against which the preview names unknown ones. */
export async function fetchImportReference(): Promise<ImportReference> {
  const supabase = getSupabase()
  const [users, applications] = await Promise.all([
    readAllPages((from, to) => supabase.from('users').select('email').order('id').range(from, to)),
    readAllPages((from, to) => supabase.from('applications').select('id,name').order('id').range(from, to)),
  ])
  return { emails: users.map((user) => user.email), applications }
}

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

export const campaignKeys = {
  all: ['campaigns'] as const,
  list: () => ['campaigns', 'list'] as const,
  applicationOptions: () => ['campaigns', 'application-options'] as const,
  importReference: () => ['campaigns', 'import-reference'] as const,
}

export const campaignsQuery = () => queryOptions({ queryKey: campaignKeys.list(), queryFn: fetchCampaigns })
export const applicationOptionsQuery = () =>
  queryOptions({ queryKey: campaignKeys.applicationOptions(), queryFn: fetchApplicationOptions, staleTime: 60_000 })

export const useCampaigns = () => useQuery(campaignsQuery())
/**
 * Campaigns and their progress follow what others do. Progress is counted over every right
 * of a campaign, so a stream of decisions refreshes it every few seconds rather than on each one.
 */
export const useLiveCampaigns = () =>
  useLiveInvalidation(['campaigns', 'user_rights', 'applications', 'users'], campaignKeys.all, { debounceMs: 1000, maxWaitMs: 5000 })
export const useApplicationOptions = (enabled = true) => useQuery({ ...applicationOptionsQuery(), enabled })

function useInvalidateCampaigns() {
  const queryClient = useQueryClient()
  return () => queryClient.invalidateQueries({ queryKey: campaignKeys.all })
}

export function useSaveCampaign() {
  const invalidate = useInvalidateCampaigns()
  return useMutation({
    mutationFn: ({ id, payload }: { id?: string; payload: CampaignPayload }) =>
      id ? updateCampaign(id, payload) : createCampaign(payload),
    onSuccess: invalidate,
  })
}

export function useSetCampaignStatus() {
  const invalidate = useInvalidateCampaigns()
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: CampaignStatus }) => setCampaignStatus(id, status),
    onSuccess: invalidate,
  })
}

export const useImportReference = () => useQuery({ queryKey: campaignKeys.importReference(), queryFn: fetchImportReference, staleTime: 60_000 })

export function useImportUserRights() {
  const invalidate = useInvalidateCampaigns()
  return useMutation({
    mutationFn: ({ rows, campaignId }: { rows: readonly ImportRow[]; campaignId: string | null }) => importUserRights(rows, campaignId),
    onSuccess: (report) => (report.success ? invalidate() : undefined),
  })
}

export function useDeleteCampaign() {
  const invalidate = useInvalidateCampaigns()
  return useMutation({ mutationFn: (id: string) => deleteCampaign(id), onSuccess: invalidate })
}
