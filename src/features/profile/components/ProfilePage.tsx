import { DecisionHistoryCard } from './DecisionHistoryCard'
import { IdentityCard } from './IdentityCard'
import { MyRightsCard } from './MyRightsCard'

/** Profil (ARCHITECTURE §6): one's identity and role, the rights one holds and one's decision history. */
export function ProfilePage({ userId }: { userId: string }) {
  return (
    <div className="space-y-6">
      <IdentityCard userId={userId} />
      <MyRightsCard userId={userId} />
      <DecisionHistoryCard userId={userId} />
    </div>
  )
}
