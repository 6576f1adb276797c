import type { ReactNode } from 'react'
import type { RightsCounts } from '../model'
import { Counter } from './Counter'

interface RightsCountersProps {
  /** Undefined while loading. */
  counts: RightsCounts | undefined
  /** Counters shown before the rights' (the manager's Équipe). */
  children?: ReactNode
  className: string
}

/**
 * The total of rights and the five parts it is made of, side by side, so that the figures on screen add up: a right
 * refused and in the RA's hands (En traitement, Traités) is neither pending, validated nor refused any more.
 */
export function RightsCounters({ counts, children, className }: RightsCountersProps) {
  return (
    <div>
      <div className={className}>
        {children}
        <Counter label="Droits" value={counts?.rights_count} />
        <Counter label="En attente" value={counts?.pending_count} />
        <Counter label="Validés" value={counts?.validated_count} className="text-green-700" />
        <Counter label="Refusés" value={counts?.refused_count} className="text-red-700" />
        <Counter label="En traitement" value={counts?.treatment_required_count} className="text-orange-700" />
        <Counter label="Traités" value={counts?.treated_count} />
      </div>
      <p className="mt-2 text-xs text-gray-600">
        Droits = En attente + Validés + Refusés + En traitement (refusés, à traiter par le Responsable d&apos;Application) + Traités.
      </p>
    </div>
  )
}
