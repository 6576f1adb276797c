import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { throwApiError } from '@/lib/api-error'
import { narrowToPage, type Page, type PageRequest } from '@/lib/paging'
import { getSupabase } from '@/lib/supabase'
import type { Campaign } from '../model'
import { campaignKeys } from './campaign-keys'
import { CAMPAIGN_SELECT, nextOccurrencesOf, progressOf, toCampaign, type CampaignRow } from './campaign-rows'

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

/** One page of the campaigns, searched and sorted on the server, with how many the search finds in all. */
export async function fetchCampaignsPage(request: PageRequest<CampaignSort>): Promise<Page<Campaign>> {
  const query = getSupabase().from('campaigns').select(CAMPAIGN_SELECT, { count: 'exact' })
  // A campaign on every application (no application) comes last whichever the direction.
  const columns = { search: CAMPAIGN_SEARCH_COLUMNS, sort: CAMPAIGN_SORTS[request.sort] }
  const { data, error, count } = await narrowToPage(query, request, columns).overrideTypes<CampaignRow[], { merge: false }>()
  if (error) throwApiError(error)
  const rows = data ?? []
  const ids = rows.map((row) => row.id)
  const [figures, next] = await Promise.all([progressOf(ids), nextOccurrencesOf(ids)])
  return { rows: rows.map((row) => toCampaign(row, figures.get(row.id), next.get(row.id) ?? null)), total: count ?? 0 }
}

// The page read keeps showing while the next one loads, so that paging and typing never blank the table.
export const useCampaignsPage = (request: PageRequest<CampaignSort>) =>
  useQuery({ queryKey: campaignKeys.page(request), queryFn: () => fetchCampaignsPage(request), placeholderData: keepPreviousData })
