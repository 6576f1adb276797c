import { useQuery } from '@tanstack/react-query'
import { rowOrNull } from '@/lib/api-error'
import { getSupabase } from '@/lib/supabase'
import type { Campaign } from '../model'
import { campaignKeys } from './campaign-keys'
import { CAMPAIGN_SELECT, nextOccurrencesOf, progressOf, toCampaign, type CampaignRow } from './campaign-rows'

/** The campaign a link names (?campagne=<id>), wherever it is in the list, or null when there is none with this id. */
export async function fetchCampaign(id: string): Promise<Campaign | null> {
  const row = rowOrNull(await getSupabase().from('campaigns').select(CAMPAIGN_SELECT).eq('id', id).overrideTypes<CampaignRow[], { merge: false }>())
  if (!row) return null
  const [figures, next] = await Promise.all([progressOf([row.id]), nextOccurrencesOf([row.id])])
  return toCampaign(row, figures.get(row.id), next.get(row.id) ?? null)
}

export const useCampaign = (id: string | null) =>
  useQuery({ queryKey: campaignKeys.one(id ?? ''), queryFn: () => fetchCampaign(id ?? ''), enabled: id !== null })
