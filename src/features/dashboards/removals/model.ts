import { differenceInCalendarDays } from 'date-fns'

export interface UnverifiedRemoval {
  id: string
  application_name: string
  holder_name: string
  holder_email: string
  role_name: string
  method: string
  ticket: string | null
  requested_at: string
  requested_by_name: string
  due_at: string
  unverified_at: string | null
  apply_outcome: string | null
  apply_message: string | null
}

export interface UnverifiedRemovals {
  count: number
  /** The oldest request first. */
  rows: UnverifiedRemoval[]
}

/** Whole days since the request, as of today. */
export function ageInDays(requestedAt: string, today: Date): number {
  return Math.max(0, differenceInCalendarDays(today, new Date(requestedAt)))
}

export function daysText(days: number): string {
  return days <= 1 ? `${days} jour` : `${days} jours`
}

/** The tile's line under its figure: how old the oldest request is, or that there is none. */
export function oldestText(removals: UnverifiedRemovals, today: Date): string {
  const oldest = removals.rows[0]
  if (!oldest) return 'Aucune suppression demandée n’est encore présente après son délai.'
  return `Suppressions demandées, toujours présentes dans la dernière liste de l’application après son délai ; la plus ancienne demandée il y a ${daysText(ageInDays(oldest.requested_at, today))}.`
}

/** How the removal was asked for: the ticket, or the connector and what it reported. */
export function methodText(row: Pick<UnverifiedRemoval, 'method' | 'ticket' | 'apply_outcome'>): string {
  if (row.method === 'ticket') return `Ticket ${row.ticket ?? ''}`.trim()
  const outcome = row.apply_outcome === 'removed' ? 'retiré de l’annuaire' : row.apply_outcome === 'failed' ? 'échec du retrait' : row.apply_outcome === 'already_absent' ? 'déjà absent de l’annuaire' : 'pas encore appliqué'
  return `Connecteur (${outcome})`
}
