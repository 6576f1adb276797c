import type { ReactNode } from 'react'
import { Archive, BellRing, FileSpreadsheet, Pencil, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Menu, type MenuItem } from '@/components/ui/Menu'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { frenchDateText } from '@/components/ui/DateInput'
import { cardTable, Table, TableBody, TableEmptyRow, TableHead, TableRow } from '@/components/ui/Table'
import { cn } from '@/lib/cn'
import { campaignFigureLines, SENT_TO_RA } from '@/domain/campaign-figures'
import { EvidenceButton } from './EvidenceButton'
import { useReviewersMenuItem } from './ReassignDialog'
import { hasEvidencePack } from './evidence-model'
import { remindersShortText, remindersSummary } from './reminders-model'
import {
  accountTypeScopeLabel,
  applicationScopeLabel,
  campaignStatusText,
  campaignStatusTone,
  hasEditableSettings,
  isEditable,
  nextTransition,
  recurrenceLines,
  type Campaign,
} from './model'

export interface CampaignActions {
  onExport: (campaign: Campaign) => void
  onTransition: (campaign: Campaign) => void
  onEdit: (campaign: Campaign) => void
  onDelete: (campaign: Campaign) => void
}

const icon = 'h-4 w-4'

/**
 * One action in view per row, the one the campaign's state calls for, and the others in a menu: for administrators the
 * next lifecycle step (Démarrer a draft, Terminer a running campaign), then a closed campaign's evidence pack; for
 * everyone else the Excel export, their only action.
 */
function CampaignRowActions({ campaign, admin, onExport, onTransition, onEdit, onDelete }: { campaign: Campaign; admin: boolean } & CampaignActions) {
  const next = nextTransition(campaign.status)
  const reviewers = useReviewersMenuItem(campaign)
  const exportButton = (
    <Button
      size="sm"
      variant="outline"
      leftIcon={<FileSpreadsheet aria-hidden="true" className={icon} />}
      aria-label={`Export Excel de ${campaign.name}`}
      onClick={() => onExport(campaign)}
    >
      Excel
    </Button>
  )
  if (!admin) return exportButton

  // The evidence pack stays a button in view: it shows its progress and its errors under itself while it is built.
  const evidence = hasEvidencePack(campaign.status)
  const primaryTransition = next && next.action !== 'archive' ? next : null
  const others: MenuItem[] = [{ label: 'Export Excel', icon: <FileSpreadsheet aria-hidden="true" className={icon} />, onSelect: () => onExport(campaign) }]
  others.push(reviewers.item)
  if (next?.action === 'archive') others.push({ label: next.label, icon: <Archive aria-hidden="true" className={icon} />, onSelect: () => onTransition(campaign) })
  if (isEditable(campaign)) {
    others.push(
      { label: 'Modifier', icon: <Pencil aria-hidden="true" className={icon} />, onSelect: () => onEdit(campaign) },
      { label: 'Supprimer', icon: <Trash2 aria-hidden="true" className={icon} />, danger: true, onSelect: () => onDelete(campaign) },
    )
  }
  if (hasEditableSettings(campaign)) {
    others.push({ label: 'E-mails et rappels', icon: <BellRing aria-hidden="true" className={icon} />, onSelect: () => onEdit(campaign) })
  }

  return (
    <div className="flex items-start gap-2">
      {primaryTransition ? (
        <Button
          size="sm"
          variant={primaryTransition.action === 'start' ? 'success' : 'warning'}
          aria-label={`${primaryTransition.label} ${campaign.name}`}
          onClick={() => onTransition(campaign)}
        >
          {primaryTransition.label}
        </Button>
      ) : (
        evidence && <EvidenceButton campaign={campaign} />
      )}
      <Menu label={`Autres actions pour ${campaign.name}`} items={others} />
      {reviewers.dialog}
    </div>
  )
}

// Below the md breakpoint each row is a card: the cells stack, each led by its column's name. Above it, cells are a
// little narrower than the shared table's so that the eight columns fit beside the menu at 1440 px.
const cell = 'px-3 py-3 text-gray-800 max-md:px-0'
const cardCell = cardTable.labelled

function Cell({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <td data-label={label} className={cn(cell, cardCell, className)}>
      {children}
    </td>
  )
}

interface CampaignsTableProps extends CampaignActions {
  campaigns: Campaign[]
  admin: boolean
  /** The campaign a link points to: its row is highlighted. */
  linkedId: string | null
  /** The header row, whose cells sort the list. */
  header: ReactNode
  emptyMessage: string
  /** The day a recurring campaign's next occurrence is counted from. */
  today?: Date
}

export function CampaignsTable({ campaigns, admin, linkedId, header, emptyMessage, today = new Date(), ...actions }: CampaignsTableProps) {
  return (
    <Table caption="Campagnes" className={cardTable.table}>
      <TableHead className={cardTable.head}>{header}</TableHead>
      <TableBody className={cardTable.body}>
        {campaigns.length === 0 && <TableEmptyRow colSpan={7} message={emptyMessage} />}
        {campaigns.map((campaign) => (
          <TableRow
            key={campaign.id}
            data-campaign-id={campaign.id}
            aria-current={campaign.id === linkedId ? 'true' : undefined}
            className={cn(
              cardTable.row,
              campaign.id === linkedId && 'bg-primary-50 max-md:bg-primary-50',
            )}
          >
            <td className={cn(cell, 'min-w-44 max-w-64 max-md:block max-md:max-w-none max-md:pb-2 max-md:pt-0')}>
              <p className="font-medium text-gray-900">{campaign.name}</p>
              <CampaignSubtitle campaign={campaign} today={today} />
            </td>
            <Cell label="Application" className="min-w-32">
              {applicationScopeLabel(campaign)}
            </Cell>
            <Cell label="Type de compte">{accountTypeScopeLabel(campaign)}</Cell>
            {/* Start and end stacked in one column, as jj/mm/aaaa: two columns of long French dates pushed the actions off the row. */}
            <Cell label="Période" className="whitespace-nowrap">
              <span className="flex flex-col max-md:items-end">
                <span>
                  <span className="sr-only">Début : </span>
                  {frenchDateText(campaign.startDate)}
                </span>
                <span className="text-gray-500">
                  <span className="sr-only">Fin : </span>
                  {frenchDateText(campaign.endDate)}
                </span>
                <RemindersLine campaign={campaign} />
              </span>
            </Cell>
            <Cell label="Statut" className="whitespace-nowrap">
              <Badge tone={campaignStatusTone(campaign.status)}>{campaignStatusText(campaign.status)}</Badge>
            </Cell>
            <td className={cn(cell, 'min-w-24 max-md:block max-md:py-2')}>
              <ProgressBar kind="progress" value={campaign.progress ?? 0} label={`Progression de ${campaign.name}`} />
              <CampaignFigures campaign={campaign} />
            </td>
            <td className={cn(cell, 'whitespace-nowrap max-md:block max-md:pb-0 max-md:pt-2')}>
              <CampaignRowActions campaign={campaign} admin={admin} {...actions} />
            </td>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}

/**
 * The figures under the bar, a line each and never wrapped, so that a closed campaign's row stays two lines high: where
 * the undecided items went is said to screen readers and in the tooltip, the table having no room for it.
 */
function CampaignFigures({ campaign }: { campaign: Campaign }) {
  return campaignFigureLines(campaign).map((line) => {
    const [shown, hidden] = line.endsWith(SENT_TO_RA) ? [line.slice(0, -SENT_TO_RA.length), SENT_TO_RA] : [line, '']
    return (
      <p key={line} title={hidden ? line : undefined} className="mt-0.5 whitespace-nowrap text-xs leading-4 text-gray-500">
        {shown}
        {hidden && <span className="sr-only">{hidden}</span>}
      </p>
    )
  })
}

/**
 * The line under a campaign's name, one line whatever its length so that the row keeps its height: how often a
 * recurring campaign comes back and its next occurrence, then its description; the whole text in its tooltip.
 */
function CampaignSubtitle({ campaign, today }: { campaign: Campaign; today: Date }) {
  const recurrence = recurrenceLines(campaign, today)
  const shown = [recurrence && `${recurrence.label} · ${recurrence.next}`, campaign.description].filter(Boolean).join(' — ')
  if (!shown) return null
  const full = [recurrence?.sentence, campaign.description].filter(Boolean).join(' — ')
  return (
    <p className="line-clamp-1 text-xs text-gray-500" title={full}>
      {shown}
    </p>
  )
}

/**
 * A campaign's reminder days while it may still send them, in a line as wide as the dates above it (it never widens
 * the column: the table fits at 1440 px), cut with an ellipsis; the sentence with the escalation in its tooltip.
 */
function RemindersLine({ campaign }: { campaign: Campaign }) {
  if (campaign.status === 'completed' || campaign.status === 'archived' || !campaign.notificationsEnabled) return null
  const summary = remindersSummary(campaign)
  return (
    <span className="mt-0.5 block w-0 min-w-full truncate text-xs text-gray-500" title={summary}>
      <span aria-hidden="true">{remindersShortText(campaign)}</span>
      <span className="sr-only">{summary}</span>
    </span>
  )
}
