import { useEffect, useState } from 'react'
import { DEMO_TOTP_SECRETS } from './demo-accounts'

type Codes = Partial<Record<keyof typeof DEMO_TOTP_SECRETS, string>>

/** The demo second factors: each secret and its current code, recomputed every second (otpauth, loaded with the panel). */
export function DemoTotpCodes() {
  const [codes, setCodes] = useState<Codes>({})

  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined
    let active = true
    void import('otpauth').then(({ Secret, TOTP }) => {
      const compute = () => {
        const next: Codes = {}
        for (const [email, secret] of Object.entries(DEMO_TOTP_SECRETS) as [keyof typeof DEMO_TOTP_SECRETS, string][]) {
          next[email] = new TOTP({ secret: Secret.fromBase32(secret) }).generate()
        }
        if (active) setCodes(next)
      }
      compute()
      timer = setInterval(compute, 1000)
    })
    return () => {
      active = false
      clearInterval(timer)
    }
  }, [])

  return (
    <div className="mt-4 text-sm text-primary-900">
      <p>Administrateur et RSSI confirment leur connexion par un code (application d'authentification)&nbsp;:</p>
      <dl className="mt-2 space-y-1">
        {(Object.entries(DEMO_TOTP_SECRETS) as [keyof typeof DEMO_TOTP_SECRETS, string][]).map(([email, secret]) => (
          <div key={email}>
            <dt className="font-medium">{email}</dt>
            <dd>
              clé <code className="break-all rounded bg-white px-1 font-mono">{secret}</code>, code actuel{' '}
              <code data-testid={`demo-totp-${email}`} className="rounded bg-white px-1 font-mono">
                {codes[email] ?? '……'}
              </code>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  )
}
