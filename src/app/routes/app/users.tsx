import { appPage } from '@/app/app-pages'
import { useCurrentUser } from '@/auth/auth-context'
import { ImportButton } from '@/features/directory-sync/ImportButton'
import { UserAccessActions } from '@/features/directory-sync/UserAccessActions'
import { useLiveUsers } from '@/features/users/api'
import { userFullName } from '@/features/users/model'
import { UsersPage } from '@/features/users/UsersPage'

export function UsersRoute() {
  const user = useCurrentUser()
  useLiveUsers()
  return (
    <UsersPage
      title={appPage('users').title}
      currentUserId={user.id}
      canResetSecondFactor={user.role === 'admin'}
      importAction={<ImportButton kind="directory" />}
      rowActions={(row) => (
        <UserAccessActions
          person={{ id: row.id, name: userFullName(row), email: row.email, active: row.active !== false }}
          isCurrentUser={row.id === user.id}
        />
      )}
    />
  )
}
