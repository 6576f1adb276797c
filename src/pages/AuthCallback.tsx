import { useEffect, useState } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { useAuth } from '@/auth/auth-context'
import { signInErrorMessage } from '@/auth/errors'
import { pendingOAuthProviderName } from '@/auth/oauth-provider'
import { buttonClasses } from '@/components/ui/Button'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/page-title'
import { oauthErrorMessage, readOAuthCallback } from './oauth-errors'

// A code can be exchanged once; a re-mounted page (Strict Mode, a re-render) reuses the first exchange.
const exchanges = new Map<string, Promise<string>>()

export function AuthCallbackPage() {
  usePageTitle('Connexion en cours')
  const { completeOAuthSignIn } = useAuth()
  const navigate = useNavigate()
  const location = useLocation()
  const [params] = useState(() => readOAuthCallback(location.search, location.hash))
  const [failure, setFailure] = useState<{ message: string; detail?: string } | null>(() => {
    if (params.error) {
      const message = oauthErrorMessage(params.error, pendingOAuthProviderName(window.sessionStorage))
      return { message, detail: params.errorDescription ?? undefined }
    }
    if (!params.code) return { message: 'Ce lien de connexion est invalide ou a expiré.' }
    return null
  })

  useEffect(() => {
    const { code, error } = params
    if (error || !code) return
    let exchange = exchanges.get(code)
    if (!exchange) {
      exchange = completeOAuthSignIn(code)
      exchanges.set(code, exchange)
    }
    let active = true
    exchange.then(
      (returnTo) => {
        if (active) navigate(returnTo, { replace: true })
      },
      (reason: unknown) => {
        if (active) setFailure({ message: signInErrorMessage(reason) })
      },
    )
    return () => {
      active = false
    }
  }, [params, completeOAuthSignIn, navigate])

  if (!failure) return <Spinner label="Connexion en cours…" className="min-h-[50vh]" />

  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="text-2xl font-bold text-gray-900">Connexion impossible</h1>
      <ErrorBox className="mt-4" message={failure.message} />
      {failure.detail && <p className="mt-2 text-xs text-gray-500">Détail du fournisseur&nbsp;: {failure.detail}</p>}
      <Link to="/login" className={buttonClasses({ className: 'mt-6' })}>
        Retour à la connexion
      </Link>
    </div>
  )
}
