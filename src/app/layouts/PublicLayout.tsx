import { Suspense } from 'react'
import { Outlet } from 'react-router-dom'
import { Spinner } from '@/components/ui/Spinner'
import { PublicFooter } from './PublicFooter'
import { PublicHeader } from './PublicHeader'
import { SkipLink } from './SkipLink'

export function PublicLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-white">
      <SkipLink />
      <PublicHeader />
      <main id="contenu" className="flex-1">
        <Suspense fallback={<Spinner className="min-h-[50vh]" />}>
          <Outlet />
        </Suspense>
      </main>
      <PublicFooter />
    </div>
  )
}
