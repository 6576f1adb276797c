import { appPage } from '@/app/app-pages'
import { useLiveCampaigns } from '@/features/campaigns/api'
import { AdminDashboard } from '@/features/campaigns/AdminDashboard'

export function AdminDashboardRoute() {
  useLiveCampaigns()
  return <AdminDashboard title={appPage('dashboard').title} />
}
