import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'

export function ControlsRoute() {
  return <PageHeader title={appPage('controls').title} />
}
