import { appPage } from '@/app/app-pages'
import { useCurrentUser } from '@/auth/auth-context'
import { isAdministrator } from '@/auth/roles'
import { ImportButton } from '@/features/directory-sync/ImportButton'
import { RightsSnapshotButton } from '@/features/directory-sync/rights-snapshot/RightsSnapshotButton'
import { useLiveApplications } from '@/features/applications/api'
import { ApplicationsPage } from '@/features/applications/ApplicationsPage'

export function ApplicationsRoute() {
  const user = useCurrentUser()
  useLiveApplications()
  return (
    <ApplicationsPage
      title={appPage('applications').title}
      canManage={isAdministrator(user)}
      importAction={
        <>
          <ImportButton kind="applications" />
          <RightsSnapshotButton />
        </>
      }
    />
  )
}
