/**
 * A campaign's record at the size of the large dataset, on a backend the bench then discards (it runs last).
 * As admin:
 * 1. Terminer on the largest active campaign (the standard accounts', about 205,000 items): its undecided items go to
 *    the RA and the campaign is frozen;
 * 2. its evidence pack, « Rapport de campagne », from the Campagnes page's button to the downloaded workbook;
 * 3. Démarrer on a new campaign over the same scope, which takes those rights back (about 210,000 with the rights
 *    granted since) and makes their items;
 * 4. the same evidence pack read and written again in Node, one part after the other (summary, items, journal, rows,
 *    file), to split the browser's figure.
 * Each is timed from the action to its answer. The start runs while reviewers of the other campaigns keep deciding
 * (it must not block them), their round trips reported beside it. Above scale 1 (about 2 million items) the
 * pack, which has no budget there, is left out.
 */
import { stat } from 'node:fs/promises'
import type { Browser } from 'playwright-core'
import { EvidenceSheets, workbookBytes } from '../../../src/features/campaigns/excel'
import { evidenceItem, type EvidenceEvent, type EvidenceItem, type EvidenceItemRow, type EvidenceSummary } from '../../../src/features/campaigns/evidence-model'
import type { Database as Schema } from '../../../src/lib/database.types'
import { uuidSlices, withinSlice } from '../../../src/lib/keyset'
import type { Api } from '../support/api'
import { decideDuring, type BackgroundDecisions, type Reviewer } from './decisions'
import { newContext, signIn } from '../support/browser'
import { round } from '../support/stats'

export interface CampaignRecordResult {
  completion: { campaign: string; items: number; durationMs: number }
  /** Null when left out (options.evidencePack false). */
  evidencePack: { items: number; durationMs: number; fileBytes: number } | null
  /** Measured last, so that a failure here (reported as such) costs none of the budgeted figures. */
  evidencePhases: EvidencePhases | { error: string } | null
  start: { items: number; durationMs: number }
  /** Reviewers of the other campaigns deciding while the start runs. */
  decisionsDuringStart: BackgroundDecisions | null
}

export interface CampaignRecordOptions {
  /** The pack of the completed campaign, in the browser and in Node (its budget holds at scale 1 only). */
  evidencePack: boolean
  /** Reviewers who decide their items of the other campaigns while the start runs (none: the start runs alone). */
  reviewers: Reviewer[]
  /** Between two decisions of one reviewer. */
  pauseMs: number
}

/** The pack's parts one after the other in Node, as the app's worker makes them, so that the browser's figure can be split. */
export interface EvidencePhases {
  summaryMs: number
  /** Four keyset reads side by side, as the app's worker runs them. */
  itemsMs: number
  journalMs: number
  rowsMs: number
  writeMs: number
}

/** The app's pages: 5,000 items (EVIDENCE_PAGE_SIZE in the campaigns api), 1,000 audit events. */
const ITEMS_PAGE = 5000
const PAGE = 1000

async function evidencePhases(admin: Api, campaignId: string): Promise<EvidencePhases> {
  let started = performance.now()
  const lap = () => {
    const now = performance.now()
    const duration = round(now - started)
    started = now
    return duration
  }
  const summary = await admin.rpc('campaign_evidence', { p_campaign_id: campaignId })
  if (summary.error) throw new Error(`Evidence summary: ${summary.error.message}`)
  const summaryMs = lap()
  const slices = await Promise.all(
    uuidSlices(4).map(async (slice) => {
      const pages: EvidenceItem[][] = []
      for (let after = slice.after; ; ) {
        const { data, error } = await admin.rpc('campaign_evidence_items', { p_campaign_id: campaignId, p_limit: ITEMS_PAGE, ...(after ? { p_after_id: after } : {}) })
        if (error) throw new Error(`Evidence items: ${error.message}`)
        const page = withinSlice((data as unknown as EvidenceItemRow[]).map(evidenceItem), (row) => row.right_id, slice, ITEMS_PAGE)
        pages.push(page.rows)
        if (page.done) return pages
        after = page.rows[page.rows.length - 1]!.right_id
      }
    }),
  )
  const itemsMs = lap()
  const events: EvidenceEvent[] = []
  for (;;) {
    const last = events[events.length - 1]
    const { data, error } = await admin.rpc('campaign_evidence_journal', { p_campaign_id: campaignId, p_limit: PAGE, ...(last ? { p_after_id: last.id } : {}) })
    if (error) throw new Error(`Evidence journal: ${error.message}`)
    events.push(...(data as unknown as EvidenceEvent[]))
    if (data.length < PAGE) break
  }
  const journalMs = lap()
  const sheets = new EvidenceSheets(slices.length)
  slices.forEach((pages, slice) => pages.forEach((page) => sheets.add(page, slice)))
  const rowsMs = lap()
  await workbookBytes(sheets.workbook(summary.data as unknown as EvidenceSummary, events, []))
  return { summaryMs, itemsMs, journalMs, rowsMs, writeMs: lap() }
}

export async function itemCount(service: Api, campaignId: string): Promise<number> {
  const { count, error } = await service.from('campaign_items').select('id', { count: 'exact', head: true }).eq('campaign_id', campaignId)
  if (error) throw new Error(`Counting the items: ${error.message}`)
  return count ?? 0
}

/** As the campaigns page does it (setCampaignStatus), timed. */
export async function transition(admin: Api, campaignId: string, status: 'active' | 'completed'): Promise<number> {
  const started = performance.now()
  const { error } = await admin.rpc('set_campaign_status', { p_campaign_id: campaignId, p_status: status })
  const durationMs = performance.now() - started
  if (error) throw new Error(`Setting the campaign ${status}: ${error.message}`)
  return round(durationMs)
}

type Campaign = Pick<Schema['public']['Tables']['campaigns']['Row'], 'id' | 'name' | 'account_type' | 'application_id'>

export async function largestActive(service: Api): Promise<Campaign & { items: number }> {
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

export async function measureCampaignRecord(browser: Browser, appUrl: string, admin: Api, service: Api, options: CampaignRecordOptions): Promise<CampaignRecordResult> {
  const largest = await largestActive(service)
  const completion = { campaign: largest.name, items: largest.items, durationMs: await transition(admin, largest.id, 'completed') }
  const evidencePack = options.evidencePack ? { items: largest.items, ...(await downloadEvidencePack(browser, appUrl, largest.name)) } : null

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
  // The completed campaign is frozen and the new one takes its rights: the others' items stay decidable throughout.
  const others = options.reviewers
    .map((reviewer) => ({ ...reviewer, items: reviewer.items.filter((item) => item.campaign_id !== null && item.campaign_id !== largest.id) }))
    .filter((reviewer) => reviewer.items.length > 0)
  let durationMs: number
  let decisionsDuringStart: BackgroundDecisions | null = null
  if (others.length > 0) {
    const during = await decideDuring(others, transition(admin, draft.id, 'active'), options.pauseMs)
    durationMs = during.value
    decisionsDuringStart = during.decisions
  } else {
    durationMs = await transition(admin, draft.id, 'active')
  }
  const start = { items: await itemCount(service, draft.id), durationMs }
  const phases = options.evidencePack
    ? await evidencePhases(admin, largest.id).catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }))
    : null
  return { completion, evidencePack, start, decisionsDuringStart, evidencePhases: phases }
}
