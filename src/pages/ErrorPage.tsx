import { AlertTriangle, Home, RotateCcw } from 'lucide-react'
import { Button, buttonClasses } from '@/components/ui/Button'
import { usePageTitle } from '@/lib/page-title'

interface ErrorPageProps {
  status?: number
  title?: string
  message?: string
  /** Technical detail for support, shown small under the message. */
  detail?: string
}

/** /500, and what the router shows when a page fails (SPEC §2 "Error page"). */
export function ErrorPage({
  status = 500,
  title = 'Une erreur est survenue',
  message = 'Nous rencontrons des difficultés techniques. Veuillez réessayer plus tard.',
  detail,
}: ErrorPageProps) {
  usePageTitle(title)
  return (
    <div className="mx-auto max-w-lg px-4 py-20 text-center">
      <AlertTriangle aria-hidden="true" className="mx-auto h-12 w-12 text-red-500" />
      <p className="mt-4 text-5xl font-bold text-gray-900">{status}</p>
      <h1 className="mt-2 text-2xl font-bold text-gray-900">{title}</h1>
      <p className="mt-2 text-gray-600">{message}</p>
      {detail && <p className="mt-4 break-words text-xs text-gray-500">Détail&nbsp;: {detail}</p>}
      <div className="mt-8 flex justify-center gap-3">
        {/* A plain link: after a failure the router itself may be what is broken. */}
        <a href="/" className={buttonClasses()}>
          <Home aria-hidden="true" className="h-4 w-4" />
          Accueil
        </a>
        <Button variant="outline" leftIcon={<RotateCcw aria-hidden="true" className="h-4 w-4" />} onClick={() => window.location.reload()}>
          Réessayer
        </Button>
      </div>
    </div>
  )
}
