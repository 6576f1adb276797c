import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'
import { UserDashboard } from '@/features/reviews/components/UserDashboard'

export function UserDashboardRoute() {
  return (
    <>
      <PageHeader title={appPage('dashboard').title} />
      <UserDashboard />
    </>
  )
}
