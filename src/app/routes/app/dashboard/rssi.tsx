import { appPage } from '@/app/app-pages'
import { RssiDashboard } from '@/features/dashboards/components/RssiDashboard'
import { useApplicationOptions } from '@/features/rights/api'

export function RssiDashboardRoute() {
  const applications = useApplicationOptions()
  return <RssiDashboard title={appPage('dashboard').title} applications={applications.data ?? []} />
}
