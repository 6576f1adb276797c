import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'

export function ProfileRoute() {
  return <PageHeader title={appPage('profile').title} />
}
