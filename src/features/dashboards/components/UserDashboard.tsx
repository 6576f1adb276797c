import type { ReactNode } from 'react'
import { CalendarClock, Clock, Info } from 'lucide-react'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { formatDate } from '@/lib/dates'
import { useReviewDeadline, useRightsSummary } from '../api'

function Counter({ label, value, tone }: { label: string; value: number | undefined; tone: string }) {
  return (
    <Card>
      <CardContent>
        <p className="text-sm text-gray-600">{label}</p>
        <p className={`mt-1 text-3xl font-bold ${tone}`} aria-label={`${label} : ${value ?? '…'}`}>
          {value ?? '…'}
        </p>
      </CardContent>
    </Card>
  )
}

/**
 * SPEC §2's user view on live data: counters, 'Droits à revoir' (the holder's rights with their decision buttons,
 * composed by the route) and the info notes.
 */
export function UserDashboard({ rightsToReview }: { rightsToReview: ReactNode }) {
  const summary = useRightsSummary()
  const deadline = useReviewDeadline()

  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-3">
        <Counter label="En attente" value={summary.data?.pending_count} tone="text-gray-900" />
        <Counter label="Validés" value={summary.data?.validated_count} tone="text-green-700" />
        <Counter label="Refusés" value={summary.data?.refused_count} tone="text-red-700" />
      </div>
      {summary.error && <ErrorBox message={summary.error.message} />}

      <Card>
        <CardHeader>
          <CardTitle>Droits à revoir</CardTitle>
        </CardHeader>
        <CardContent className="p-0">{rightsToReview}</CardContent>
      </Card>

      <ul aria-label="Informations" className="space-y-2 text-sm text-gray-700">
        <li className="flex items-start gap-2 rounded-md bg-primary-50 p-3">
          <CalendarClock aria-hidden="true" className="h-5 w-5 shrink-0 text-primary-600" />
          {deadline.data ? (
            <span>
              Date limite de revue : <strong>{formatDate(deadline.data.end_date)}</strong> (campagne « {deadline.data.campaign_name} »,{' '}
              {deadline.data.pending_count} droit(s) en attente).
            </span>
          ) : (
            <span>{deadline.isPending ? 'Date limite de revue : …' : 'Aucun droit en attente de votre revue.'}</span>
          )}
        </li>
        <li className="flex items-start gap-2 rounded-md bg-primary-50 p-3">
          <Info aria-hidden="true" className="h-5 w-5 shrink-0 text-primary-600" />
          <span>Les droits refusés sont automatiquement transmis au Responsable d&apos;Application pour traitement.</span>
        </li>
        <li className="flex items-start gap-2 rounded-md bg-primary-50 p-3">
          <Clock aria-hidden="true" className="h-5 w-5 shrink-0 text-primary-600" />
          <span>Toutes les actions sont horodatées et conservées comme preuves d&apos;audit.</span>
        </li>
      </ul>
    </div>
  )
}
