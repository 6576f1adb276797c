import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'

export function TeamRoute() {
  return <PageHeader title={appPage('team').title} />
}
