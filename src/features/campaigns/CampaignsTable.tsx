import { FileSpreadsheet, Pencil, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate } from '@/lib/dates'
import { countText } from '@/lib/plural'
import { EvidenceButton } from './EvidenceButton'
import { hasEvidencePack } from './evidence-model'
import {
  accountTypeScopeLabel,
  applicationScopeLabel,
  campaignStatusText,
  campaignStatusTone,
  isEditable,
  nextTransition,
  type Campaign,
} from './model'

export interface CampaignActions {
  onExport: (campaign: Campaign) => void
  onTransition: (campaign: Campaign) => void
  onEdit: (campaign: Campaign) => void
  onDelete: (campaign: Campaign) => void
}

/**
 * Excel for everyone; the next lifecycle step, Modifier/Supprimer on drafts and the evidence pack of a closed campaign
 * for administrators.
 */
function CampaignRowActions({ campaign, admin, onExport, onTransition, onEdit, onDelete }: { campaign: Campaign; admin: boolean } & CampaignActions) {
  const next = nextTransition(campaign.status)
  return (
    <div className="flex flex-wrap gap-1">
      <Button
        size="sm"
        variant="outline"
        leftIcon={<FileSpreadsheet aria-hidden="true" className="h-4 w-4" />}
        aria-label={`Export Excel de ${campaign.name}`}
        onClick={() => onExport(campaign)}
      >
        Excel
      </Button>
      {admin && hasEvidencePack(campaign.status) && <EvidenceButton campaign={campaign} />}
      {admin && next && (
        <Button
          size="sm"
          variant={next.action === 'start' ? 'success' : next.action === 'complete' ? 'warning' : 'secondary'}
          aria-label={`${next.label} ${campaign.name}`}
          onClick={() => onTransition(campaign)}
        >
          {next.label}
        </Button>
      )}
      {admin && isEditable(campaign) && (
        <>
          <Button
            size="sm"
            variant="ghost"
            leftIcon={<Pencil aria-hidden="true" className="h-4 w-4" />}
            aria-label={`Modifier ${campaign.name}`}
            onClick={() => onEdit(campaign)}
          >
            Modifier
          </Button>
          <Button
            size="sm"
            variant="ghost"
            className="text-red-700"
            leftIcon={<Trash2 aria-hidden="true" className="h-4 w-4" />}
            aria-label={`Supprimer ${campaign.name}`}
            onClick={() => onDelete(campaign)}
          >
            Supprimer
          </Button>
        </>
      )}
    </div>
  )
}

interface CampaignsTableProps extends CampaignActions {
  campaigns: Campaign[]
  admin: boolean
  /** The campaign a link points to: its row is highlighted. */
  linkedId: string | null
}

export function CampaignsTable({ campaigns, admin, linkedId, ...actions }: CampaignsTableProps) {
  return (
    <Table caption="Campagnes">
      <TableHead>
        <tr>
          <TableHeaderCell>Nom</TableHeaderCell>
          <TableHeaderCell>Application</TableHeaderCell>
          <TableHeaderCell>Type de compte</TableHeaderCell>
          <TableHeaderCell>Début</TableHeaderCell>
          <TableHeaderCell>Fin</TableHeaderCell>
          <TableHeaderCell>Statut</TableHeaderCell>
          <TableHeaderCell>Progression</TableHeaderCell>
          <TableHeaderCell>Actions</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {campaigns.length === 0 && <TableEmptyRow colSpan={8} message="Aucune campagne." />}
        {campaigns.map((campaign) => (
          <TableRow
            key={campaign.id}
            data-campaign-id={campaign.id}
            aria-current={campaign.id === linkedId ? 'true' : undefined}
            className={campaign.id === linkedId ? 'bg-primary-50' : undefined}
          >
            <TableCell>
              <p className="font-medium text-gray-900">{campaign.name}</p>
              {campaign.description && <p className="text-xs text-gray-500">{campaign.description}</p>}
            </TableCell>
            <TableCell>{applicationScopeLabel(campaign)}</TableCell>
            <TableCell>{accountTypeScopeLabel(campaign)}</TableCell>
            <TableCell className="whitespace-nowrap">{formatDate(campaign.startDate)}</TableCell>
            <TableCell className="whitespace-nowrap">{formatDate(campaign.endDate)}</TableCell>
            <TableCell>
              <Badge tone={campaignStatusTone(campaign.status)}>{campaignStatusText(campaign.status)}</Badge>
            </TableCell>
            <TableCell className="min-w-[140px]">
              <ProgressBar kind="progress" value={campaign.progress ?? 0} label={`Progression de ${campaign.name}`} />
              <p className="mt-1 text-xs text-gray-500">{countText(campaign.rightsCount, 'droit', 'droits')}</p>
            </TableCell>
            <TableCell>
              <CampaignRowActions campaign={campaign} admin={admin} {...actions} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  )
}
