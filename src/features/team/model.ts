/** Pure logic of the team feature: no Supabase, no React. */
import type { RightStatus } from '@/lib/labels'

/** The manager dashboard's counters, over every right of the caller's team (rpc('manager_dashboard')). */
export interface TeamSummary {
  team_size: number
  rights_count: number
  pending_count: number
  validated_count: number
  refused_count: number
  progress: number | null
  awaiting_decision_count: number
}

/** One person whose manager is the caller, with their rights counted (rpc('team_progress')). */
export interface TeamMember {
  user_id: string
  full_name: string
  email: string
  position: string | null
  department: string | null
  rights_count: number
  pending_count: number
  validated_count: number
  refused_count: number
  progress: number | null
}

/** A right of the team awaiting the caller's decision, as the dashboard lists it (rows of rpc('review_queue')). */
export interface AwaitingRight {
  right_id: string
  holder_name: string
  application_name: string
  role_name: string
  status: RightStatus
  last_used_at: string | null
  recommendation: string | null
  /** The statuses the manager's Valider and Refuser give (rpc('review_queue')). */
  approve_status: RightStatus | null
  refuse_status: RightStatus | null
}

/** One right of a team member, read through row-level security (the manager may read their reports' rights). */
export interface MemberRight {
  id: string
  status: RightStatus
  role_name: string
  account_type: string
  granted_at: string | null
  last_used_at: string | null
  application: { name: string } | null
  campaign: { name: string } | null
}

export const EMPTY_SUMMARY: TeamSummary = {
  team_size: 0,
  rights_count: 0,
  pending_count: 0,
  validated_count: 0,
  refused_count: 0,
  progress: null,
  awaiting_decision_count: 0,
}

/** '-' for an empty position (as the users page shows it). */
export function positionText(position: string | null): string {
  return position?.trim() ? position : '-'
}

/** The dashboard shows a first page of the queue; sorted by person then application so that it reads as a list. */
export function sortAwaiting(rights: readonly AwaitingRight[]): AwaitingRight[] {
  return [...rights].sort(
    (a, b) =>
      a.holder_name.localeCompare(b.holder_name, 'fr') ||
      a.application_name.localeCompare(b.application_name, 'fr') ||
      a.role_name.localeCompare(b.role_name, 'fr'),
  )
}
