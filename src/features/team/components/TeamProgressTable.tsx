import { ProgressBar } from '@/components/ui/ProgressBar'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { positionText, type TeamMember } from '../model'

interface TeamProgressTableProps {
  caption: string
  members: readonly TeamMember[]
  /** Opens the member's rights. */
  onOpen: (member: TeamMember) => void
}

/**
 * SPEC §2's 'État d'avancement de l'équipe': Collaborateur, Poste, Droits, Validés, Refusés, Progression %, with the
 * columns that make Droits the sum of the counts beside it (En attente, En traitement, Traités): a right in the RA's
 * hands counts as progress, and would otherwise be in no column.
 */
export function TeamProgressTable({ caption, members, onOpen }: TeamProgressTableProps) {
  return (
    <Table caption={caption}>
      <TableHead>
        <tr>
          <TableHeaderCell>Collaborateur</TableHeaderCell>
          <TableHeaderCell>Poste</TableHeaderCell>
          <TableHeaderCell className="text-right">Droits</TableHeaderCell>
          <TableHeaderCell className="text-right">En attente</TableHeaderCell>
          <TableHeaderCell className="text-right">Validés</TableHeaderCell>
          <TableHeaderCell className="text-right">Refusés</TableHeaderCell>
          <TableHeaderCell className="text-right">En traitement</TableHeaderCell>
          <TableHeaderCell className="text-right">Traités</TableHeaderCell>
          <TableHeaderCell className="w-48">Progression %</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {members.length === 0 && <TableEmptyRow colSpan={9} message="Aucun collaborateur dans votre équipe." />}
        {members.map((member) => (
          <TableRow key={member.user_id}>
            <TableCell>
              <button
                type="button"
                onClick={() => onOpen(member)}
                aria-label={`Voir les droits de ${member.full_name}`}
                className="rounded font-medium text-primary-700 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
              >
                {member.full_name}
              </button>
              <p className="text-xs text-gray-500">{member.email}</p>
            </TableCell>
            <TableCell>{positionText(member.position)}</TableCell>
            <TableCell className="text-right tabular-nums">{member.rights_count}</TableCell>
            <TableCell className="text-right tabular-nums">{member.pending_count}</TableCell>
            <TableCell className="text-right tabular-nums">{member.validated_count}</TableCell>
            <TableCell className="text-right tabular-nums">{member.refused_count}</TableCell>
            <TableCell className="text-right tabular-nums">{member.treatment_required_count}</TableCell>
            <TableCell className="text-right tabular-nums">{member.treated_count}</TableCell>
            <TableCell>
              {member.progress === null ? '-' : <ProgressBar value={member.progress} kind="progress" label={`Progression de ${member.full_name}`} />}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
