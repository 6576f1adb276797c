import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { countText } from '@/lib/plural'
import { useStartPreview } from './api/start-preview'
import { CampaignFormDialog } from './CampaignFormDialog'
import { ExportDialog } from './ExportDialog'
import { ImportDialog } from './import/ImportDialog'
import { deleteConfirmation, nextTransition, TRANSITION_CONFIRMATIONS } from './model'
import type { useCampaignsPageState } from './useCampaignsPageState'

/** The campaigns page's one open dialog; those that change campaigns only ever open for an administrator. */
export function CampaignDialogs({ state }: { state: ReturnType<typeof useCampaignsPageState> }) {
  const { admin, dialog, close, setStatus, remove } = state
  const transition = dialog?.kind === 'transition' ? nextTransition(dialog.campaign.status) : null
  return (
    <>
      {admin && dialog?.kind === 'import' && <ImportDialog onClose={close} />}
      {admin && dialog?.kind === 'form' && <CampaignFormDialog key={state.formKey} onClose={close} campaign={dialog.campaign} />}
      <ExportDialog campaign={dialog?.kind === 'export' ? state.current(dialog.campaign) : null} onClose={close} />
      {admin && dialog?.kind === 'transition' && transition && (
        <ConfirmDialog
          open
          title={`${transition.label} la campagne`}
          message={TRANSITION_CONFIRMATIONS[transition.action](dialog.campaign.name)}
          details={transition.action === 'start' ? <StartFigures campaignId={dialog.campaign.id} /> : undefined}
          confirmLabel={transition.label}
          pending={setStatus.isPending}
          error={setStatus.error?.message}
          onClose={close}
          onConfirm={() => setStatus.mutate({ id: dialog.campaign.id, status: transition.to }, { onSuccess: close })}
        />
      )}
      {admin && dialog?.kind === 'delete' && (
        <ConfirmDialog
          open
          title="Supprimer la campagne"
          message={deleteConfirmation(dialog.campaign.name)}
          confirmLabel="Supprimer"
          variant="danger"
          pending={remove.isPending}
          error={remove.error?.message}
          onClose={close}
          onConfirm={() => remove.mutate(dialog.campaign.id, { onSuccess: close })}
        />
      )}
    </>
  )
}

/** How many rights Démarrer takes, and how many it leaves with the RA because their refusal is not yet treated. */
function StartFigures({ campaignId }: { campaignId: string }) {
  const { data, error } = useStartPreview(campaignId)
  if (error) return <p className="mt-3 text-sm text-red-700">{error.message}</p>
  if (!data) return <p className="mt-3 text-sm text-gray-500">Calcul du périmètre…</p>
  return (
    <ul className="mt-3 space-y-1 text-sm text-gray-700" aria-label="Périmètre du démarrage">
      <li>{countText(data.rightsToAttach, 'droit sera rattaché', 'droits seront rattachés')} à la campagne.</li>
      {data.rightsLeftWithRa > 0 && (
        <li>
          {countText(data.rightsLeftWithRa, "droit en attente de traitement par le RA ne sera pas repris", "droits en attente de traitement par le RA ne seront pas repris")} :
          refusés ou non décidés à la clôture d'une campagne précédente, ils restent dans la file du RA jusqu'à leur traitement.
        </li>
      )}
    </ul>
  )
}
