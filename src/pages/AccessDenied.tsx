import { ShieldAlert } from 'lucide-react'
import { Link } from 'react-router-dom'
import { buttonClasses } from '@/components/ui/Button'
import { usePageTitle } from '@/lib/page-title'

/** Shown when a role opens a page its menu does not offer. A courtesy: the database is what refuses the data. */
export function AccessDeniedPage() {
  usePageTitle('Accès refusé')
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <ShieldAlert aria-hidden="true" className="mx-auto h-12 w-12 text-red-500" />
      <h1 className="mt-4 text-2xl font-bold text-gray-900">Accès refusé</h1>
      <p className="mt-2 text-gray-600">Votre rôle ne vous donne pas accès à cette page.</p>
      <Link to="/app/dashboard" className={buttonClasses({ className: 'mt-6' })}>
        Retour au tableau de bord
      </Link>
    </div>
  )
}
