import { useId, useState } from 'react'
import { ChevronLeft, ChevronRight } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/dates'
import { actionLabel, auditUserLabel, detailsText, ipText, pageRangeText, type AuditEvent } from './model'
import { auditStory, changeText, resourceTypeLabel, type AuditNames } from './sentence'

/** The raw JSON for whoever needs it, folded by default: the sentence says the same for people. */
function DetailsToggle({ details }: { details: unknown }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  return (
    <div>
      <Button size="sm" variant="ghost" aria-expanded={open} aria-controls={id} onClick={() => setOpen((current) => !current)}>
        Détails (JSON)
      </Button>
      <pre id={id} hidden={!open} className="mt-1 max-h-40 max-w-md overflow-auto whitespace-pre-wrap break-all rounded bg-gray-50 p-2 text-xs">
        {detailsText(details)}
      </pre>
    </div>
  )
}

/**
 * On a phone, the date and the event's sentence, which names who did what: the other columns (the action, the
 * resource, its id, the JSON, the IP) come back from md up, and all of them are in the CSV.
 */
const WIDE_ONLY = 'max-md:hidden'

function AuditRow({ event, names }: { event: AuditEvent; names: AuditNames }) {
  const story = auditStory(event, names)
  return (
    <TableRow>
      <TableCell className="min-w-24 max-md:pr-0 max-md:text-xs md:min-w-28">{formatDateTime(event.timestamp)}</TableCell>
      <TableCell className={WIDE_ONLY}>
        <p>{auditUserLabel(event)}</p>
        {event.user_email && event.user_name && <p className="text-xs text-gray-500">{event.user_email}</p>}
      </TableCell>
      <TableCell className={WIDE_ONLY}>{actionLabel(event.action)}</TableCell>
      <TableCell className="max-w-md md:min-w-64">
        <p>{story.sentence}</p>
        {(story.changes.length > 0 || story.facts) && (
          <ul className="mt-1 text-xs text-gray-600">
            {story.changes.map((change) => (
              <li key={change.label}>{changeText(change)}</li>
            ))}
            {story.facts?.map((fact) => (
              <li key={fact}>{fact}</li>
            ))}
          </ul>
        )}
      </TableCell>
      <TableCell className={WIDE_ONLY}>{resourceTypeLabel(event.resource_type)}</TableCell>
      <TableCell className={cn(WIDE_ONLY, 'max-w-40 break-all font-mono text-xs')}>{event.resource_id ?? '-'}</TableCell>
      <TableCell className={WIDE_ONLY}>
        <DetailsToggle details={event.details} />
      </TableCell>
      <TableCell className={WIDE_ONLY}>{ipText(event.ip_address)}</TableCell>
    </TableRow>
  )
}

interface AuditTableProps {
  rows: AuditEvent[]
  names: AuditNames
  /** Still reading the page asked for: the rows shown are the previous page's. */
  fetching: boolean
  page: number
  pages: number
  /** Undefined while the server counts. */
  total: number | undefined
  canGoNext: boolean
  onPrevious: () => void
  onNext: () => void
}

/** One page of events and the pagination under it. */
export function AuditTable({ rows, names, fetching, page, pages, total, canGoNext, onPrevious, onNext }: AuditTableProps) {
  return (
    <Card aria-busy={fetching || undefined}>
      <Table caption="Journal d'audit">
        <TableHead>
          <tr>
            <TableHeaderCell className="max-md:pr-0">Date</TableHeaderCell>
            <TableHeaderCell className={WIDE_ONLY}>Utilisateur</TableHeaderCell>
            <TableHeaderCell className={WIDE_ONLY}>Action</TableHeaderCell>
            <TableHeaderCell>Événement</TableHeaderCell>
            <TableHeaderCell className={WIDE_ONLY}>Type de ressource</TableHeaderCell>
            <TableHeaderCell className={WIDE_ONLY}>Identifiant</TableHeaderCell>
            <TableHeaderCell className={WIDE_ONLY}>Détails</TableHeaderCell>
            <TableHeaderCell className={WIDE_ONLY}>Adresse IP</TableHeaderCell>
          </tr>
        </TableHead>
        <TableBody>
          {rows.length === 0 ? (
            <TableEmptyRow colSpan={8} message="Aucun événement ne correspond aux filtres." />
          ) : (
            rows.map((event) => <AuditRow key={event.id} event={event} names={names} />)
          )}
        </TableBody>
      </Table>
      <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-2 border-t border-gray-100 px-4 py-3">
        <span className="text-sm text-gray-600">
          {total === undefined ? '' : pageRangeText(page, rows.length, total)} · Page {page + 1} sur {pages}
        </span>
        <div className="flex gap-2">
          <Button size="sm" variant="outline" leftIcon={<ChevronLeft aria-hidden="true" className="h-4 w-4" />} disabled={page === 0} onClick={onPrevious}>
            Précédent
          </Button>
          <Button size="sm" variant="outline" rightIcon={<ChevronRight aria-hidden="true" className="h-4 w-4" />} disabled={!canGoNext} onClick={onNext}>
            Suivant
          </Button>
        </div>
      </nav>
    </Card>
  )
}
