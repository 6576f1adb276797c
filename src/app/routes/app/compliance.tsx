import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'

export function ComplianceRoute() {
  return <PageHeader title={appPage('compliance').title} />
}
