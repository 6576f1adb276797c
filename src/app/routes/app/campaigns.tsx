import { appPage } from '@/app/app-pages'
import { CampaignsPage } from '@/features/campaigns/CampaignsPage'

export function CampaignsRoute() {
  return <CampaignsPage title={appPage('campaigns').title} />
}
