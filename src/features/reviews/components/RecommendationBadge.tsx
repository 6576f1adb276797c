import { Badge } from '@/components/ui/Badge'
import { recommendationText, type QueueItem } from '../model'

/**
 * SPEC §9's inactivity recommendation: 'Jamais utilisé' or 'Inutilisé depuis N jours'; nothing when in use. Positioned,
 * so that its visually hidden prefix stays inside it rather than widening the page.
 */
export function RecommendationBadge({ item }: { item: Pick<QueueItem, 'last_used_at' | 'days_unused' | 'suggests_refusal' | 'recommendation'> }) {
  const text = recommendationText(item)
  if (!text) return null
  return (
    <Badge tone="orange" className="relative whitespace-nowrap">
      <span className="sr-only">Recommandation : </span>
      {text}
    </Badge>
  )
}
