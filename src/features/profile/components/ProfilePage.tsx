import type { ReactNode } from 'react'
import { DecisionHistoryCard } from './DecisionHistoryCard'
import { IdentityCard } from './IdentityCard'
import { MyRightsCard } from './MyRightsCard'

interface ProfilePageProps {
  userId: string
  /** The rights the caller holds (the rights feature's table, composed by the route). */
  rights: ReactNode
}

/** Profil (ARCHITECTURE §6): one's identity and role, the rights one holds and one's decision history. */
export function ProfilePage({ userId, rights }: ProfilePageProps) {
  return (
    <div className="space-y-6">
      <IdentityCard userId={userId} />
      <MyRightsCard>{rights}</MyRightsCard>
      <DecisionHistoryCard userId={userId} />
    </div>
  )
}
