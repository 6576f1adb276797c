import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { FileSpreadsheet, Pencil, Plus, Trash2, Upload } from 'lucide-react'
import { useCurrentUser } from '@/auth/auth-context'
import { isAdministrator } from '@/auth/roles'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate } from '@/lib/dates'
import { useCampaigns, useDeleteCampaign, useSetCampaignStatus } from './api'
import { CampaignFormDialog } from './CampaignFormDialog'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { ExportDialog } from './ExportDialog'
import { ImportDialog } from './import/ImportDialog'
import {
  CAMPAIGN_LINK_PARAM,
  TRANSITION_CONFIRMATIONS,
  accountTypeScopeLabel,
  applicationScopeLabel,
  campaignStatusText,
  campaignStatusTone,
  deleteConfirmation,
  isEditable,
  nextTransition,
  type Campaign,
} from './model'

type Pending =
  | { kind: 'form'; campaign: Campaign | null }
  | { kind: 'transition'; campaign: Campaign }
  | { kind: 'delete'; campaign: Campaign }
  | { kind: 'export'; campaign: Campaign }
  | { kind: 'import' }
  | null

/** What a link to a campaign opens: its form for a draft an administrator may edit, otherwise its export. */
function linkedDialog(campaign: Campaign, admin: boolean): Pending {
  return admin && isEditable(campaign) ? { kind: 'form', campaign } : { kind: 'export', campaign }
}

export function CampaignsPage({ title }: { title: string }) {
  const user = useCurrentUser()
  const admin = isAdministrator(user)
  const campaigns = useCampaigns()
  const setStatus = useSetCampaignStatus()
  const remove = useDeleteCampaign()
  const [chosen, setChosen] = useState<Pending>(null)
  const [formKey, setFormKey] = useState(0)
  const [searchParams] = useSearchParams()
  const linkedId = searchParams.get(CAMPAIGN_LINK_PARAM)
  // The linked campaign's dialog opens once; closing it leaves the row highlighted and the link as it was.
  const [dismissedLink, setDismissedLink] = useState<string | null>(null)
  const linked = linkedId ? (campaigns.data?.find((campaign) => campaign.id === linkedId) ?? null) : null
  const pending = chosen ?? (linked && linkedId !== dismissedLink ? linkedDialog(linked, admin) : null)
  const listRef = useRef<HTMLDivElement>(null)
  const linkedShown = linked !== null

  useEffect(() => {
    if (linkedShown) listRef.current?.querySelector('[aria-current="true"]')?.scrollIntoView?.({ block: 'center' })
  }, [linkedId, linkedShown])

  const close = () => {
    setStatus.reset()
    remove.reset()
    setChosen(null)
    setDismissedLink(linkedId)
  }
  const openForm = (campaign: Campaign | null) => {
    setFormKey((key) => key + 1)
    setChosen({ kind: 'form', campaign })
  }

  const transition = pending?.kind === 'transition' ? nextTransition(pending.campaign.status) : null
  // A dialog shows the campaign as the list has it now, so that live changes reach its counts.
  const current = (campaign: Campaign) => campaigns.data?.find((candidate) => candidate.id === campaign.id)

  return (
    <>
      <PageHeader
        title={title}
        description="Campagnes de revue des droits d'accès"
        actions={
          admin ? (
            <>
              <Button variant="outline" leftIcon={<Upload aria-hidden="true" className="h-4 w-4" />} onClick={() => setChosen({ kind: 'import' })}>
                Import CSV
              </Button>
              <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={() => openForm(null)}>
                Nouvelle campagne
              </Button>
            </>
          ) : undefined
        }
      />
      {linkedId && campaigns.data && !linked && (
        <ErrorBox message="La campagne demandée est introuvable : elle a peut-être été supprimée." className="mb-4" />
      )}
      <Card>
        <div ref={listRef}>
          {campaigns.isPending ? (
            <Spinner className="py-10" />
          ) : campaigns.error ? (
            <ErrorBox message={campaigns.error.message} className="m-4" />
          ) : (
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
                {campaigns.data.length === 0 && <TableEmptyRow colSpan={8} message="Aucune campagne." />}
                {campaigns.data.map((campaign) => {
                  const next = nextTransition(campaign.status)
                  return (
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
                        <p className="mt-1 text-xs text-gray-500">{`${campaign.rightsCount} droit(s)`}</p>
                      </TableCell>
                      <TableCell>
                        <div className="flex flex-wrap gap-1">
                          <Button
                            size="sm"
                            variant="outline"
                            leftIcon={<FileSpreadsheet aria-hidden="true" className="h-4 w-4" />}
                            aria-label={`Export Excel de ${campaign.name}`}
                            onClick={() => {
                              // The counts decide which files can be exported: take them as they are now.
                              void campaigns.refetch()
                              setChosen({ kind: 'export', campaign })
                            }}
                          >
                            Excel
                          </Button>
                          {admin && next && (
                            <Button
                              size="sm"
                              variant={next.action === 'start' ? 'success' : next.action === 'complete' ? 'warning' : 'secondary'}
                              aria-label={`${next.label} ${campaign.name}`}
                              onClick={() => setChosen({ kind: 'transition', campaign })}
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
                                onClick={() => openForm(campaign)}
                              >
                                Modifier
                              </Button>
                              <Button
                                size="sm"
                                variant="ghost"
                                className="text-red-700"
                                leftIcon={<Trash2 aria-hidden="true" className="h-4 w-4" />}
                                aria-label={`Supprimer ${campaign.name}`}
                                onClick={() => setChosen({ kind: 'delete', campaign })}
                              >
                                Supprimer
                              </Button>
                            </>
                          )}
                        </div>
                      </TableCell>
                    </TableRow>
                  )
                })}
              </TableBody>
            </Table>
          )}
        </div>
      </Card>

      {admin && pending?.kind === 'import' && <ImportDialog onClose={close} />}
      {admin && pending?.kind === 'form' && (
        <CampaignFormDialog key={formKey} onClose={close} campaign={pending.campaign} />
      )}
      <ExportDialog campaign={pending?.kind === 'export' ? (current(pending.campaign) ?? pending.campaign) : null} onClose={close} />
      {admin && pending?.kind === 'transition' && transition && (
        <ConfirmDialog
          open
          title={`${transition.label} la campagne`}
          message={TRANSITION_CONFIRMATIONS[transition.action](pending.campaign.name)}
          confirmLabel={transition.label}
          pending={setStatus.isPending}
          error={setStatus.error?.message}
          onClose={close}
          onConfirm={() => setStatus.mutate({ id: pending.campaign.id, status: transition.to }, { onSuccess: close })}
        />
      )}
      {admin && pending?.kind === 'delete' && (
        <ConfirmDialog
          open
          title="Supprimer la campagne"
          message={deleteConfirmation(pending.campaign.name)}
          confirmLabel="Supprimer"
          variant="danger"
          pending={remove.isPending}
          error={remove.error?.message}
          onClose={close}
          onConfirm={() => remove.mutate(pending.campaign.id, { onSuccess: close })}
        />
      )}
    </>
  )
}
