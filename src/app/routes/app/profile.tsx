import { PageHeader } from '@/components/ui/PageHeader'
import { appPage } from '@/app/app-pages'
import { useCurrentUser } from '@/auth/auth-context'
import { useLiveProfile } from '@/features/profile/api'
import { ProfilePage } from '@/features/profile/components/ProfilePage'
import { PersonRights } from '@/features/rights/components/PersonRights'

export function ProfileRoute() {
  const { id } = useCurrentUser()
  useLiveProfile()
  return (
    <>
      <PageHeader title={appPage('profile').title} description="Votre identité, vos droits et l'historique de vos décisions." />
      <ProfilePage userId={id} rights={<PersonRights userId={id} caption="Mes droits" emptyMessage="Vous ne détenez aucun droit." />} />
    </>
  )
}
