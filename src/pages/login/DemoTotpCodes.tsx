import { useEffect, useState } from 'react'
import { DEMO_TOTP_SECRETS } from './demo-accounts'

type DemoEmail = keyof typeof DEMO_TOTP_SECRETS
type Codes = Partial<Record<DemoEmail, string>>

const SECRETS = Object.entries(DEMO_TOTP_SECRETS) as [DemoEmail, string][]

/**
 * The demo second factors: each secret, and on request its current code, recomputed every second. otpauth loads only
 * then, so that the login page's JavaScript stays within its budget.
 */
export function DemoTotpCodes() {
  const [shown, setShown] = useState(false)
  const [codes, setCodes] = useState<Codes>({})

  useEffect(() => {
    if (!shown) return
    let timer: ReturnType<typeof setInterval> | undefined
    let active = true
    void import('otpauth').then(({ Secret, TOTP }) => {
      const compute = () => {
        const next: Codes = {}
        for (const [email, secret] of SECRETS) next[email] = new TOTP({ secret: Secret.fromBase32(secret) }).generate()
        if (active) setCodes(next)
      }
      compute()
      timer = setInterval(compute, 1000)
    })
    return () => {
      active = false
      clearInterval(timer)
    }
  }, [shown])

  return (
    <section aria-labelledby="second-facteur-demo" className="rounded-lg border border-primary-100 bg-primary-50 p-4 text-sm text-primary-900">
      <h2 id="second-facteur-demo" className="font-semibold">
        Second facteur de démonstration
      </h2>
      <p className="mt-1">Administrateur et RSSI confirment leur connexion par un code (application d'authentification)&nbsp;:</p>
      <dl className="mt-2 space-y-1">
        {SECRETS.map(([email, secret]) => (
          <div key={email}>
            <dt className="font-medium">{email}</dt>
            <dd>
              clé <code className="break-all rounded bg-white px-1 font-mono">{secret}</code>
              {shown && (
                <>
                  , code actuel{' '}
                  <code data-testid={`demo-totp-${email}`} className="rounded bg-white px-1 font-mono">
                    {codes[email] ?? '……'}
                  </code>
                </>
              )}
            </dd>
          </div>
        ))}
      </dl>
      {!shown && (
        <button type="button" onClick={() => setShown(true)} className="mt-2 text-primary-700 underline">
          Afficher les codes actuels
        </button>
      )}
    </section>
  )
}
