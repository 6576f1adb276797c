/** Pure logic of the team feature: no Supabase, no React. */

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
  /** Refused, awaiting the RA's treatment (status treatment_required). */
  treatment_required_count: number
  treated_count: number
  progress: number | null
}

/** '-' for an empty position (as the users page shows it). */
export function positionText(position: string | null): string {
  return position?.trim() ? position : '-'
}
