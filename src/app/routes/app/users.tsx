import { appPage } from '@/app/app-pages'
import { useCurrentUser } from '@/auth/auth-context'
import { UsersPage } from '@/features/users/UsersPage'

export function UsersRoute() {
  const user = useCurrentUser()
  return <UsersPage title={appPage('users').title} currentUserId={user.id} />
}
