/** Pure logic of the profile feature: no Supabase, no React. */
import type { RightStatus } from '@/domain/labels'

/** The caller's row of the directory, with their manager's name joined. */
export interface ProfileDetails {
  id: string
  email: string
  first_name: string
  last_name: string
  role: string
  position: string | null
  department: string | null
  last_login: string | null
  // PostgREST embeds a to-one relation as an object; older typings call it an array, so both are read.
  manager: ManagerName | ManagerName[] | null
}

interface ManagerName {
  first_name: string
  last_name: string
}

/** Which decisions the history lists (rpc('decision_history', { p_scope })). */
export type HistoryScope = 'all' | 'taken' | 'received'

export const HISTORY_SCOPES: readonly { value: HistoryScope; label: string }[] = [
  { value: 'all', label: 'Toutes les décisions' },
  { value: 'taken', label: 'Prises par moi' },
  { value: 'received', label: 'Prises sur mes droits' },
]

/** One row of rpc('decision_history'): the decision's own record, kept also after the right is gone. */
export interface DecisionEntry {
  decision_id: string
  right_id: string | null
  stage: string
  decision: 'approved' | 'refused'
  from_status: RightStatus
  to_status: RightStatus
  comment: string | null
  decided_at: string
  decided_by: string | null
  decided_by_name: string
  decided_by_email: string
  holder_id: string
  holder_name: string
  holder_email: string
  application_name: string
  role_name: string
  campaign_name: string | null
}

/** Where the next page of the history starts: strictly before the last decision received. */
export interface HistoryCursor {
  beforeAt: string
  beforeId: string
}

/** The next page's cursor, or undefined when the last page was not full (nothing older remains). */
export function nextHistoryCursor(page: readonly DecisionEntry[], pageSize: number): HistoryCursor | undefined {
  const last = page[page.length - 1]
  if (page.length < pageSize || !last) return undefined
  return { beforeAt: last.decided_at, beforeId: last.decision_id }
}

export function managerNameOf(profile: Pick<ProfileDetails, 'manager'>): string | null {
  const manager = Array.isArray(profile.manager) ? profile.manager[0] : profile.manager
  return manager ? `${manager.first_name} ${manager.last_name}` : null
}

