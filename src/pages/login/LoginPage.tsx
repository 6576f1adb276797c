import { useState, type FormEvent, type ReactNode } from 'react'
import { Lock, LogIn, Mail } from 'lucide-react'
import { Navigate, useLocation, useSearchParams } from 'react-router-dom'
import { useAuth } from '@/auth/auth-context'
import { signInErrorMessage } from '@/auth/errors'
import { OAUTH_PROVIDER_NAMES } from '@/auth/oauth-provider'
import { returnPathFrom, type RequestedLocation } from '@/auth/return-path'
import type { OAuthProvider } from '@/auth/types'
import { Button } from '@/components/ui/Button'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { FullPageSpinner } from '@/components/ui/Spinner'
import { TextInput } from '@/components/ui/TextInput'
import { usePageTitle } from '@/lib/page-title'
import { DemoAccounts } from './DemoAccounts'
import { GoogleIcon } from './GoogleIcon'
import { MicrosoftIcon } from './MicrosoftIcon'
import type { LoginFieldErrors } from './login-schema'

// The form's schema (zod) and the Supabase client load when the person starts filling the form, not with the page.
const loadLoginSchema = () => import('./login-schema')

const OAUTH_BUTTONS: { provider: OAuthProvider; icon: ReactNode }[] = [
  { provider: 'google', icon: <GoogleIcon /> },
  { provider: 'azure', icon: <MicrosoftIcon /> },
]

function SignedOutNotice({ reason }: { reason: string | null }) {
  return (
    <p role="status" className="rounded-md border border-primary-100 bg-primary-50 p-3 text-sm text-primary-900">
      {reason === 'inactivity'
        ? "Vous avez été déconnecté après 5 minutes d'inactivité."
        : 'Vous avez été déconnecté.'}
    </p>
  )
}

export function LoginPage() {
  usePageTitle('Connexion')
  const { status, prepareSignIn, signInWithPassword, signInWithOAuth } = useAuth()
  const location = useLocation()
  const [searchParams] = useSearchParams()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [remember, setRemember] = useState(false)
  const [fieldErrors, setFieldErrors] = useState<LoginFieldErrors>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState<'password' | OAuthProvider | null>(null)

  const returnTo = returnPathFrom((location.state as { from?: RequestedLocation } | null)?.from)

  if (status === 'loading') return <FullPageSpinner />
  if (status === 'authenticated') return <Navigate to={returnTo} replace />
  if (status === 'secondFactor') return <Navigate to="/verification" replace state={location.state} />

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setFailure(null)
    const { validateLogin } = await loadLoginSchema()
    const result = validateLogin({ email, password })
    if (!result.ok) {
      setFieldErrors(result.errors)
      return
    }
    setFieldErrors({})
    setSubmitting('password')
    try {
      await signInWithPassword({ ...result.values, remember })
    } catch (error) {
      setFailure(signInErrorMessage(error))
      setSubmitting(null)
    }
  }

  const onOAuth = async (provider: OAuthProvider) => {
    setFailure(null)
    setSubmitting(provider)
    try {
      await signInWithOAuth({ provider, remember, returnTo })
    } catch (error) {
      setFailure(signInErrorMessage(error))
      setSubmitting(null)
    }
  }

  const prepare = () => {
    loadLoginSchema().catch(() => undefined)
    prepareSignIn()
  }

  const pickDemoAccount = (demoEmail: string, demoPassword: string) => {
    setEmail(demoEmail)
    setPassword(demoPassword)
    setFieldErrors({})
    setFailure(null)
  }

  return (
    <div className="mx-auto grid max-w-5xl gap-10 px-4 py-12 md:grid-cols-2">
      <div>
        <h1 className="text-2xl font-bold text-gray-900">Connexion</h1>
        <p className="mt-1 text-sm text-gray-600">Connectez-vous pour revoir et valider les droits d'accès.</p>
        <div className="mt-6 space-y-4">
          {searchParams.get('logged_out') === 'true' && <SignedOutNotice reason={searchParams.get('reason')} />}
          {failure && <ErrorBox message={failure} />}
          <form
            noValidate
            onSubmit={(event) => void onSubmit(event)}
            onFocus={prepare}
            className="space-y-4"
            aria-label="Connexion"
          >
            <TextInput
              label="Adresse e-mail"
              type="email"
              name="email"
              autoComplete="username"
              required
              value={email}
              onChange={(event) => setEmail(event.target.value)}
              error={fieldErrors.email}
              icon={<Mail className="h-4 w-4" />}
            />
            <TextInput
              label="Mot de passe"
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={fieldErrors.password}
              icon={<Lock className="h-4 w-4" />}
            />
            <label className="flex items-center gap-2 text-sm text-gray-700">
              <input
                type="checkbox"
                checked={remember}
                onChange={(event) => setRemember(event.target.checked)}
                className="h-4 w-4 rounded border-gray-300 text-primary-600 focus:ring-primary-500"
              />
              Se souvenir de moi
            </label>
            <Button
              type="submit"
              fullWidth
              loading={submitting === 'password'}
              disabled={submitting !== null}
              leftIcon={<LogIn aria-hidden="true" className="h-4 w-4" />}
            >
              Se connecter
            </Button>
          </form>
          <div className="flex items-center gap-3 text-xs text-gray-500" aria-hidden="true">
            <span className="h-px flex-1 bg-gray-200" />
            ou
            <span className="h-px flex-1 bg-gray-200" />
          </div>
          {OAUTH_BUTTONS.map(({ provider, icon }) => (
            <Button
              key={provider}
              variant="outline"
              fullWidth
              onClick={() => void onOAuth(provider)}
              loading={submitting === provider}
              disabled={submitting !== null}
              leftIcon={icon}
            >
              {`Se connecter avec ${OAUTH_PROVIDER_NAMES[provider]}`}
            </Button>
          ))}
        </div>
      </div>
      <DemoAccounts
        onPick={(demoEmail, demoPassword) => {
          prepare()
          pickDemoAccount(demoEmail, demoPassword)
        }}
      />
    </div>
  )
}
