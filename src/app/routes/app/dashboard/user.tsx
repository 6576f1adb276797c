import { useState } from 'react'
import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'
import { useCurrentUser } from '@/auth/auth-context'
import { UserDashboard } from '@/features/dashboards/components/UserDashboard'
import { ValidationDialog } from '@/features/reviews/components/ValidationDialog'
import type { DecisionTarget } from '@/features/reviews/model'
import { ReviewableRights } from '@/features/rights/components/ReviewableRights'
import type { HeldRight } from '@/features/rights/model'

/** The user's counters from the dashboards feature, their rights from the rights feature, decided through the reviews feature's dialog. */
export function UserDashboardRoute() {
  const user = useCurrentUser()
  const [target, setTarget] = useState<DecisionTarget | null>(null)
  const holderName = `${user.firstName} ${user.lastName}`.trim()
  // A holder decides on their own pending rights: Valider and Refuser give the user stage's statuses.
  const open = (right: HeldRight) =>
    setTarget({
      rightId: right.id,
      applicationName: right.application?.name ?? '-',
      roleName: right.role_name,
      holderName,
      approveStatus: 'validated_user',
      refuseStatus: 'refused_user',
    })
  return (
    <>
      <PageHeader title={appPage('dashboard').title} />
      <UserDashboard rightsToReview={<ReviewableRights userId={user.id} onDecide={open} />} />
      <ValidationDialog target={target} onClose={() => setTarget(null)} />
    </>
  )
}
