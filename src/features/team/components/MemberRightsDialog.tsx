import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { StatusBadge } from '@/components/ui/StatusBadge'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate } from '@/lib/dates'
import { accountTypeLabel } from '@/lib/labels'
import { useMemberRights } from '../api'
import { lastUseText, positionText, type TeamMember } from '../model'

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
  return (
    <Table caption={`Droits de ${member.full_name}`}>
      <TableHead>
        <tr>
          <TableHeaderCell>Application</TableHeaderCell>
          <TableHeaderCell>Rôle</TableHeaderCell>
          <TableHeaderCell>Type de compte</TableHeaderCell>
          <TableHeaderCell>Date d&apos;attribution</TableHeaderCell>
          <TableHeaderCell>Dernière utilisation</TableHeaderCell>
          <TableHeaderCell>Statut</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {rights.data.length === 0 && <TableEmptyRow colSpan={6} message="Aucun droit pour ce collaborateur." />}
        {rights.data.map((right) => (
          <TableRow key={right.id}>
            <TableCell>{right.application?.name ?? '-'}</TableCell>
            <TableCell>{right.role_name}</TableCell>
            <TableCell>{accountTypeLabel(right.account_type)}</TableCell>
            <TableCell>{formatDate(right.granted_at)}</TableCell>
            <TableCell>{lastUseText(right.last_used_at, (value) => formatDate(value))}</TableCell>
            <TableCell>
              <StatusBadge status={right.status} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
