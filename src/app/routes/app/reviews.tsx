import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'

export function ReviewsRoute() {
  return <PageHeader title={appPage('reviews').title} />
}
