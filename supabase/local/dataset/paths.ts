// The ways a right goes through a review (ARCHITECTURE §4), each with how often it happens. A right's status and its
// right_decisions rows both come from the one path it is given, so they always agree: every decision goes from the
// status the previous one left to the status its stage and outcome give (validate_user_right's rules), the last one
// leaves the right's status, and completing a campaign sends what is undecided to the RA without a decision.

export type Stage = 'user' | 'manager' | 'bpo_metier' | 'bpo_groupe' | 'ra'
export type Outcome = 'approved' | 'refused'
export type Step = { stage: Stage; decision: Outcome } | 'complete'

/** Who is the review population: a right in an active campaign, one of manager@example.com's team's, or a completed campaign's. */
export type PathKind = 'active' | 'team' | 'completed'

interface PathTemplate {
  /** u = holder approves, u- refuses; m, bm, bg and ra likewise for the manager, BPO Métier, BPO Groupe and RA; C = completion. */
  code: string
  weights: Partial<Record<PathKind, number>>
}

// Shares in percent. About half of an active campaign's rights are still pending, so that the largest one's manager
// file (its pending rights) passes 100,000 rows at full scale. A holder whose role is not 'user' has no user stage: the
// paths that begin with one go away and the others keep their proportions.
const templates: PathTemplate[] = [
  { code: '', weights: { active: 52, team: 55 } },
  { code: 'u', weights: { active: 8, team: 35 } },
  { code: 'u-', weights: { active: 2 } },
  { code: 'm', weights: { active: 6, team: 2 } },
  { code: 'u m', weights: { active: 4, team: 2 } },
  { code: 'm-', weights: { active: 3, team: 1, completed: 2 } },
  { code: 'u m-', weights: { active: 1 } },
  { code: 'm bm', weights: { active: 5, team: 1 } },
  { code: 'u m bm', weights: { active: 2, team: 1 } },
  { code: 'm bm-', weights: { active: 2 } },
  { code: 'm bm bg', weights: { active: 5, team: 1, completed: 38 } },
  { code: 'u m bm bg', weights: { active: 3, team: 1, completed: 22 } },
  { code: 'm bm bg-', weights: { active: 1, completed: 1 } },
  { code: 'u- ra', weights: { active: 1, completed: 2 } },
  { code: 'm- ra', weights: { active: 2, team: 1, completed: 6 } },
  { code: 'm bm- ra', weights: { active: 1, completed: 3 } },
  { code: 'm- ra-', weights: { active: 2, completed: 1 } },
  { code: 'C', weights: { completed: 8 } },
  { code: 'u C', weights: { completed: 3 } },
  { code: 'm C', weights: { completed: 4 } },
  { code: 'm bm C', weights: { completed: 4 } },
  { code: 'C ra', weights: { completed: 4 } },
  { code: 'm C ra', weights: { completed: 2 } },
]

const stageByCode: Record<string, Stage> = { u: 'user', m: 'manager', bm: 'bpo_metier', bg: 'bpo_groupe', ra: 'ra' }

const statusAfter: Record<Stage, Record<Outcome, string>> = {
  user: { approved: 'validated_user', refused: 'refused_user' },
  manager: { approved: 'validated_manager', refused: 'refused_manager' },
  bpo_metier: { approved: 'validated_bpo_metier', refused: 'refused_bpo_metier' },
  bpo_groupe: { approved: 'validated_bpo_groupe', refused: 'refused_bpo_groupe' },
  ra: { approved: 'treated', refused: 'treatment_required' },
}

export interface PathStep {
  ord: number
  stage: Stage | null
  decision: Outcome | null
  from_status: string
  to_status: string
}

export interface Path {
  id: number
  code: string
  final_status: string
  steps: PathStep[]
  /** The position of the completion among the steps, or null. */
  completion_ord: number | null
}

function parse(code: string, id: number): Path {
  const steps: PathStep[] = []
  let status = 'pending'
  for (const token of code.split(' ').filter(Boolean)) {
    const ord = steps.length
    if (token === 'C') {
      steps.push({ ord, stage: null, decision: null, from_status: status, to_status: 'treatment_required' })
    } else {
      const stage = stageByCode[token.replace('-', '')] as Stage
      const decision: Outcome = token.endsWith('-') ? 'refused' : 'approved'
      steps.push({ ord, stage, decision, from_status: status, to_status: statusAfter[stage][decision] })
    }
    status = (steps[ord] as PathStep).to_status
  }
  const completion = steps.findIndex((s) => s.stage === null)
  return { id, code, final_status: status, steps, completion_ord: completion < 0 ? null : completion }
}

export const paths: Path[] = templates.map((t, id) => parse(t.code, id))

/** Path 0: no decision. In an active campaign (or none) the right is pending; a completed campaign uses COMPLETED_UNDECIDED. */
export const UNDECIDED_PATH = 0
export const COMPLETED_UNDECIDED_PATH = paths.findIndex((p) => p.code === 'C')

export const BUCKETS = 1000

/** For each population and holder kind, the path of each of BUCKETS equal slices of [0, 1). */
export function pathBuckets(): { kind: PathKind; holder_is_user: boolean; bucket: number; path_id: number }[] {
  const rows: { kind: PathKind; holder_is_user: boolean; bucket: number; path_id: number }[] = []
  for (const kind of ['active', 'team', 'completed'] as const) {
    for (const holderIsUser of [true, false]) {
      const eligible = templates
        .map((t, id) => ({ id, weight: t.weights[kind] ?? 0 }))
        .filter(({ id, weight }) => weight > 0 && (holderIsUser || !(paths[id] as Path).code.startsWith('u')))
      const total = eligible.reduce((sum, e) => sum + e.weight, 0)
      for (let bucket = 0; bucket < BUCKETS; bucket++) {
        const point = ((bucket + 0.5) / BUCKETS) * total
        let cumulative = 0
        const chosen = eligible.find((e) => (cumulative += e.weight) > point) ?? (eligible[eligible.length - 1] as { id: number })
        rows.push({ kind, holder_is_user: holderIsUser, bucket, path_id: chosen.id })
      }
    }
  }
  return rows
}
