import { appPage } from '@/app/app-pages'
import { useLiveCampaigns } from '@/features/campaigns/api'
import { CampaignBurndown } from '@/features/campaigns/CampaignBurndown'
import { CampaignsPage } from '@/features/campaigns/CampaignsPage'

export function CampaignsRoute() {
  useLiveCampaigns()
  return (
    <>
      <CampaignsPage title={appPage('campaigns').title} />
      <CampaignBurndown />
    </>
  )
}
