import { useState } from 'react'
import { Button } from '@/components/ui/Button'
import { ProgressBar } from '@/components/ui/ProgressBar'
import { countText, shareText } from '@/domain/plural'
import type { ApplicationCompliance } from '../model'

/**
 * How many bars show at first, and how many more each click adds. An organisation of 2,000 applications made the
 * dashboard render 2,000 bars in one go (a 300–650 ms freeze after its figures arrived, at scale 10); the full table
 * is on the Conformité page.
 */
export const COMPLIANCE_BARS_STEP = 20

export function ApplicationComplianceList({ applications }: { applications: ApplicationCompliance[] }) {
  const [shown, setShown] = useState(COMPLIANCE_BARS_STEP)
  if (applications.length === 0) return <p className="text-sm text-gray-500">Aucun droit ne correspond aux filtres.</p>
  const visible = applications.slice(0, shown)
  const more = Math.min(COMPLIANCE_BARS_STEP * 5, applications.length - visible.length)
  return (
    <>
      {visible.map((app) => (
        <div key={app.application_id}>
          <div className="flex justify-between text-sm">
            <span className="font-medium text-gray-800">{app.application_name}</span>
            <span className="text-gray-500">
              {app.validated_rights}/{app.total_rights}
            </span>
          </div>
          <ProgressBar value={app.rate ?? 0} label={`Conformité ${app.application_name}`} />
        </div>
      ))}
      {more > 0 && (
        <div className="flex flex-wrap items-center justify-between gap-2 pt-1 text-sm text-gray-600">
          <span>{shareText(visible.length, applications.length, 'application affichée', 'applications affichées')}</span>
          <Button variant="outline" size="sm" onClick={() => setShown(visible.length + more)}>
            Afficher {countText(more, 'application', 'applications')} de plus
          </Button>
        </div>
      )}
    </>
  )
}
