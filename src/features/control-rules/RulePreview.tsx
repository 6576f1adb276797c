import { reachText, type RuleReach } from './parameters'

interface RulePreviewProps {
  /** The rule in words; empty while nothing complete is chosen. */
  sentences: string[]
  reach: { data: RuleReach | undefined; pending: boolean; error: string | null }
}

/** Under the form: the rule as it reads so far, and how many it concerns today, announced politely as it changes. */
export function RulePreview({ sentences, reach }: RulePreviewProps) {
  const count = reach.data ? reachText(reach.data) : null
  return (
    <section aria-label="La règle en clair" aria-live="polite" className="rounded-md border border-gray-200 bg-gray-50 p-3 text-sm">
      <h3 className="font-medium text-gray-900">La règle en clair</h3>
      {sentences.length === 0 ? (
        <p className="mt-1 text-gray-600">Choisissez deux rôles ou un seuil d’inactivité : la règle se lira ici.</p>
      ) : (
        sentences.map((sentence) => (
          <p key={sentence} className="mt-1 break-words text-gray-800">
            {sentence}
          </p>
        ))
      )}
      {sentences.length > 0 && (
        <p className="mt-2 font-medium text-gray-900">
          {reach.error ?? count ?? (reach.pending ? 'Calcul des personnes concernées…' : null)}
        </p>
      )}
    </section>
  )
}
