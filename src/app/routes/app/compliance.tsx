import { appPage } from '@/app/app-pages'
import { CompliancePage } from '@/features/compliance/CompliancePage'
import { useApplicationOptions } from '@/features/rights/api'

export function ComplianceRoute() {
  const applications = useApplicationOptions()
  return <CompliancePage title={appPage('compliance').title} applications={applications.data ?? []} />
}
