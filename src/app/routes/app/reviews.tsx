import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'
import { ReviewsPage } from '@/features/reviews/components/ReviewsPage'

export function ReviewsRoute() {
  return (
    <>
      <PageHeader title={appPage('reviews').title} description="Les droits qui attendent votre décision." />
      <ReviewsPage />
    </>
  )
}
