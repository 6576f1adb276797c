import { Link } from 'react-router-dom'
import { buttonClasses } from '@/components/ui/Button'
import { usePageTitle } from '@/lib/page-title'

export function NotFoundPage() {
  usePageTitle('Page non trouvée')
  return (
    <div className="mx-auto max-w-lg px-4 py-20 text-center">
      <p className="text-5xl font-bold text-primary-600">404</p>
      <h1 className="mt-4 text-2xl font-bold text-gray-900">Page non trouvée</h1>
      <p className="mt-2 text-gray-600">La page que vous cherchez n'existe pas ou a été déplacée.</p>
      <div className="mt-8 flex justify-center gap-3">
        <Link to="/" className={buttonClasses()}>
          Retour à l'accueil
        </Link>
        <Link to="/contact" className={buttonClasses({ variant: 'outline' })}>
          Nous contacter
        </Link>
      </div>
    </div>
  )
}
