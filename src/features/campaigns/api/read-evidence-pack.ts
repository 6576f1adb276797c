import { throwApiError } from '@/lib/api-error'
import { readSliceInPages, uuidSlices, type UuidSlice } from '@/lib/keyset'
import { readAllPages } from '@/lib/paging'
import { getSupabase, type AppSupabaseClient } from '@/lib/supabase'
import { evidenceItem, type EvidenceEvent, type EvidenceRemoval, type EvidenceItem, type EvidenceItemRow, type EvidencePack, type EvidenceSignoff, type EvidenceSummary } from '../evidence-model'

/** Journal events a page. */
const JOURNAL_PAGE_SIZE = 1000

/** The evidence pack read as it arrives: each page of items is handed over, in its slice, then dropped. */
export interface EvidenceReader {
  client?: AppSupabaseClient
  /**
   * A page of items of slice `slice` (slices are in right id order, and so are the pages within a slice), `last` for
   * the slice's last page.
   */
  onItems(page: EvidenceItem[], slice: number, last: boolean): void
  /** The campaign's summary, as soon as it arrives (before or while the items are read). */
  onSummary?: (summary: EvidenceSummary) => void
  /** A page of the journal's events, in order, as soon as it arrives (they are all in the answer as well). */
  onEvents?: (page: EvidenceEvent[]) => void
  onProgress?: (fetched: number) => void
}

/**
 * The right ids cut into this many slices, read in order, EVIDENCE_STREAMS at a time: each slice is done soon after
 * the one before it, so that its rows can be written while the later slices are still being read.
 */
export const EVIDENCE_SLICES = 16
/** How many keyset reads of the items run side by side, each over its own slice of the right ids. */
const EVIDENCE_STREAMS = 4
/** Items a page: 200,000 items are about forty requests rather than two hundred. */
const EVIDENCE_PAGE_SIZE = 5000

/** Every slice read, the next one started as soon as a read is free, so that they end about in order. */
async function readSlicesInOrder(readSlice: (slice: UuidSlice, index: number) => Promise<void>): Promise<void> {
  const slices = uuidSlices(EVIDENCE_SLICES)
  let next = 0
  const reader = async () => {
    while (next < slices.length) {
      const index = next
      next += 1
      await readSlice(slices[index]!, index)
    }
  }
  await Promise.all(Array.from({ length: EVIDENCE_STREAMS }, reader))
}

/**
 * A closed campaign's evidence pack: its summary (with the seal for the RSSI), every item with its decisions, keyset-
 * paged on right_id in slices as the exports are, and its audit events, keyset-paged on id. The items go to
 * `onItems` page by page, so that a pack of 200,000 items is turned into rows while the next pages are read.
 */
export async function readEvidencePack(
  campaignId: string,
  { client = getSupabase(), onItems, onSummary, onEvents, onProgress }: EvidenceReader,
): Promise<Omit<EvidencePack, 'items'>> {
  let fetched = 0
  const counted = (rows: number) => {
    fetched += rows
    onProgress?.(fetched)
  }
  // The summary verifies the whole audit chain: it runs beside the item and journal pages rather than before them.
  const summaryRequest = client.rpc('campaign_evidence', { p_campaign_id: campaignId }).then((summary) => {
    if (summary.error) throwApiError(summary.error)
    const data = summary.data as unknown as EvidenceSummary
    onSummary?.(data)
    return data
  })

  // The removals the RA asked for after this campaign, a few per refusal: read once, then joined to each page.
  const removalsRequest = readAllPages((from, to) =>
    client
      .from('right_removals')
      .select('right_id, state, method, ticket, requested_at, requested_by_name, verified_at, verified_source, unverified_at, apply_outcome')
      .eq('campaign_id', campaignId)
      .order('id')
      .range(from, to),
  ).then((rows) => new Map((rows as EvidenceRemoval[]).map((row) => [row.right_id, row])))

  const readPage = async (afterId: string | null): Promise<EvidenceItem[]> => {
    const { data, error } = await client.rpc('campaign_evidence_items', {
      p_campaign_id: campaignId,
      p_limit: EVIDENCE_PAGE_SIZE,
      ...(afterId ? { p_after_id: afterId } : {}),
    })
    if (error) throwApiError(error)
    const removals = await removalsRequest
    return ((data ?? []) as unknown as EvidenceItemRow[]).map((row) => ({ ...evidenceItem(row), removal: removals.get(row[0]) ?? null }))
  }
  const readSlice = (slice: UuidSlice, index: number) =>
    readSliceInPages(slice, EVIDENCE_PAGE_SIZE, readPage, (row) => row.right_id, (rows, last) => {
      onItems(rows, index, last)
      counted(rows.length)
    })
  const readJournal = async (): Promise<EvidenceEvent[]> => {
    const events: EvidenceEvent[] = []
    for (;;) {
      const last = events[events.length - 1]
      const { data, error } = await client.rpc('campaign_evidence_journal', {
        p_campaign_id: campaignId,
        p_limit: JOURNAL_PAGE_SIZE,
        ...(last ? { p_after_id: last.id } : {}),
      })
      if (error) throwApiError(error)
      const page = (data ?? []) as unknown as EvidenceEvent[]
      events.push(...page)
      onEvents?.(page)
      counted(page.length)
      if (page.length < JOURNAL_PAGE_SIZE) return events
    }
  }
  const signoffsRequest = client.rpc('campaign_signoffs_for_evidence', { p_campaign_id: campaignId }).then((signoffs) => {
    if (signoffs.error) throwApiError(signoffs.error)
    return (signoffs.data ?? []) as unknown as EvidenceSignoff[]
  })
  const [summary, , events, signoffs] = await Promise.all([
    summaryRequest,
    readSlicesInOrder(readSlice),
    readJournal(),
    signoffsRequest,
  ])
  return { summary, events, signoffs }
}

/** The whole evidence pack at once, items in right id order. */
export async function fetchEvidencePack(campaignId: string, onProgress?: (fetched: number) => void): Promise<EvidencePack> {
  const slices: EvidenceItem[][] = uuidSlices(EVIDENCE_SLICES).map(() => [])
  const rest = await readEvidencePack(campaignId, { onItems: (page, slice) => slices[slice]!.push(...page), onProgress })
  return { ...rest, items: slices.flat() }
}
