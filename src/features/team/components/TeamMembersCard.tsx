import { useState, type ReactNode } from 'react'
import { Card, CardHeader, CardTitle, CardContent } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { useTeamMembers } from '../api'
import type { TeamMember } from '../model'
import { MemberRightsDialog } from './MemberRightsDialog'
import { TeamProgressTable } from './TeamProgressTable'

interface TeamMembersCardProps {
  title: string
  /** A member's rights, shown when their name is chosen (composed by the route). */
  renderMemberRights: (member: TeamMember) => ReactNode
}

/** The team's progress, person by person; a person's name opens their rights. */
export function TeamMembersCard({ title, renderMemberRights }: TeamMembersCardProps) {
  const members = useTeamMembers()
  const [open, setOpen] = useState<TeamMember | null>(null)
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="p-0">
        {members.isPending ? (
          <Spinner className="py-8" />
        ) : members.error ? (
          <ErrorBox className="m-4" message={members.error.message} />
        ) : (
          <TeamProgressTable caption={title} members={members.data} onOpen={setOpen} />
        )}
      </CardContent>
      <MemberRightsDialog member={open} onClose={() => setOpen(null)} renderRights={renderMemberRights} />
    </Card>
  )
}
