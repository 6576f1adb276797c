import { reachText, ruleSentences, type RuleReach } from './parameters'
import type { ControlRuleRow } from './model'

interface RuleSummaryProps {
  rule: ControlRuleRow
  /** What the rule finds today; undefined while it is counted. */
  reach: RuleReach | undefined
  failed: boolean
}

/** A row's rule in words, and how many it concerns today. */
export function RuleSummary({ rule, reach, failed }: RuleSummaryProps) {
  const sentences = ruleSentences(rule.parameters, rule.global ? null : (rule.application?.name ?? null))
  const count = reach ? (reachText(reach) ?? 'Rien à évaluer') : failed ? 'Nombre indisponible' : 'Calcul…'
  return (
    <div className="min-w-48 max-w-md whitespace-normal">
      {sentences.length === 0 ? <p className="text-gray-600">Aucun contrôle défini.</p> : sentences.map((sentence) => <p key={sentence} className="break-words">{sentence}</p>)}
      <p className="mt-1 text-xs font-medium text-gray-600">{count}</p>
    </div>
  )
}
