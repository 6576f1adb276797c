import { lazy, Suspense, type ComponentType } from 'react'
import { Navigate, Route, Routes, useLocation } from 'react-router-dom'
import { FullPageSpinner } from '@/components/ui/Spinner'
import { NotFoundPage } from '@/pages/NotFound'
import { ErrorPage } from '@/pages/ErrorPage'
import { APP_PAGES, type AppPageKey } from './app-pages'
import { PublicLayout } from './layouts/PublicLayout'
import { RouteErrorBoundary } from './RouteErrorBoundary'

// Every page is its own chunk, and nothing of the authenticated area is part of what the public pages load.
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazy(async () => ({ default: pick(await load()) }))
}

const HomePage = lazyPage(() => import('@/pages/Home'), (m) => m.HomePage)
const LoginPage = lazyPage(() => import('@/pages/login/LoginPage'), (m) => m.LoginPage)
const AuthCallbackPage = lazyPage(() => import('@/pages/AuthCallback'), (m) => m.AuthCallbackPage)
const ContactPage = lazyPage(() => import('@/pages/Contact'), (m) => m.ContactPage)
const FaqPage = lazyPage(() => import('@/pages/faq/FaqPage'), (m) => m.FaqPage)
const LegalPage = lazyPage(() => import('@/pages/Legal'), (m) => m.LegalPage)
const PrivacyPage = lazyPage(() => import('@/pages/Privacy'), (m) => m.PrivacyPage)
const AuthenticatedLayout = lazyPage(() => import('./layouts/AuthenticatedLayout'), (m) => m.AuthenticatedLayout)

const APP_PAGE_COMPONENTS: Record<AppPageKey, ComponentType> = {
  dashboard: lazyPage(() => import('./routes/app/dashboard'), (m) => m.DashboardRoute),
  reviews: lazyPage(() => import('./routes/app/reviews'), (m) => m.ReviewsRoute),
  team: lazyPage(() => import('./routes/app/team'), (m) => m.TeamRoute),
  applications: lazyPage(() => import('./routes/app/applications'), (m) => m.ApplicationsRoute),
  campaigns: lazyPage(() => import('./routes/app/campaigns'), (m) => m.CampaignsRoute),
  users: lazyPage(() => import('./routes/app/users'), (m) => m.UsersRoute),
  controls: lazyPage(() => import('./routes/app/controls'), (m) => m.ControlsRoute),
  compliance: lazyPage(() => import('./routes/app/compliance'), (m) => m.ComplianceRoute),
  audit: lazyPage(() => import('./routes/app/audit'), (m) => m.AuditRoute),
  profile: lazyPage(() => import('./routes/app/profile'), (m) => m.ProfileRoute),
}

export function AppRoutes() {
  const { pathname } = useLocation()
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route element={<PublicLayout />}>
            <Route index element={<HomePage />} />
            <Route path="login" element={<LoginPage />} />
            <Route path="auth/callback" element={<AuthCallbackPage />} />
            <Route path="contact" element={<ContactPage />} />
            <Route path="faq" element={<FaqPage />} />
            <Route path="legal" element={<LegalPage />} />
            <Route path="privacy" element={<PrivacyPage />} />
            <Route path="500" element={<ErrorPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
          <Route path="app" element={<AuthenticatedLayout />}>
            <Route index element={<Navigate to="dashboard" replace />} />
            {APP_PAGES.map(({ key, path }) => {
              const Page = APP_PAGE_COMPONENTS[key]
              return <Route key={key} path={path} element={<Page />} />
            })}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  )
}
