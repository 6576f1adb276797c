/**
 * Issue #14: a campaign's record at the size of the large dataset, on a backend the bench then discards (it runs last).
 * As admin:
 * 1. Terminer on the largest active campaign (the standard accounts', about 205,000 items): its undecided items go to
 *    the RA and the campaign is frozen;
 * 2. its evidence pack, « Rapport de campagne », from the Campagnes page's button to the downloaded workbook;
 * 3. Démarrer on a new campaign over the same scope, which takes those rights back (about 210,000 with the rights
 *    granted since) and makes their items.
 * Each is timed from the action to its answer.
 */
import { stat } from 'node:fs/promises'
import type { Browser } from 'playwright-core'
import type { Database as Schema } from '../../../src/lib/database.types'
import type { Api } from '../support/api'
import { newContext, signIn } from '../support/browser'
import { round } from '../support/stats'

export interface CampaignRecordResult {
  completion: { campaign: string; items: number; durationMs: number }
  evidencePack: { items: number; durationMs: number; fileBytes: number }
  start: { items: number; durationMs: number }
}

async function itemCount(service: Api, campaignId: string): Promise<number> {
  const { count, error } = await service.from('campaign_items').select('id', { count: 'exact', head: true }).eq('campaign_id', campaignId)
  if (error) throw new Error(`Counting the items: ${error.message}`)
  return count ?? 0
}

/** As the campaigns page does it (setCampaignStatus), timed. */
async function transition(admin: Api, campaignId: string, status: 'active' | 'completed'): Promise<number> {
  const started = performance.now()
  const { data, error } = await admin.from('campaigns').update({ status }).eq('id', campaignId).select('id')
  const durationMs = performance.now() - started
  if (error) throw new Error(`Setting the campaign ${status}: ${error.message}`)
  if (data.length !== 1) throw new Error(`The campaign was not set ${status}`)
  return round(durationMs)
}

type Campaign = Pick<Schema['public']['Tables']['campaigns']['Row'], 'id' | 'name' | 'account_type' | 'application_id'>

async function largestActive(service: Api): Promise<Campaign & { items: number }> {
  const { data, error } = await service.from('campaigns').select('id, name, account_type, application_id').eq('status', 'active')
  if (error) throw new Error(error.message)
  const sized = await Promise.all((data ?? []).map(async (campaign) => ({ ...campaign, items: await itemCount(service, campaign.id) })))
  const largest = sized.sort((a, b) => b.items - a.items)[0]
  if (!largest) throw new Error('No active campaign to complete')
  return largest
}

async function downloadEvidencePack(browser: Browser, appUrl: string, campaign: string): Promise<{ durationMs: number; fileBytes: number }> {
  const context = await newContext(browser, appUrl)
  try {
    const page = await context.newPage()
    await signIn(page, 'admin@example.com')
    await page.goto('/app/campaigns')
    const button = page.getByRole('button', { name: `Rapport de campagne de ${campaign}`, exact: true })
    await button.waitFor()
    const started = performance.now()
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), button.click()])
    const file = await download.path()
    const durationMs = performance.now() - started
    return { durationMs: round(durationMs), fileBytes: (await stat(file)).size }
  } finally {
    await context.close()
  }
}

export async function measureCampaignRecord(browser: Browser, appUrl: string, admin: Api, service: Api): Promise<CampaignRecordResult> {
  const largest = await largestActive(service)
  const completion = { campaign: largest.name, items: largest.items, durationMs: await transition(admin, largest.id, 'completed') }
  const evidencePack = { items: largest.items, ...(await downloadEvidencePack(browser, appUrl, largest.name)) }

  const today = new Date().toISOString().slice(0, 10)
  const { data: draft, error } = await admin
    .from('campaigns')
    .insert({
      name: `Banc d'essai — démarrage ${Date.now()}`,
      start_date: today,
      end_date: today,
      account_type: largest.account_type,
      application_id: largest.application_id,
    })
    .select('id')
    .single()
  if (error) throw new Error(`Creating the draft: ${error.message}`)
  const durationMs = await transition(admin, draft.id, 'active')
  return { completion, evidencePack, start: { items: await itemCount(service, draft.id), durationMs } }
}
