import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'

export function UsersRoute() {
  return <PageHeader title={appPage('users').title} />
}
