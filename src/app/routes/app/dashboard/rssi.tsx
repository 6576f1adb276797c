import { appPage } from '@/app/app-pages'
import { RssiDashboard } from '@/features/compliance/RssiDashboard'

export function RssiDashboardRoute() {
  return <RssiDashboard title={appPage('dashboard').title} />
}
