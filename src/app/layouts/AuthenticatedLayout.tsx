import { Suspense, useId, useState } from 'react'
import { Outlet, useLocation } from 'react-router-dom'
import { useAuth, useCurrentUser } from '@/auth/auth-context'
import { useInactivitySignOut } from '@/auth/useInactivitySignOut'
import { Spinner } from '@/components/ui/Spinner'
import { usePrefetchReviewQueue } from '@/features/reviews/api'
import { useLiveRights } from '@/features/rights/api'
import { useLiveTopics } from '@/lib/realtime'
import { AccessDeniedPage } from '@/pages/AccessDenied'
import { APP_PAGES, appPath, canOpen } from '../app-pages'
import { RequireAuth } from '../guards'
import { AppFooter } from './AppFooter'
import { AppHeader } from './AppHeader'
import { AppQueryProvider } from './AppQueryProvider'
import { MainNav } from './MainNav'
import { MobileMenu } from './MobileMenu'
import { SkipLink } from './SkipLink'

export function AuthenticatedLayout() {
  return (
    <RequireAuth>
      <AppQueryProvider>
        <SignedInShell />
      </AppQueryProvider>
    </RequireAuth>
  )
}

function pageAt(pathname: string) {
  return APP_PAGES.find((page) => pathname === appPath(page) || pathname.startsWith(`${appPath(page)}/`))
}

function SignedInShell() {
  useInactivitySignOut()
  const user = useCurrentUser()
  // The person's live topics, joined once for the session; every live list listens to them.
  useLiveTopics(user)
  // Keeps every view of rights and decisions live, whatever the page or role.
  useLiveRights()
  const { logout } = useAuth()
  const { pathname } = useLocation()
  const mobileMenuId = useId()
  // The menu belongs to the page it was opened on, so that any navigation closes it.
  const [mobileMenuPath, setMobileMenuPath] = useState<string | null>(null)
  const mobileMenuOpen = mobileMenuPath === pathname
  const closeMobileMenu = () => setMobileMenuPath(null)

  const page = pageAt(pathname)
  const allowed = !page || canOpen(user.role, page)
  usePrefetchReviewQueue(allowed && page?.key === 'reviews')
  const onLogout = () => void logout()

  return (
    <div className="flex min-h-screen flex-col bg-gray-50">
      <SkipLink />
      <AppHeader
        user={user}
        mobileMenuOpen={mobileMenuOpen}
        mobileMenuId={mobileMenuId}
        onToggleMobileMenu={() => setMobileMenuPath(mobileMenuOpen ? null : pathname)}
        onLogout={onLogout}
      />
      {mobileMenuOpen && <MobileMenu id={mobileMenuId} role={user.role} onClose={closeMobileMenu} onLogout={onLogout} />}
      <div className="flex flex-1">
        <aside className="hidden w-64 shrink-0 border-r border-gray-200 bg-white p-4 lg:block">
          <MainNav role={user.role} label="Menu principal" />
        </aside>
        <main id="contenu" className="min-w-0 flex-1 p-4 md:p-8">
          {allowed ? (
            <Suspense fallback={<Spinner className="min-h-[30vh]" />}>
              <Outlet />
            </Suspense>
          ) : (
            <AccessDeniedPage />
          )}
        </main>
      </div>
      <AppFooter />
    </div>
  )
}
