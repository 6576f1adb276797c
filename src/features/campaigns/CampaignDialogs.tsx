import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
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
