/** A campaign's burndown (rpc('campaign_burndown')) and the sentence that says what its chart draws. */
import { formatDate } from '@/lib/dates'
import { countText } from '@/domain/plural'

/** A running campaign, as the burndown's choice lists it. */
export interface RunningCampaign {
  id: string
  name: string
  start_date: string
  end_date: string
}

export interface BurndownDay {
  day: string
  /** Decisions taken on its items that day; null for a day still to come. */
  decisions: number | null
  /** Items still without a decision at the end of that day; null for a day still to come. */
  remaining: number | null
  /** The steady pace: every item on the start date, none on the end date. */
  ideal: number
}

const numberFr = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 })

/** The chart in words: where the campaign stands today against the steady pace that meets its deadline. */
export function burndownSummary(days: readonly BurndownDay[], endDate: string): string {
  const past = days.filter((day) => day.remaining !== null)
  const today = past.at(-1)
  const first = days[0]
  if (!today || !first) return 'La campagne n’a pas encore commencé : aucune décision à montrer.'
  const decisions = past.reduce((sum, day) => sum + (day.decisions ?? 0), 0)
  const remaining = today.remaining ?? 0
  const pace =
    remaining === 0
      ? 'Tous les droits ont reçu une décision.'
      : remaining <= today.ideal
        ? `C’est dans les temps : le rythme régulier en laisserait ${numberFr.format(today.ideal)}.`
        : `C’est en retard sur le rythme régulier, qui en laisserait ${numberFr.format(today.ideal)}.`
  return (
    `${countText(decisions, 'décision', 'décisions')} depuis le ${formatDate(first.day)} ; ` +
    `${countText(remaining, 'droit reste', 'droits restent')} sans décision au ${formatDate(today.day)}, ` +
    `pour une échéance au ${formatDate(endDate)}. ${pace}`
  )
}
