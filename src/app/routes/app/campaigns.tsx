import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'

export function CampaignsRoute() {
  return <PageHeader title={appPage('campaigns').title} />
}
