/** Pure logic of the reviews feature: no Supabase, no React. */
import type { RightStatus } from '@/domain/labels'

/** One row of rpc('review_queue'): a right awaiting the caller's decision. */
export interface QueueItem {
  right_id: string
  holder_id: string
  holder_name: string
  holder_email: string
  holder_position: string | null
  holder_department: string | null
  application_id: string
  application_name: string
  role_name: string
  account_type: string
  justification: string | null
  status: RightStatus
  granted_at: string | null
  last_used_at: string | null
  campaign_id: string | null
  campaign_name: string | null
  campaign_status: string | null
  campaign_end_date: string | null
  stage: string
  approve_status: RightStatus | null
  refuse_status: RightStatus | null
  days_unused: number | null
  suggests_refusal: boolean
  recommendation: string | null
}

/** What the validation dialog shows and decides about. */
export interface DecisionTarget {
  rightId: string
  applicationName: string
  roleName: string
  holderName: string
  approveStatus: RightStatus | null
  refuseStatus: RightStatus | null
  /** For whom the caller decides, when they act for someone else (delegation, fallback reviewer). */
  onBehalfOf?: string
  /** The inactivity recommendation ('Jamais utilisé', 'Inutilisé depuis N jours'), when the caller knows it. */
  recommendation?: string | null
}

/** A separation-of-duties conflict of a right in the caller's queue (rpc('review_conflicts')). */
export interface RightConflict {
  right_id: string
  rule_id: string
  rule_name: string
  other_right_id: string
  other_role_name: string
  other_application_name: string
}

export type Decision = 'approve' | 'refuse'

export interface DecisionInput {
  rightId: string
  status: RightStatus
  comment: string
}

/** The inactivity recommendation, worded as SPEC §9 and the SQL do; null when the right is in use. */
export function recommendationText(item: Pick<QueueItem, 'last_used_at' | 'days_unused' | 'suggests_refusal' | 'recommendation'>): string | null {
  if (item.recommendation) return item.recommendation
  if (!item.suggests_refusal) return null
  if (item.last_used_at === null || item.days_unused === null) return 'Jamais utilisé'
  return `Inutilisé depuis ${item.days_unused} jours`
}

export type Grouping = 'person' | 'application'

export interface QueueGroup {
  key: string
  label: string
  detail: string | null
  items: QueueItem[]
}

/** Groups the queue by holder or by application, groups by label (French order), items in their original order. */
export function groupQueue(items: readonly QueueItem[], grouping: Grouping): QueueGroup[] {
  const groups = new Map<string, QueueGroup>()
  for (const item of items) {
    const key = grouping === 'person' ? item.holder_id : item.application_id
    let group = groups.get(key)
    if (!group) {
      group =
        grouping === 'person'
          ? { key, label: item.holder_name, detail: item.holder_email, items: [] }
          : { key, label: item.application_name, detail: null, items: [] }
      groups.set(key, group)
    }
    group.items.push(item)
  }
  return [...groups.values()].sort((a, b) => a.label.localeCompare(b.label, 'fr') || a.key.localeCompare(b.key))
}

export interface QueueFilters {
  campaignId: string | null
  applicationId: string | null
  status: RightStatus | null
}

export const NO_FILTERS: QueueFilters = { campaignId: null, applicationId: null, status: null }

export interface Option {
  value: string
  label: string
}

function uniqueOptions(pairs: Iterable<[string | null, string | null]>): Option[] {
  const map = new Map<string, string>()
  for (const [value, label] of pairs) if (value && label && !map.has(value)) map.set(value, label)
  return [...map].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label, 'fr'))
}

/** The choices of the filters, drawn from the unfiltered queue. */
export function filterOptions(items: readonly QueueItem[]) {
  return {
    campaigns: uniqueOptions(items.map((item) => [item.campaign_id, item.campaign_name])),
    applications: uniqueOptions(items.map((item) => [item.application_id, item.application_name])),
    statuses: [...new Set(items.map((item) => item.status))].sort(),
  }
}

export function applyFilters(items: readonly QueueItem[], filters: QueueFilters): QueueItem[] {
  return items.filter(
    (item) =>
      (filters.campaignId === null || item.campaign_id === filters.campaignId) &&
      (filters.applicationId === null || item.application_id === filters.applicationId) &&
      (filters.status === null || item.status === filters.status),
  )
}

export function targetOfQueueItem(item: QueueItem): DecisionTarget {
  return {
    rightId: item.right_id,
    applicationName: item.application_name,
    roleName: item.role_name,
    holderName: item.holder_name,
    approveStatus: item.approve_status,
    refuseStatus: item.refuse_status,
    recommendation: recommendationText(item),
  }
}

export interface BulkOutcome {
  rightId: string
  ok: boolean
  message: string | null
}

/** A decision asked on one right; no status when that decision is not possible on it. */
export interface DecisionRequest {
  rightId: string
  status: RightStatus | null
  comment: string
}

/** Runs one decision per right, one after the other, so that a failure leaves the others decided. */
export async function runBulk(
  requests: readonly DecisionRequest[],
  decide: (input: DecisionInput) => Promise<unknown>,
): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = []
  for (const { rightId, status, comment } of requests) {
    try {
      if (!status) throw new Error('Cette décision n’est pas possible sur ce droit.')
      await decide({ rightId, status, comment })
      outcomes.push({ rightId, ok: true, message: null })
    } catch (error) {
      outcomes.push({ rightId, ok: false, message: error instanceof Error ? error.message : String(error) })
    }
  }
  return outcomes
}

/** The status a bulk decision gives a queue item, or null when that decision is not possible on it. */
export function statusFor(item: Pick<QueueItem, 'approve_status' | 'refuse_status'>, decision: Decision): RightStatus | null {
  return decision === 'approve' ? item.approve_status : item.refuse_status
}

/** Labels of the RA's buttons differ: closing a refused right is 'Traité'. */
export function decisionLabels(target: Pick<DecisionTarget, 'approveStatus'>): { approve: string; refuse: string } {
  return target.approveStatus === 'treated' ? { approve: 'Marquer traité', refuse: 'Traitement requis' } : { approve: 'Valider', refuse: 'Refuser' }
}

/** The bulk bar's buttons say what the row buttons say, applied to the selection: the RA's own words for the RA. */
export function selectionLabels(approveStatus: RightStatus | null): { approve: string; refuse: string } {
  const labels = decisionLabels({ approveStatus })
  const suffix = approveStatus === 'treated' ? 'pour la sélection' : 'la sélection'
  return { approve: `${labels.approve} ${suffix}`, refuse: `${labels.refuse} ${suffix}` }
}
