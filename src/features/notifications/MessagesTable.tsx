import { Badge } from '@/components/ui/Badge'
import { cardTable, Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/dates'
import { attemptsText, KIND_LABELS, STATUS_LABELS, type MessageRow } from './model'

// Below 768 px each e-mail is a card (cardTable), each field on a line after its column's name: six columns and an
// SMTP error do not fit a phone, and a table scrolled sideways hides the status behind the address.
const labelled = cardTable.labelled
// A long text under its column's name rather than beside it: an SMTP error.
const stacked =
  'max-md:block max-md:px-0 max-md:py-1 max-md:before:block max-md:before:text-xs max-md:before:font-medium max-md:before:text-gray-600 max-md:before:content-[attr(data-label)]'

/** When the message went, or what happens to it next. */
function outcomeText(row: MessageRow): string {
  if (row.status === 'sent') return `le ${formatDateTime(row.sent_at)}`
  if (row.status === 'failed') return 'plus de nouvel essai'
  return `prochain essai le ${formatDateTime(row.next_attempt_at)}`
}

function MessageLine({ row }: { row: MessageRow }) {
  const status = STATUS_LABELS[row.status]
  return (
    <TableRow className={cardTable.row}>
      <TableCell className="max-md:block max-md:px-0 max-md:pb-2 max-md:pt-0">
        <p className="break-all font-medium text-gray-900">{row.recipient_email}</p>
        {row.recipient_name && <p className="text-xs text-gray-500">{row.recipient_name}</p>}
      </TableCell>
      <TableCell data-label="Message" className={labelled}>
        <span className="max-md:text-right">
          <span className="block">{KIND_LABELS[row.kind]}</span>
          {row.campaign_name && <span className="block text-xs text-gray-500">{row.campaign_name}</span>}
        </span>
      </TableCell>
      <TableCell data-label="Écrit le" className={cn(labelled, 'whitespace-nowrap')}>
        {formatDateTime(row.created_at)}
      </TableCell>
      <TableCell data-label="Statut" className={labelled}>
        <span className="max-md:text-right">
          <Badge tone={status.tone}>{status.label}</Badge>
          <span className="block text-xs text-gray-500">{outcomeText(row)}</span>
        </span>
      </TableCell>
      <TableCell data-label="Tentatives" className={cn(labelled, 'tabular-nums')}>
        {attemptsText(row.attempts)}
      </TableCell>
      <TableCell data-label="Dernière erreur" className={cn(row.last_error ? stacked : labelled, 'max-w-xs break-words max-md:max-w-none')}>
        {row.last_error ?? '-'}
      </TableCell>
    </TableRow>
  )
}

/** One page of e-mails, newest first: to whom, which, when, and how the sending went. */
export function MessagesTable({ rows, emptyMessage }: { rows: readonly MessageRow[]; emptyMessage: string }) {
  return (
    <Table caption="E-mails de Recertif" className={cardTable.table}>
      <TableHead className={cardTable.head}>
        <tr>
          <TableHeaderCell>Destinataire</TableHeaderCell>
          <TableHeaderCell>Message</TableHeaderCell>
          <TableHeaderCell>Écrit le</TableHeaderCell>
          <TableHeaderCell>Statut</TableHeaderCell>
          <TableHeaderCell>Tentatives</TableHeaderCell>
          <TableHeaderCell>Dernière erreur</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody className={cardTable.body}>
        {rows.length === 0 ? <TableEmptyRow colSpan={6} message={emptyMessage} /> : rows.map((row) => <MessageLine key={row.id} row={row} />)}
      </TableBody>
    </Table>
  )
}
