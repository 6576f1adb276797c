import { KeyRound } from 'lucide-react'
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo-accounts'
import { DemoTotpCodes } from './DemoTotpCodes'

export function DemoAccounts({ onPick }: { onPick: (email: string, password: string) => void }) {
  return (
    // Aligned to the top: stretched to the form's height, the panel showed a large empty blue area below its list.
    <div className="space-y-4 self-start">
      <section aria-labelledby="comptes-demo" className="rounded-lg border border-primary-100 bg-primary-50 p-4">
        <h2 id="comptes-demo" className="text-sm font-semibold text-primary-900">
          Comptes de démonstration
        </h2>
        <p className="mt-1 flex items-center gap-2 text-sm text-primary-900">
          <KeyRound aria-hidden="true" className="h-4 w-4" />
          Mot de passe commun&nbsp;: <code className="rounded bg-white px-1.5 py-0.5 font-mono">{DEMO_PASSWORD}</code>
        </p>
        <p id="comptes-demo-aide" className="mt-1 text-sm text-primary-900">
          Choisissez un compte pour remplir le formulaire.
        </p>
        <ul className="mt-3 grid gap-2 sm:grid-cols-2">
          {DEMO_ACCOUNTS.map((account) => (
            <li key={account.email}>
              <button
                type="button"
                onClick={() => onPick(account.email, DEMO_PASSWORD)}
                // Named by what it shows (WCAG 2.5.3: speech users say the visible words); the hint says what it does.
                aria-describedby="comptes-demo-aide"
                className="w-full rounded-md border border-primary-200 bg-white px-3 py-2 text-left text-sm hover:border-primary-400 focus-visible:outline focus-visible:outline-2 focus-visible:outline-primary-600"
              >
                <span className="block font-medium text-gray-900">{account.label}</span>{' '}
                <span className="block text-gray-600">{account.email}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
      <DemoTotpCodes />
    </div>
  )
}
