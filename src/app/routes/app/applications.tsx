import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'

export function ApplicationsRoute() {
  return <PageHeader title={appPage('applications').title} />
}
