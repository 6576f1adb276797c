import { lazy, Suspense } from 'react'
import { useCurrentUser } from '@/auth/auth-context'
import { usePrefetchRssiDashboard } from '@/features/dashboards/api'
import type { Role } from '@/domain/labels'
import { Spinner } from '@/components/ui/Spinner'

// One view per audience, each its own chunk: a role loads only the dashboard it sees.
const RssiDashboardView = lazy(() => import('./dashboard/rssi').then((m) => ({ default: m.RssiDashboardRoute })))

// The RSSI's figures are the slowest call of any dashboard: asked for while the view's code is still loading.
function RssiView() {
  usePrefetchRssiDashboard()
  return <RssiDashboardView />
}

const views = {
  rssi: RssiView,
  admin: lazy(() => import('./dashboard/admin').then((m) => ({ default: m.AdminDashboardRoute }))),
  manager: lazy(() => import('./dashboard/manager').then((m) => ({ default: m.ManagerDashboardRoute }))),
  user: lazy(() => import('./dashboard/user').then((m) => ({ default: m.UserDashboardRoute }))),
}

/** SPEC §2: the first match wins — rssi, then admin, then manager, otherwise the user view. */
export function dashboardViewFor(role: Role): keyof typeof views {
  if (role === 'rssi' || role === 'admin' || role === 'manager') return role
  return 'user'
}

export function DashboardRoute() {
  const view = dashboardViewFor(useCurrentUser().role)
  const View = views[view]
  return (
    <Suspense fallback={<Spinner />}>
      <View />
    </Suspense>
  )
}
