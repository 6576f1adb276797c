// A campaign's review figures as each place that shows them reads them: the campaign list (campaign_progress), the
// RSSI dashboard (rssi_dashboard's running campaigns, rssi_trends' points) and the evidence pack (campaign_evidence).
// They all come from one definition of « revu » (private.is_reviewed), so the tests expect them equal.
import type { Database } from '../../../supabase/local/database'
import { actAs, type Actor } from './actors'
import { one } from './fixtures'

/** Items, those reviewed (« revus »), those a closed campaign sent to the RA undecided, and the review rate. */
export interface ReviewFigures {
  items: number
  reviewed: number
  undecided: number
  progress: number | null
}

/** The Campagnes list's figures (campaign_progress), over what the caller may read. */
export function listedFigures(db: Database, actor: Actor, campaignId: string): Promise<ReviewFigures> {
  return actAs(db, actor, (tx) =>
    one<ReviewFigures>(
      tx,
      `select rights_count as items, reviewed_count as reviewed, undecided_count as undecided, progress
         from public.campaign_progress where campaign_id = $1`,
      [campaignId],
    ),
  )
}

/** The evidence pack's Synthèse (campaign_evidence), for admin and rssi. */
export async function evidenceFigures(db: Database, campaignId: string, actor: Actor = 'rssi'): Promise<ReviewFigures> {
  const { e } = await actAs(db, actor, (tx) => one<{ e: ReviewFigures }>(tx, 'select public.campaign_evidence($1) as e', [campaignId]))
  return { items: e.items, reviewed: e.reviewed, undecided: e.undecided, progress: e.progress }
}

interface TrendPoint {
  id: string
  total_items: number
  reviewed_items: number
  undecided_items: number
  review_rate: number | null
}

/** The campaign's point on the RSSI dashboard's « Évolution de la conformité », over a window of its own dates. */
export async function trendFigures(db: Database, campaignId: string, filters: { applicationId?: string } = {}): Promise<ReviewFigures | undefined> {
  const { t } = await actAs(db, 'rssi', (tx) =>
    one<{ t: { campaigns: TrendPoint[] } }>(
      tx,
      `select public.rssi_trends(p_application_id => $2, p_from => c.start_date, p_to => c.end_date) as t
         from public.campaigns c where c.id = $1`,
      [campaignId, filters.applicationId ?? null],
    ),
  )
  const point = t.campaigns.find((c) => c.id === campaignId)
  return point && { items: point.total_items, reviewed: point.reviewed_items, undecided: point.undecided_items, progress: point.review_rate }
}

interface ActiveCampaign {
  id: string
  total_rights: number
  reviewed_rights: number
  progress: number | null
  scope_rights: number
  scope_reviewed_rights: number
  scope_progress: number | null
}

/** A running campaign as the RSSI dashboard lists it: the whole campaign, and its rights in the filters' scope. */
export async function dashboardFigures(
  db: Database,
  campaignId: string,
  filters: { applicationId?: string } = {},
): Promise<{ whole: Omit<ReviewFigures, 'undecided'>; scope: Omit<ReviewFigures, 'undecided'> } | undefined> {
  const { d } = await actAs(db, 'rssi', (tx) =>
    one<{ d: { active_campaigns: ActiveCampaign[] } }>(tx, `select public.rssi_dashboard(p_application_id => $1) as d`, [filters.applicationId ?? null]),
  )
  const c = d.active_campaigns.find((campaign) => campaign.id === campaignId)
  return (
    c && {
      whole: { items: c.total_rights, reviewed: c.reviewed_rights, progress: c.progress },
      scope: { items: c.scope_rights, reviewed: c.scope_reviewed_rights, progress: c.scope_progress },
    }
  )
}
