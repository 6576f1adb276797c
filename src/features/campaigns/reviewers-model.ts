/** Pure logic of a campaign's reviewers: sign-offs, fallback reviewers, reassignment. */

/** One row of rpc('campaign_signoffs_for_evidence'). */
export interface CampaignSignoff {
  stage: 'manager' | 'bpo_metier' | 'bpo_groupe' | 'ra'
  /** null: the items of that stage without reviewer, which the fallback reviewers decide. */
  reviewer_id: string | null
  reviewer_name: string | null
  reviewer_email: string | null
  items_count: number
  /** Items that may still need this reviewer's decision: the signature waits until there are none. */
  open_count: number
  /** The rights in this reviewer's queue for the campaign now (for the null reviewer: in nobody's own queue). */
  waiting_count: number
  signed_at: string | null
  ip_address: string | null
}

/** One row of rpc('campaign_reviewer_gaps'): rights of a running campaign waiting at a stage where nobody may decide. */
export interface ReviewerGap {
  campaign_id: string
  stage: CampaignSignoff['stage']
  items_count: number
}

export interface ReviewerChoice {
  id: string
  full_name: string
  email: string
}

export interface ReassignInput {
  campaignId: string
  fromId: string
  toId: string
  reason: string
  /** 'yyyy-MM-dd' */
  endsOn: string
}

export const signoffStageLabels: Record<CampaignSignoff['stage'], string> = {
  manager: 'Manager',
  bpo_metier: 'BPO Métier',
  bpo_groupe: 'BPO Groupe',
  ra: "Responsable d'application",
}

/** The reviewers who may be replaced: every named reviewer of the campaign, once, by name. */
export function reassignableReviewers(rows: readonly CampaignSignoff[]): ReviewerChoice[] {
  const byId = new Map<string, ReviewerChoice>()
  for (const row of rows) {
    if (row.reviewer_id && !byId.has(row.reviewer_id)) {
      byId.set(row.reviewer_id, { id: row.reviewer_id, full_name: row.reviewer_name ?? row.reviewer_id, email: row.reviewer_email ?? '' })
    }
  }
  return [...byId.values()].sort((a, b) => a.full_name.localeCompare(b.full_name, 'fr'))
}

/** Who signed a stage, who has not, and the items without reviewer, in words. */
export function signoffText(row: CampaignSignoff): string {
  if (row.reviewer_id === null) return 'Aucun relecteur désigné : relecteurs de secours'
  if (row.signed_at) return 'Signé'
  if (row.waiting_count > 0) return 'À décider'
  return row.open_count > 0 ? 'En attente des étapes précédentes' : 'Pas encore signé'
}

/** The items still open that have not reached the reviewer: what is open beyond their queue. */
export function upcomingCount(row: Pick<CampaignSignoff, 'open_count' | 'waiting_count'>): number {
  return Math.max(row.open_count - row.waiting_count, 0)
}

/** « 12 droits à l'étape BPO Groupe n'ont aucun relecteur : désignez un relecteur de secours » */
export function reviewerGapText(gap: Pick<ReviewerGap, 'stage' | 'items_count'>): string {
  const rights = gap.items_count === 1 ? '1 droit' : `${new Intl.NumberFormat('fr-FR').format(gap.items_count)} droits`
  const verb = gap.items_count === 1 ? "n'a" : "n'ont"
  return `${rights} à l'étape ${signoffStageLabels[gap.stage]} ${verb} aucun relecteur : désignez un relecteur de secours`
}
