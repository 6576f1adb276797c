/**
 * Issue #14: an administrator starts a campaign over every application and account type (Démarrer), timed from the
 * call to its answer. It takes every right not under review in another active campaign (on the large dataset the
 * closed campaigns' and the unassigned ones, about 64,000 of 300,000: the largest active campaign keeps its 200,000) and
 * makes their items. It moves those rights into a new campaign, so the bench runs it last, on a backend it then
 * discards.
 */
import type { Api } from '../support/api'
import { round } from '../support/stats'

export interface CampaignStartResult {
  /** The items the start made: one per right it took. */
  items: number
  durationMs: number
}

export async function measureCampaignStart(admin: Api, service: Api): Promise<CampaignStartResult> {
  const today = new Date().toISOString().slice(0, 10)
  const { data: draft, error } = await admin
    .from('campaigns')
    .insert({ name: `Banc d'essai — démarrage ${Date.now()}`, start_date: today, end_date: today })
    .select('id')
    .single()
  if (error) throw new Error(`Creating the draft: ${error.message}`)

  // As the campaigns page does it (setCampaignStatus).
  const started = performance.now()
  const { data, error: startError } = await admin.from('campaigns').update({ status: 'active' }).eq('id', draft.id).select('id')
  const durationMs = performance.now() - started
  if (startError) throw new Error(`Starting the campaign: ${startError.message}`)
  if (data.length !== 1) throw new Error('The campaign was not started')

  const { count, error: countError } = await service.from('campaign_items').select('id', { count: 'exact', head: true }).eq('campaign_id', draft.id)
  if (countError) throw new Error(`Counting the items: ${countError.message}`)
  return { items: count ?? 0, durationMs: round(durationMs) }
}
