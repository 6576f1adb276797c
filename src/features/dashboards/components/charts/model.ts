/** The RSSI dashboard's trends (rpc('rssi_trends')) and the sentences that say what the charts draw. */
import { formatDate } from '@/lib/dates'
import { countText } from '@/domain/plural'
import { formatRate } from '@/domain/rates'

export type TrendStage = 'manager' | 'bpo_metier' | 'bpo_groupe' | 'ra'

/** One started campaign, at its end date or today while it runs, counted over its own items. */
export interface TrendPoint {
  id: string
  name: string
  status: 'active' | 'completed' | 'archived'
  point_date: string
  total_items: number
  validated_items: number
  /** Validated / all its items (the dashboard's Taux de conformité), null for a campaign without items. */
  validation_rate: number | null
  /** Reviewed (« revus »), sent undecided to the RA at its closure, and reviewed / all: the campaign list's figures. */
  reviewed_items: number
  undecided_items: number
  review_rate: number | null
  at_risk_items: number
}

/** One day of the dashboard's window: the decisions taken that day on rights in scope, by outcome. */
export interface DecisionDay {
  day: string
  approved: number
  refused: number
}

/** The running campaigns' items decided at a stage, and those waiting there now. */
export interface StageCompletion {
  stage: TrendStage
  decided: number
  waiting: number
}

export interface RssiTrends {
  as_of: string
  campaigns: TrendPoint[]
  days: DecisionDay[]
  stages: StageCompletion[]
}

export const STAGE_LABELS: Record<TrendStage, string> = {
  manager: 'Manager',
  bpo_metier: 'BPO Métier',
  bpo_groupe: 'BPO Groupe',
  ra: 'RA (traitement)',
}

/** Where a point stands: its end date, or « en cours » for the running campaign whose point is today. */
export const pointDateText = (point: TrendPoint) => (point.status === 'active' ? 'en cours' : formatDate(point.point_date))

/**
 * The compliance chart's axis labels, one per point and never two alike: a finished campaign by its end date, a
 * running one by « En cours » when it is the only one, else by its name (several campaigns run at once).
 */
export function trendAxisLabels(points: readonly TrendPoint[]): string[] {
  const running = points.filter((point) => point.status === 'active').length
  const labels = points.map((point) => {
    if (point.status !== 'active') return formatDate(point.point_date)
    return running === 1 ? 'En cours' : shortName(point.name)
  })
  const seen = new Map<string, number>()
  return labels.map((label) => {
    const count = (seen.get(label) ?? 0) + 1
    seen.set(label, count)
    return count === 1 ? label : `${label} (${count})`
  })
}

const shortName = (name: string) => (name.length > 18 ? `${name.slice(0, 17).trimEnd()}…` : name)

/** The compliance chart in words: from the oldest campaign to the latest, the rate and the accounts at risk. */
export function trendSummary(points: readonly TrendPoint[]): string {
  const first = points[0]
  const last = points.at(-1)
  if (!first || !last) return 'Aucune campagne menée sur la période : pas de tendance à montrer.'
  const risk = (point: TrendPoint) => countText(point.at_risk_items, 'compte à risque', 'comptes à risque')
  if (first === last) {
    return `Une seule campagne, « ${last.name} » (${pointDateText(last)}) : taux de conformité ${formatRate(last.validation_rate)}, ${risk(last)}.`
  }
  return (
    `De « ${first.name} » (${pointDateText(first)}) à « ${last.name} » (${pointDateText(last)}), ` +
    `le taux de conformité passe de ${formatRate(first.validation_rate)} à ${formatRate(last.validation_rate)} ` +
    `et les comptes à risque de ${first.at_risk_items} à ${last.at_risk_items}.`
  )
}

/** The decisions chart in words: how many decisions over the window, how many refused, and the busiest day. */
export function decisionsSummary(days: readonly DecisionDay[]): string {
  const approved = days.reduce((sum, day) => sum + day.approved, 0)
  const refused = days.reduce((sum, day) => sum + day.refused, 0)
  if (approved + refused === 0) return 'Aucune décision sur la période.'
  const busiest = days.reduce((best, day) => (day.approved + day.refused > best.approved + best.refused ? day : best))
  return (
    `${countText(approved + refused, 'décision', 'décisions')} sur la période : ` +
    `${countText(approved, 'validation', 'validations')} et ${countText(refused, 'refus', 'refus')}. ` +
    `Le ${formatDate(busiest.day)} en a compté le plus (${busiest.approved + busiest.refused}).`
  )
}

/** The stage chart in words: each stage's decided and waiting items. */
export function stageSummary(stages: readonly StageCompletion[]): string {
  if (stages.every((stage) => stage.decided === 0 && stage.waiting === 0)) return 'Aucune campagne en cours : aucun droit à revoir.'
  const parts = stages.map(
    (stage) =>
      `${STAGE_LABELS[stage.stage]} : ${countText(stage.decided, 'droit décidé', 'droits décidés')}, ${countText(stage.waiting, 'en attente', 'en attente')}`,
  )
  return `Campagnes en cours, par étape. ${parts.join(' ; ')}.`
}
