import type { ReactNode } from 'react'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { cardTable, Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { cn } from '@/lib/cn'
import { positionText, type TeamMember } from '../model'

// Below 768 px each member is a card (cardTable), each figure on a line of its own after its column's name: nine columns
// do not fit a phone, and a table scrolled sideways hides the figures behind the names.
const cardCell = cardTable.labelled

function FigureCell({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <TableCell data-label={label} className={cn(cardCell, className)}>
      {children}
    </TableCell>
  )
}

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
    <Table caption={caption} className={cardTable.table}>
      <TableHead className={cardTable.head}>
        <tr>
          <TableHeaderCell>Collaborateur</TableHeaderCell>
          <TableHeaderCell>Poste</TableHeaderCell>
          <TableHeaderCell className="text-right">Droits</TableHeaderCell>
          <TableHeaderCell className="text-right">En attente</TableHeaderCell>
          <TableHeaderCell className="text-right">Validés</TableHeaderCell>
          <TableHeaderCell className="text-right">Refusés</TableHeaderCell>
          <TableHeaderCell className="text-right">En traitement</TableHeaderCell>
          <TableHeaderCell className="text-right">Traités</TableHeaderCell>
          <TableHeaderCell className="w-48 whitespace-nowrap">Progression %</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody className={cardTable.body}>
        {members.length === 0 && <TableEmptyRow colSpan={9} message="Aucun collaborateur dans votre équipe." />}
        {members.map((member) => (
          <TableRow
            key={member.user_id}
            className={cardTable.row}
          >
            <TableCell className="max-md:block max-md:px-0 max-md:pb-2 max-md:pt-0">
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
            <FigureCell label="Poste" className="min-w-32">
              {positionText(member.position)}
            </FigureCell>
            <FigureCell label="Droits" className="text-right tabular-nums">
              {member.rights_count}
            </FigureCell>
            <FigureCell label="En attente" className="text-right tabular-nums">
              {member.pending_count}
            </FigureCell>
            <FigureCell label="Validés" className="text-right tabular-nums">
              {member.validated_count}
            </FigureCell>
            <FigureCell label="Refusés" className="text-right tabular-nums">
              {member.refused_count}
            </FigureCell>
            <FigureCell label="En traitement" className="text-right tabular-nums">
              {member.treatment_required_count}
            </FigureCell>
            <FigureCell label="Traités" className="text-right tabular-nums">
              {member.treated_count}
            </FigureCell>
            <FigureCell label="Progression">
              {member.progress === null ? (
                '-'
              ) : (
                <span className="block max-md:w-40">
                  <ProgressBar value={member.progress} kind="progress" label={`Progression de ${member.full_name}`} />
                </span>
              )}
            </FigureCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
