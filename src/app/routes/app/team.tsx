import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'
import { TeamMembersCard } from '@/features/team/components/TeamMembersCard'
import { renderTeamMemberRights } from './team-member-rights'

export function TeamRoute() {
  return (
    <>
      <PageHeader
        title={appPage('team').title}
        description="Les personnes dont vous êtes le manager et l'avancement de la revue de leurs droits."
      />
      <TeamMembersCard title="Membres de l'équipe" renderMemberRights={renderTeamMemberRights} />
    </>
  )
}
