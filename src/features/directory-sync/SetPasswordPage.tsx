import { useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate } from 'react-router-dom'
import { KeyRound } from 'lucide-react'
import { Button, buttonClasses } from '@/components/ui/Button'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { TextInput } from '@/components/ui/TextInput'
import { useAuth } from '@/auth/auth-context'
import { usePageTitle } from '@/lib/page-title'
import { INVITATION_MESSAGES, setInvitedPassword } from './api'
import { PASSWORD_RULE, passwordProblem } from './password-rule'

type Link = { kind: 'tokens'; accessToken: string; refreshToken: string } | { kind: 'refused'; message: string }

/**
 * What the invitation link brought: GoTrue's /verify redirects here with the session in the fragment, or with
 * error_code (otp_expired for a link expired or already used, user_banned for a leaver).
 */
function readLink(hash: string): Link {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const accessToken = params.get('access_token')
  const refreshToken = params.get('refresh_token')
  if (accessToken && refreshToken && !params.get('error')) return { kind: 'tokens', accessToken, refreshToken }
  if (params.get('error_code') === 'user_banned') return { kind: 'refused', message: 'Ce compte est désactivé. Adressez-vous à votre administrateur.' }
  return { kind: 'refused', message: INVITATION_MESSAGES.expired }
}

/** « Choisir mon mot de passe »: where an invitation e-mail's link leads; once set, the person lands on their dashboard. */
export function SetPasswordPage() {
  usePageTitle('Choisir mon mot de passe')
  const location = useLocation()
  const navigate = useNavigate()
  const { adoptSession } = useAuth()
  // Read once: the fragment carries a session, and is wiped from the address bar at once.
  const [link] = useState(() => readLink(location.hash))
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  if (link.kind === 'refused') {
    return (
      <div className="mx-auto max-w-lg px-4 py-16">
        <h1 className="text-2xl font-bold text-gray-900">Lien d'invitation invalide</h1>
        <ErrorBox className="mt-4" message={link.message} />
        <Link to="/login" className={buttonClasses({ className: 'mt-6' })}>
          Aller à la connexion
        </Link>
      </div>
    )
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = passwordProblem(password)
    if (problem) return setFieldError(problem)
    if (password !== confirmation) return setFieldError('Les deux mots de passe ne sont pas identiques.')
    setFieldError(null)
    setFailure(null)
    setSaving(true)
    try {
      await setInvitedPassword(link, password)
      await adoptSession()
      navigate('/app/dashboard', { replace: true })
    } catch (caught) {
      setFailure(caught instanceof Error ? caught.message : INVITATION_MESSAGES.failed)
      setSaving(false)
    }
  }

  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <h1 className="text-2xl font-bold text-gray-900">Choisir mon mot de passe</h1>
      <p className="mt-2 text-sm text-gray-600">Bienvenue sur Recertif. Choisissez le mot de passe avec lequel vous vous connecterez.</p>
      <form className="mt-6 space-y-4" onSubmit={(event) => void submit(event)} noValidate>
        <TextInput
          label="Nouveau mot de passe"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          help={PASSWORD_RULE}
          required
        />
        <TextInput
          label="Confirmer le mot de passe"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(event) => setConfirmation(event.target.value)}
          error={fieldError ?? undefined}
          required
        />
        {failure && <ErrorBox message={failure} />}
        <Button type="submit" loading={saving} leftIcon={<KeyRound aria-hidden="true" className="h-4 w-4" />} className="w-full">
          Enregistrer et me connecter
        </Button>
      </form>
    </div>
  )
}
