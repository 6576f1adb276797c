import { appPage } from '@/app/app-pages'
import { CompliancePage } from '@/features/compliance/CompliancePage'

export function ComplianceRoute() {
  return <CompliancePage title={appPage('compliance').title} />
}
