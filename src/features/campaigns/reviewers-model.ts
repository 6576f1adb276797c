/** Pure logic of a campaign's reviewers: sign-offs, fallback reviewers, reassignment. */

/** One row of rpc('campaign_signoffs_for_evidence'). */
export interface CampaignSignoff {
  stage: 'manager' | 'bpo_metier' | 'bpo_groupe' | 'ra'
  /** null: the items of that stage without reviewer, which the fallback reviewers decide. */
  reviewer_id: string | null
  reviewer_name: string | null
  reviewer_email: string | null
  items_count: number
  open_count: number
  signed_at: string | null
  ip_address: string | null
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
  return row.signed_at ? 'Signé' : row.open_count > 0 ? 'À décider' : 'Pas encore signé'
}
