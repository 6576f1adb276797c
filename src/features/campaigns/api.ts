/** The only file of the campaigns feature that calls Supabase. */
import type { ApplicationChoice } from '@/domain/applications'
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { pageRange, readAllPages, searchFilter, type Page, type PageRequest } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation } from '@/lib/realtime'
import type { Json } from '@/lib/database.types'
import type { AccountType, CampaignRecurrence, CampaignStatus } from '@/domain/labels'
import type { BurndownDay, RunningCampaign } from './burndown-model'
import type { Campaign, CampaignPayload } from './model'
import type { CampaignSignoff, ReassignInput, ReviewerChoice } from './reviewers-model'
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
  recurrence: string | null
  auto_start: boolean | null
  notifications_enabled: boolean | null
  reminders_enabled: boolean | null
  application: { name: string } | null
  creator: { first_name: string | null; last_name: string | null; email: string | null } | null
}

interface ProgressRow {
  campaign_id: string | null
  rights_count: number | null
  reviewed_count: number | null
  undecided_count: number | null
  progress: number | null
  pending_count: number | null
  validated_manager_count: number | null
  validated_bpo_metier_count: number | null
}

const CAMPAIGN_SELECT = '*, application:application_id(name), creator:created_by(first_name,last_name,email)'

function toCampaign(row: CampaignRow, figures: ProgressRow | undefined): Campaign {
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
    recurrence: (row.recurrence ?? null) as CampaignRecurrence | null,
    autoStart: row.auto_start ?? false,
    notificationsEnabled: row.notifications_enabled ?? true,
    remindersEnabled: row.reminders_enabled ?? true,
    progress: figures?.progress ?? null,
    rightsCount: figures?.rights_count ?? 0,
    reviewedCount: figures?.reviewed_count ?? 0,
    undecidedCount: figures?.undecided_count ?? 0,
    pendingCount: figures?.pending_count ?? 0,
    validatedManagerCount: figures?.validated_manager_count ?? 0,
    validatedBpoMetierCount: figures?.validated_bpo_metier_count ?? 0,
  }
}

/** Every campaign, newest first, with its progress; both reads go past the API's 1000 rows. */
export async function fetchCampaigns(): Promise<Campaign[]> {
  const supabase = getSupabase()
  const [campaigns, progress] = await Promise.all([
    readAllPages((from, to) =>
      supabase
        .from('campaigns')
        .select(CAMPAIGN_SELECT)
        .order('created_at', { ascending: false })
        .order('id')
        .range(from, to)
        .overrideTypes<CampaignRow[], { merge: false }>(),
    ),
    readAllPages<ProgressRow>((from, to) => supabase.from('campaign_progress').select('*').order('campaign_id').range(from, to)),
  ])
  const byCampaign = new Map(progress.map((row) => [row.campaign_id, row]))
  return campaigns.map((row) => toCampaign(row, byCampaign.get(row.id)))
}

/** The columns the Campagnes page sorts on, each read as its orders; the id comes last as a tie-breaker. */
export const CAMPAIGN_SORTS = {
  name: ['name'],
  application: ['application(name)'],
  account_type: ['account_type'],
  start_date: ['start_date', 'end_date'],
  // The status enum's order is the lifecycle's: Brouillon, Active, Terminée, Archivée.
  status: ['status'],
  created_at: ['created_at'],
} as const satisfies Record<string, readonly string[]>
export type CampaignSort = keyof typeof CAMPAIGN_SORTS

/** What a search of the Campagnes page looks in. */
const CAMPAIGN_SEARCH_COLUMNS = ['name', 'description'] as const

/** The figures of the campaigns of one page, read for those campaigns only. */
async function progressOf(ids: readonly string[]): Promise<Map<string | null, ProgressRow>> {
  if (ids.length === 0) return new Map()
  const { data, error } = await getSupabase().from('campaign_progress').select('*').in('campaign_id', ids)
  if (error) throwApiError(error)
  return new Map(((data ?? []) as ProgressRow[]).map((row) => [row.campaign_id, row]))
}

/** One page of the campaigns, searched and sorted on the server, with how many the search finds in all. */
export async function fetchCampaignsPage(request: PageRequest<CampaignSort>): Promise<Page<Campaign>> {
  let query = getSupabase().from('campaigns').select(CAMPAIGN_SELECT, { count: 'exact' })
  const search = searchFilter(request.search, CAMPAIGN_SEARCH_COLUMNS)
  if (search) query = query.or(search)
  for (const column of CAMPAIGN_SORTS[request.sort]) {
    // A campaign on every application (no application) comes last whichever the direction.
    query = query.order(column, { ascending: request.direction === 'asc', nullsFirst: false })
  }
  const { data, error, count } = await query.order('id').range(...pageRange(request)).overrideTypes<CampaignRow[], { merge: false }>()
  if (error) throwApiError(error)
  const rows = data ?? []
  const figures = await progressOf(rows.map((row) => row.id))
  return { rows: rows.map((row) => toCampaign(row, figures.get(row.id))), total: count ?? 0 }
}

/** The campaign a link names (?campagne=<id>), wherever it is in the list, or null when there is none with this id. */
export async function fetchCampaign(id: string): Promise<Campaign | null> {
  const { data, error } = await getSupabase().from('campaigns').select(CAMPAIGN_SELECT).eq('id', id).overrideTypes<CampaignRow[], { merge: false }>()
  // A malformed id is a campaign that does not exist, not a failure.
  if (error?.code === '22P02') return null
  if (error) throwApiError(error)
  const row = data?.[0]
  if (!row) return null
  return toCampaign(row, (await progressOf([row.id])).get(row.id))
}

/** Every application a campaign may target, not only the first thousand. */
export function fetchApplicationOptions(): Promise<ApplicationChoice[]> {
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
  page: (request: PageRequest<CampaignSort>) => ['campaigns', 'page', request] as const,
  one: (id: string) => ['campaigns', 'one', id] as const,
  burndown: (id: string) => ['campaigns', 'burndown', id] as const,
  running: () => ['campaigns', 'running'] as const,
  applicationOptions: () => ['campaigns', 'application-options'] as const,
  importReference: () => ['campaigns', 'import-reference'] as const,
}

export const campaignsQuery = () => queryOptions({ queryKey: campaignKeys.list(), queryFn: fetchCampaigns })
export const applicationOptionsQuery = () =>
  queryOptions({ queryKey: campaignKeys.applicationOptions(), queryFn: fetchApplicationOptions, staleTime: 60_000 })

export const useCampaigns = () => useQuery(campaignsQuery())
// The page read keeps showing while the next one loads, so that paging and typing never blank the table.
export const useCampaignsPage = (request: PageRequest<CampaignSort>) =>
  useQuery({ queryKey: campaignKeys.page(request), queryFn: () => fetchCampaignsPage(request), placeholderData: keepPreviousData })
export const useCampaign = (id: string | null) =>
  useQuery({ queryKey: campaignKeys.one(id ?? ''), queryFn: () => fetchCampaign(id ?? ''), enabled: id !== null })
/** The running campaigns, oldest first, whatever page of the list is on screen: those the burndown can draw. */
export function fetchRunningCampaigns(): Promise<RunningCampaign[]> {
  return readAllPages((from, to) =>
    getSupabase()
      .from('campaigns')
      .select('id,name,start_date,end_date')
      .eq('status', 'active')
      .order('start_date')
      .order('id')
      .range(from, to),
  )
}
export const useRunningCampaigns = () => useQuery({ queryKey: campaignKeys.running(), queryFn: fetchRunningCampaigns })

/** A campaign's days, in the browser's time zone: decisions per day, rights still undecided, the steady pace. */
export async function fetchCampaignBurndown(campaignId: string): Promise<BurndownDay[]> {
  const { data, error } = await getSupabase().rpc('campaign_burndown', {
    p_campaign_id: campaignId,
    p_time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  })
  if (error) throwApiError(error)
  // numeric arrives as a string from PostgREST.
  return ((data ?? []) as unknown as BurndownDay[]).map((row) => ({ ...row, ideal: Number(row.ideal) }))
}
export const useCampaignBurndown = (campaignId: string) =>
  useQuery({ queryKey: campaignKeys.burndown(campaignId), queryFn: () => fetchCampaignBurndown(campaignId) })
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

// ─── Reviewers of a campaign: sign-offs, fallback reviewers, reassignment ──────────────────────────────

/** Each reviewer of each stage of a campaign, who signed and who has not; a null reviewer: items without reviewer. */
export async function fetchCampaignSignoffs(campaignId: string): Promise<CampaignSignoff[]> {
  const { data, error } = await getSupabase().rpc('campaign_signoffs_for_evidence', { p_campaign_id: campaignId })
  if (error) throwApiError(error)
  return (data ?? []) as unknown as CampaignSignoff[]
}

export async function fetchFallbackReviewers(campaignId: string): Promise<ReviewerChoice[]> {
  const { data, error } = await getSupabase()
    .from('campaign_fallback_reviewers')
    .select('user_id, person:users!campaign_fallback_reviewers_user_id_fkey(first_name, last_name, email)')
    .eq('campaign_id', campaignId)
    .order('user_id')
  if (error) throwApiError(error)
  return ((data ?? []) as unknown as { user_id: string; person: { first_name: string; last_name: string; email: string } | null }[]).map((row) => ({
    id: row.user_id,
    full_name: row.person ? `${row.person.first_name} ${row.person.last_name}` : row.user_id,
    email: row.person?.email ?? '',
  }))
}

/** At most 20 active people matching the search, looked up on the server. */
export async function searchReviewers(search: string): Promise<ReviewerChoice[]> {
  if (search.trim().length < 2) return []
  const { data, error } = await getSupabase().rpc('delegate_candidates', { p_search: search })
  if (error) throwApiError(error)
  return (data ?? []) as unknown as ReviewerChoice[]
}

export async function setFallbackReviewers({ campaignId, userIds }: { campaignId: string; userIds: string[] }): Promise<void> {
  const { error } = await getSupabase().rpc('set_campaign_fallback_reviewers', { p_campaign_id: campaignId, p_user_ids: userIds })
  if (error) throwApiError(error)
}

export async function reassignItems(input: ReassignInput): Promise<void> {
  const { error } = await getSupabase().rpc('reassign_review_items', {
    p_campaign_id: input.campaignId,
    p_from_id: input.fromId,
    p_to_id: input.toId,
    p_reason: input.reason,
    p_ends_on: input.endsOn,
  })
  if (error) throwApiError(error)
}

const reviewerKeys = {
  all: (campaignId: string) => ['campaigns', 'reviewers', campaignId] as const,
  signoffs: (campaignId: string) => ['campaigns', 'reviewers', campaignId, 'signoffs'] as const,
  fallback: (campaignId: string) => ['campaigns', 'reviewers', campaignId, 'fallback'] as const,
  search: (search: string) => ['campaigns', 'reviewer-search', search] as const,
}

export const useCampaignSignoffs = (campaignId: string) =>
  useQuery({ queryKey: reviewerKeys.signoffs(campaignId), queryFn: () => fetchCampaignSignoffs(campaignId) })
export const useFallbackReviewers = (campaignId: string) =>
  useQuery({ queryKey: reviewerKeys.fallback(campaignId), queryFn: () => fetchFallbackReviewers(campaignId) })
export const useReviewerSearch = (search: string) => useQuery({ queryKey: reviewerKeys.search(search), queryFn: () => searchReviewers(search) })

function useReviewersMutation<T>(campaignId: string, fn: (input: T) => Promise<void>) {
  const queryClient = useQueryClient()
  return useMutation<void, Error, T>({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewerKeys.all(campaignId) }),
  })
}
export const useSetFallbackReviewers = (campaignId: string) => useReviewersMutation(campaignId, setFallbackReviewers)
export const useReassignItems = (campaignId: string) => useReviewersMutation(campaignId, reassignItems)
