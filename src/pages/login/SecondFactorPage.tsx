import { useEffect, useState, type FormEvent } from 'react'
import { ShieldCheck } from 'lucide-react'
import { Navigate, useLocation } from 'react-router-dom'
import { useAuth } from '@/auth/auth-context'
import { secondFactorErrorMessage } from '@/auth/errors'
import { returnPathFrom, type RequestedLocation } from '@/auth/return-path'
import type { TotpEnrolment } from '@/auth/types'
import { Button } from '@/components/ui/Button'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { FullPageSpinner, Spinner } from '@/components/ui/Spinner'
import { TextInput } from '@/components/ui/TextInput'
import { usePageTitle } from '@/lib/page-title'

const CODE_FORMAT = 'Le code comporte 6 chiffres.'

/** The six digits of a code as people type them (spaces allowed), or null. */
function sixDigits(value: string): string | null {
  const code = value.replace(/\s/g, '')
  return /^\d{6}$/.test(code) ? code : null
}

function CodeForm({ factorId, submitLabel }: { factorId: string; submitLabel: string }) {
  const { verifySecondFactor } = useAuth()
  const [code, setCode] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setFailure(null)
    const digits = sixDigits(code)
    if (!digits) return setFieldError(CODE_FORMAT)
    setFieldError(null)
    setSubmitting(true)
    try {
      await verifySecondFactor(factorId, digits)
    } catch (error) {
      setFailure(secondFactorErrorMessage(error))
      setSubmitting(false)
    }
  }

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4" aria-label="Code de vérification">
      {failure && <ErrorBox message={failure} />}
      <TextInput
        label="Code à 6 chiffres"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        value={code}
        onChange={(event) => setCode(event.target.value)}
        error={fieldError}
        help="Le code affiché par votre application d'authentification (il change toutes les 30 secondes)."
      />
      <Button type="submit" fullWidth loading={submitting} disabled={submitting} leftIcon={<ShieldCheck aria-hidden="true" className="h-4 w-4" />}>
        {submitLabel}
      </Button>
    </form>
  )
}

/** First sign-in of a role that needs a second factor: the QR code, the secret to type instead, then a code. */
function Enrolment() {
  const { enrolSecondFactor } = useAuth()
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null)
  const [failure, setFailure] = useState<string | null>(null)

  useEffect(() => {
    let active = true
    enrolSecondFactor()
      .then((created) => active && setEnrolment(created))
      .catch((error: unknown) => {
        console.error('TOTP enrolment failed', error)
        if (active) setFailure(secondFactorErrorMessage(error))
      })
    return () => {
      active = false
    }
  }, [enrolSecondFactor])

  if (failure) return <ErrorBox message={failure} />
  if (!enrolment) return <Spinner label="Préparation de votre code…" />
  return (
    <div className="space-y-4">
      <p className="text-sm text-gray-700">
        Votre rôle donne accès à des données sensibles : la connexion demande, en plus du mot de passe, un code
        d'une application d'authentification (Google Authenticator, Microsoft Authenticator, FreeOTP…).
      </p>
      <ol className="list-decimal space-y-3 pl-5 text-sm text-gray-700">
        <li>
          Scannez ce QR code avec l'application&nbsp;:
          <img src={enrolment.qrCode} alt="QR code à scanner avec votre application d'authentification" className="mt-2 h-44 w-44 rounded border border-gray-200 bg-white p-2" />
        </li>
        <li>
          ou saisissez-y cette clé&nbsp;:{' '}
          <code data-testid="totp-secret" className="break-all rounded bg-gray-100 px-1.5 py-0.5 font-mono">
            {enrolment.secret}
          </code>
        </li>
        <li>puis saisissez ci-dessous le code qu'elle affiche.</li>
      </ol>
      <CodeForm factorId={enrolment.factorId} submitLabel="Activer et se connecter" />
    </div>
  )
}

export function SecondFactorPage() {
  const { status, secondFactor, logout } = useAuth()
  const location = useLocation()
  const enrolling = secondFactor?.kind === 'enrol'
  usePageTitle(enrolling ? "Activer l'authentification à deux facteurs" : 'Vérification en deux étapes')
  const from = (location.state as { from?: RequestedLocation } | null)?.from

  if (status === 'loading') return <FullPageSpinner />
  if (status === 'authenticated') return <Navigate to={returnPathFrom(from)} replace />
  if (status !== 'secondFactor' || !secondFactor) return <Navigate to="/login" replace state={{ from }} />

  return (
    <div className="mx-auto max-w-md px-4 py-12">
      <h1 className="text-2xl font-bold text-gray-900">{enrolling ? "Activer l'authentification à deux facteurs" : 'Vérification en deux étapes'}</h1>
      <div className="mt-6 space-y-4">
        {secondFactor.kind === 'enrol' ? (
          <Enrolment />
        ) : (
          <>
            <p className="text-sm text-gray-700">Saisissez le code affiché par votre application d'authentification.</p>
            <CodeForm factorId={secondFactor.factorId} submitLabel="Vérifier" />
          </>
        )}
        <p className="text-sm text-gray-600">
          Vous n'avez plus accès à votre application&nbsp;? Un administrateur peut réinitialiser votre second facteur.{' '}
          <button type="button" className="text-primary-700 underline" onClick={() => void logout()}>
            Se déconnecter
          </button>
        </p>
      </div>
    </div>
  )
}
