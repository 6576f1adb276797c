import { appPage } from '@/app/app-pages'
import { AdminDashboard } from '@/features/campaigns/AdminDashboard'

export function AdminDashboardRoute() {
  return <AdminDashboard title={appPage('dashboard').title} />
}
