import { Plus, Upload } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { totalText } from '@/lib/paging'
import { CampaignDialogs } from './CampaignDialogs'
import { CampaignsTable } from './CampaignsTable'
import { useCampaignsPageState, useLinkedRowScroll } from './useCampaignsPageState'

export function CampaignsPage({ title }: { title: string }) {
  const state = useCampaignsPageState()
  const { admin, campaigns, open } = state
  const listRef = useLinkedRowScroll(state.linkedId, state.linkedShown)

  return (
    <>
      <PageHeader
        title={title}
        description="Campagnes de revue des droits d'accès"
        actions={
          admin ? (
            <>
              <Button variant="outline" leftIcon={<Upload aria-hidden="true" className="h-4 w-4" />} onClick={() => open({ kind: 'import' })}>
                Import CSV
              </Button>
              <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={() => state.openForm(null)}>
                Nouvelle campagne
              </Button>
            </>
          ) : undefined
        }
      />
      {state.linkMissing && <ErrorBox message="La campagne demandée est introuvable : elle a peut-être été supprimée." className="mb-4" />}
      {campaigns.data && <p className="mb-2 text-sm text-gray-600">{totalText(campaigns.data.length, 'campagne', 'campagnes')}</p>}
      <Card>
        <div ref={listRef}>
          {campaigns.isPending ? (
            <Spinner className="py-10" />
          ) : campaigns.error ? (
            <ErrorBox message={campaigns.error.message} className="m-4" />
          ) : (
            <CampaignsTable
              campaigns={campaigns.data}
              admin={admin}
              linkedId={state.linkedId}
              onExport={state.openExport}
              onTransition={(campaign) => open({ kind: 'transition', campaign })}
              onEdit={state.openForm}
              onDelete={(campaign) => open({ kind: 'delete', campaign })}
            />
          )}
        </div>
      </Card>
      <CampaignDialogs state={state} />
    </>
  )
}
