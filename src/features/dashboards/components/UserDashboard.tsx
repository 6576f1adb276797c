import type { ReactNode } from 'react'
import { CalendarClock, Clock, Info, UserCheck } from 'lucide-react'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { useCurrentUser } from '@/auth/auth-context'
import { formatDate } from '@/lib/dates'
import { countText } from '@/domain/plural'
import { useReviewDeadline, useReviewQueueSummary, useRightsSummary } from '../api'
import { confidedCount } from '../model'
import { ReviewerQueueCard } from './ReviewerQueueCard'
import { RightsCounters } from './RightsCounters'

/**
 * SPEC §2's user view on live data: counters, 'Droits à revoir' (the holder's rights with their decision buttons,
 * composed by the route) and the info notes. The other reviewers who land here (BPO Métier, BPO Groupe, RA) see their
 * queue first: it is their work, and the rights they hold themselves come after it.
 */
export function UserDashboard({ rightsToReview }: { rightsToReview: ReactNode }) {
  const summary = useRightsSummary()
  const deadline = useReviewDeadline()
  const reviewer = useCurrentUser().role !== 'user'
  // A reviewer who holds no right has nothing of their own to review: their queue is the whole page, and a note about
  // their own rights' deadline would read as if nothing awaited them.
  const ownRights = !reviewer || summary.data === undefined || summary.data.rights_count > 0
  // A holder may be a delegate or a fallback reviewer: what they decide for others counts in the bell, and is said here
  // (a reviewer's queue card lists it already).
  const confided = confidedCount(useReviewQueueSummary().data ?? [])

  return (
    <div className="space-y-6">
      {reviewer && <ReviewerQueueCard />}
      {ownRights && (
        <>
          {reviewer && <h2 className="text-lg font-semibold text-gray-900">Mes propres droits</h2>}
          <RightsCounters counts={summary.data} className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-6" />
          {summary.error && <ErrorBox message={summary.error.message} />}

          <Card>
            <CardHeader>
              <CardTitle>Droits à revoir</CardTitle>
            </CardHeader>
            <CardContent className="p-0">{rightsToReview}</CardContent>
          </Card>
        </>
      )}

      <ul aria-label="Informations" className="space-y-2 text-sm text-gray-700">
        {ownRights && (
          <li className="flex items-start gap-2 rounded-md bg-primary-50 p-3">
            <CalendarClock aria-hidden="true" className="h-5 w-5 shrink-0 text-primary-600" />
            {deadline.data ? (
              <span>
                Date limite de revue : <strong>{formatDate(deadline.data.end_date)}</strong> (campagne « {deadline.data.campaign_name} »,{' '}
                {countText(deadline.data.pending_count, 'droit en attente', 'droits en attente')}).
              </span>
            ) : (
              <span>{deadline.isPending ? 'Date limite de revue : …' : 'Aucun de vos droits n’attend votre revue.'}</span>
            )}
          </li>
        )}
        {!reviewer && confided > 0 && (
          <li className="flex items-start gap-2 rounded-md bg-primary-50 p-3">
            <UserCheck aria-hidden="true" className="h-5 w-5 shrink-0 text-primary-600" />
            <span>
              {countText(confided, 'droit qui vous est confié attend', 'droits qui vous sont confiés attendent')} aussi votre décision (délégation ou
              relecteur de secours), dans Mes revues.
            </span>
          </li>
        )}
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
