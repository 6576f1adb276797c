import { lazy, Suspense, useState } from 'react'
import { appPage } from '@/app/app-pages'
import { useCampaigns, useLiveCampaigns } from '@/features/campaigns/api'
import { CAMPAIGN_LINK_PARAM } from '@/features/campaigns/model'
import { useLiveAdminDashboard } from '@/features/dashboards/api'
import { AdminDashboard } from '@/features/dashboards/components/AdminDashboard'

// The two dialogs load when opened: with their date and file fields and the CSV reader, they would add about 15 KB
// gzip to the first page an administrator sees (budget 200 KB, docs/performance.md).
const CampaignFormDialog = lazy(() => import('@/features/campaigns/CampaignFormDialog').then((m) => ({ default: m.CampaignFormDialog })))
const ImportDialog = lazy(() => import('@/features/campaigns/import/ImportDialog').then((m) => ({ default: m.ImportDialog })))

const campaignHref = (campaignId: string) => `/app/campaigns?${CAMPAIGN_LINK_PARAM}=${campaignId}`

/** The admin's figures from the dashboards feature; the campaigns, Import CSV and Nouvelle campagne from the campaigns feature. */
export function AdminDashboardRoute() {
  useLiveCampaigns()
  useLiveAdminDashboard()
  const campaigns = useCampaigns()
  const [dialog, setDialog] = useState<'create' | 'import' | null>(null)
  // A new key each time, so that Nouvelle campagne always opens on an empty form.
  const [formKey, setFormKey] = useState(0)
  return (
    <>
      <AdminDashboard
        title={appPage('dashboard').title}
        campaigns={campaigns}
        campaignHref={campaignHref}
        onImport={() => setDialog('import')}
        onCreateCampaign={() => {
          setFormKey((key) => key + 1)
          setDialog('create')
        }}
      />
      <Suspense fallback={null}>
        {dialog === 'create' && <CampaignFormDialog key={formKey} onClose={() => setDialog(null)} />}
        {dialog === 'import' && <ImportDialog onClose={() => setDialog(null)} />}
      </Suspense>
    </>
  )
}
