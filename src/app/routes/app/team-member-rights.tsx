import { PersonRights } from '@/features/rights/components/PersonRights'
import type { TeamMember } from '@/features/team/model'

/** A team member's rights in the team's dialog: the rights feature's table, read through the manager's row security. */
export function renderTeamMemberRights(member: TeamMember) {
  return <PersonRights userId={member.user_id} caption={`Droits de ${member.full_name}`} emptyMessage="Aucun droit pour ce collaborateur." />
}
