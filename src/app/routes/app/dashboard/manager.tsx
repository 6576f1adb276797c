import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'

export function ManagerDashboardRoute() {
  return <PageHeader title={appPage('dashboard').title} />
}
