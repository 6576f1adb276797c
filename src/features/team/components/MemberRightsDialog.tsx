import type { ReactNode } from 'react'
import { Dialog } from '@/components/ui/Dialog'
import { positionText, type TeamMember } from '../model'

interface MemberRightsDialogProps {
  /** The member whose rights are shown; closed when null. */
  member: TeamMember | null
  onClose: () => void
  /** The member's rights (the rights feature's table, composed by the route). */
  renderRights: (member: TeamMember) => ReactNode
}

export function MemberRightsDialog({ member, onClose, renderRights }: MemberRightsDialogProps) {
  if (!member) return null
  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      title={`Droits de ${member.full_name}`}
      description={`${positionText(member.position)} · ${member.email}`}
    >
      {renderRights(member)}
    </Dialog>
  )
}
