import { appPage } from '@/app/app-pages'
import { useCurrentUser } from '@/auth/auth-context'
import { useLiveUsers } from '@/features/users/api'
import { UsersPage } from '@/features/users/UsersPage'

export function UsersRoute() {
  const user = useCurrentUser()
  useLiveUsers()
  return <UsersPage title={appPage('users').title} currentUserId={user.id} />
}
