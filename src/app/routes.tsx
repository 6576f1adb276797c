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
const SecondFactorPage = lazyPage(() => import('@/pages/login/SecondFactorPage'), (m) => m.SecondFactorPage)
const AuthCallbackPage = lazyPage(() => import('@/pages/AuthCallback'), (m) => m.AuthCallbackPage)
const ContactPage = lazyPage(() => import('@/pages/Contact'), (m) => m.ContactPage)
const FaqPage = lazyPage(() => import('@/pages/faq/FaqPage'), (m) => m.FaqPage)
const LegalPage = lazyPage(() => import('@/pages/Legal'), (m) => m.LegalPage)
const PrivacyPage = lazyPage(() => import('@/pages/Privacy'), (m) => m.PrivacyPage)
const SetPasswordPage = lazyPage(() => import('@/features/directory-sync/SetPasswordPage'), (m) => m.SetPasswordPage)
const AuthenticatedLayout = lazyPage(() => import('./layouts/AuthenticatedLayout'), (m) => m.AuthenticatedLayout)

const APP_PAGE_LOADERS: Record<AppPageKey, () => Promise<ComponentType>> = {
  dashboard: () => import('./routes/app/dashboard').then((m) => m.DashboardRoute),
  reviews: () => import('./routes/app/reviews').then((m) => m.ReviewsRoute),
  team: () => import('./routes/app/team').then((m) => m.TeamRoute),
  applications: () => import('./routes/app/applications').then((m) => m.ApplicationsRoute),
  campaigns: () => import('./routes/app/campaigns').then((m) => m.CampaignsRoute),
  users: () => import('./routes/app/users').then((m) => m.UsersRoute),
  controls: () => import('./routes/app/controls').then((m) => m.ControlsRoute),
  compliance: () => import('./routes/app/compliance').then((m) => m.ComplianceRoute),
  audit: () => import('./routes/app/audit').then((m) => m.AuditRoute),
  notifications: () => import('./routes/app/notifications').then((m) => m.NotificationsRoute),
  profile: () => import('./routes/app/profile').then((m) => m.ProfileRoute),
}

const APP_PAGE_COMPONENTS = {} as Record<AppPageKey, ComponentType>
for (const { key } of APP_PAGES) APP_PAGE_COMPONENTS[key] = lazyPage(APP_PAGE_LOADERS[key], (component) => component)

/**
 * Starts loading the page at `pathname` at once, beside the authenticated layout, instead of once the layout has
 * arrived (a module loads once, so the lazy page later finds it ready). Called while rendering, not from an effect:
 * the effect ran only once the layout's Suspense fallback had committed, which React throttles (the dashboard's chunk
 * was asked for about 120 ms after the layout's, at sign-in). Asking twice is harmless: the import is the same.
 */
function preloadAppPage(pathname: string) {
  const page = APP_PAGES.find(({ path }) => pathname === `/app/${path}` || pathname.startsWith(`/app/${path}/`))
  if (page) void APP_PAGE_LOADERS[page.key]().catch(() => undefined)
}

export function AppRoutes() {
  const { pathname } = useLocation()
  preloadAppPage(pathname)
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Suspense fallback={<FullPageSpinner />}>
        <Routes>
          <Route element={<PublicLayout />}>
            <Route index element={<HomePage />} />
            <Route path="login" element={<LoginPage />} />
            <Route path="verification" element={<SecondFactorPage />} />
            <Route path="auth/callback" element={<AuthCallbackPage />} />
            <Route path="contact" element={<ContactPage />} />
            <Route path="faq" element={<FaqPage />} />
            <Route path="legal" element={<LegalPage />} />
            <Route path="privacy" element={<PrivacyPage />} />
            {/* Where an invitation e-mail's link leads (netlify/functions/directory-sync.ts). */}
            <Route path="mot-de-passe" element={<SetPasswordPage />} />
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
