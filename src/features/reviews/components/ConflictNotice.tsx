import { Badge } from '@/components/ui/Badge'
import type { RightConflict } from '../model'

/** Why a conflict calls for a refusal, in one sentence. */
export const CONFLICT_ADVICE =
  'Recommandation : refuser l’un des deux droits, car une même personne qui cumule deux rôles incompatibles peut mener seule une opération que la règle impose de partager.'

/** Why inactivity calls for a refusal, in one sentence. */
export const INACTIVITY_ADVICE =
  'Recommandation : refuser ce droit, car un accès qui n’a pas servi depuis plus de 90 jours n’est sans doute plus nécessaire et expose le compte sans utilité.'

/** The RA treats a refused right rather than decides it: the advice in the RA's own words (« Marquer traité »). */
export const TREATMENT_ADVICE =
  'Recommandation : retirer ce droit dans l’application, puis le marquer traité ; « Traitement requis » le garde dans votre file tant qu’il n’est pas retiré.'

/** « Ce collaborateur détient aussi « Approbateur factures » sur SAP Finance : combinaison interdite par la règle « … ». » */
export function conflictSentence(conflict: RightConflict): string {
  return `Ce collaborateur détient aussi « ${conflict.other_role_name} » sur ${conflict.other_application_name} : combinaison interdite par la règle « ${conflict.rule_name} ».`
}

interface ConflictNoticeProps {
  conflicts: readonly RightConflict[]
  /** In a table row: the badge and the sentences, the advice shortened. */
  compact?: boolean
  /** For the RA, who treats the right: the treatment's advice instead of a refusal's. */
  treating?: boolean
}

/**
 * The control rules' incompatible roles, shown where the decision is taken, as SailPoint and Okta
 * show policy violations during a certification: each conflicting right and its rule, and the advice to refuse one.
 */
export function ConflictNotice({ conflicts, compact = false, treating = false }: ConflictNoticeProps) {
  if (conflicts.length === 0) return null
  return (
    <div className={compact ? 'mt-1 max-w-xs space-y-1 text-xs text-red-800' : 'rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900'}>
      <Badge tone="red">Rôles incompatibles</Badge>
      <ul className={compact ? 'space-y-1' : 'mt-2 list-disc space-y-1 pl-5'}>
        {conflicts.map((conflict) => (
          <li key={`${conflict.rule_id}-${conflict.other_right_id}`}>{conflictSentence(conflict)}</li>
        ))}
      </ul>
      <p className={compact ? 'font-medium' : 'mt-2 font-medium'}>{treating ? TREATMENT_ADVICE : compact ? 'Recommandation : refuser l’un des deux droits.' : CONFLICT_ADVICE}</p>
    </div>
  )
}
