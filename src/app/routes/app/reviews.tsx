import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'
import { useCurrentUser } from '@/auth/auth-context'
import { useLiveProfile } from '@/features/profile/api'
import { DecisionHistoryCard } from '@/features/profile/components/DecisionHistoryCard'
import { MyRightsCard } from '@/features/profile/components/MyRightsCard'
import { ReviewsPage } from '@/features/reviews/components/ReviewsPage'
import { DelegationPanel } from '@/features/reviews/components/delegation/DelegationPanel'
import { PersonRights } from '@/features/rights/components/PersonRights'

/**
 * Mes revues: the queue from the reviews feature, then the caller's past decisions from the profile feature; a user,
 * whose queue is their own pending rights, also sees all their rights and the decisions taken on them.
 */
export function ReviewsRoute() {
  const { id, role } = useCurrentUser()
  useLiveProfile()
  const holder = role === 'user'
  return (
    <>
      <PageHeader title={appPage('reviews').title} description="Les droits qui attendent votre décision." />
      <ReviewsPage />
      <DelegationPanel userId={id} />
      <div className="mt-8 space-y-6">
        {holder && (
          <MyRightsCard>
            <PersonRights userId={id} caption="Mes droits" emptyMessage="Vous ne détenez aucun droit." />
          </MyRightsCard>
        )}
        <DecisionHistoryCard userId={id} initialScope={holder ? 'all' : 'taken'} />
      </div>
    </>
  )
}
