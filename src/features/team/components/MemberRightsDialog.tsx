import { HeldRightsTable } from '@/components/rights/HeldRightsTable'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { useMemberRights } from '../api'
import { positionText, type TeamMember } from '../model'

interface MemberRightsDialogProps {
  /** The member whose rights are shown; closed when null. */
  member: TeamMember | null
  onClose: () => void
}

export function MemberRightsDialog({ member, onClose }: MemberRightsDialogProps) {
  if (!member) return null
  return (
    <Dialog
      open
      onClose={onClose}
      size="lg"
      title={`Droits de ${member.full_name}`}
      description={`${positionText(member.position)} · ${member.email}`}
    >
      <MemberRights member={member} />
    </Dialog>
  )
}

function MemberRights({ member }: { member: TeamMember }) {
  const rights = useMemberRights(member.user_id)
  if (rights.isPending) return <Spinner className="py-8" />
  if (rights.error) return <ErrorBox message={rights.error.message} />
  return <HeldRightsTable caption={`Droits de ${member.full_name}`} rights={rights.data} emptyMessage="Aucun droit pour ce collaborateur." />
}
