import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'

export function AuditRoute() {
  return <PageHeader title={appPage('audit').title} />
}
