import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { formatDate } from '@/lib/dates'
import { countText } from '@/domain/plural'
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
          details={transition.action === 'start' ? <StartFigures campaignId={dialog.campaign.id} endDate={dialog.campaign.endDate} /> : undefined}
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

/** The local calendar day, as the campaigns' dates are written (yyyy-MM-dd). */
function localDay(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/**
 * How many rights Démarrer takes, and how many it leaves with the RA because their refusal is not yet treated; and,
 * before it is too late, a warning when the campaign would start empty or already past its end date.
 */
function StartFigures({ campaignId, endDate, now = new Date() }: { campaignId: string; endDate: string; now?: Date }) {
  const { data, error } = useStartPreview(campaignId)
  if (error) return <p className="mt-3 text-sm text-red-700">{error.message}</p>
  if (!data) return <p className="mt-3 text-sm text-gray-500">Calcul du périmètre…</p>
  const late = endDate < localDay(now)
  return (
    <>
      <ul className="mt-3 space-y-1 text-sm text-gray-700" aria-label="Périmètre du démarrage">
        <li>{countText(data.rightsToAttach, 'droit sera rattaché', 'droits seront rattachés')} à la campagne.</li>
        {data.rightsLeftWithRa > 0 && (
          <li>
            {countText(data.rightsLeftWithRa, "droit en attente de traitement par le RA ne sera pas repris", "droits en attente de traitement par le RA ne seront pas repris")} :
            refusés ou non décidés à la clôture d'une campagne précédente, ils restent dans la file du RA jusqu'à leur traitement.
          </li>
        )}
      </ul>
      {(data.rightsToAttach === 0 || late) && (
        <ul className="mt-3 space-y-1 rounded-md border border-orange-200 bg-orange-50 p-3 text-sm text-orange-900" aria-label="Avertissements">
          {data.rightsToAttach === 0 && (
            <li>Aucun droit n'entre dans son périmètre : la campagne démarrerait vide. Importez des droits ou élargissez son périmètre avant de la démarrer.</li>
          )}
          {late && (
            <li>
              Sa date de fin ({formatDate(endDate)}) est passée : la campagne serait en retard dès son démarrage. Modifiez-la avant de la démarrer.
            </li>
          )}
        </ul>
      )}
    </>
  )
}
