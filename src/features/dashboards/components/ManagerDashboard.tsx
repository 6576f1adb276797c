import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import { buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { countText } from '@/domain/plural'
import { useAwaitingRights, useReviewQueueSummary, useTeamSummary } from '../api'
import { confidedCount, type AwaitingRight } from '../model'
import { Counter } from './Counter'
import { AwaitingRightsTable } from './AwaitingRightsTable'
import { RightsCounters } from './RightsCounters'

const awaitingText = (count: number) => countText(count, 'droit en attente', 'droits en attente')

/** The team's rights awaiting the manager, then those confided to them: together, the header bell's count. */
function awaitingDescription(total: number, shown: number, confided: number): string {
  if (total === 0 && confided === 0) return 'Rien en attente de votre décision.'
  const team = shown < total ? `${shown} sur ${awaitingText(total)} de votre décision.` : `${awaitingText(total)} de votre décision.`
  if (confided === 0) return team
  const others = `${countText(confided, 'droit qui vous est confié', 'droits qui vous sont confiés')} (délégation ou relecteur de secours), dans Mes revues.`
  return total === 0 ? `Rien pour l’équipe, et ${others}` : `${team} Et ${others}`
}

/**
 * SPEC §2's manager view on live data (ARCHITECTURE §6): counters over the whole team computed in Postgres, the first
 * rights awaiting the manager (with the decision buttons the route supplies, and all of them in Mes revues) and the
 * team's progress.
 */
interface ManagerDashboardProps {
  /** The decision buttons of a row of the awaiting rights (the reviews feature owns decisions). */
  renderActions?: (right: AwaitingRight) => ReactNode
  /** The team's progress, person by person (the team feature's card). */
  teamProgress: ReactNode
}

export function ManagerDashboard({ renderActions, teamProgress }: ManagerDashboardProps) {
  const summary = useTeamSummary()
  const awaiting = useAwaitingRights()
  const total = summary.data?.awaiting_decision_count
  const shown = awaiting.data?.length ?? 0
  // The rights confided to the manager are not the team's: counted apart, they make up the bell's count with the team's.
  const queueSummary = useReviewQueueSummary()

  return (
    <div className="space-y-6">
      <RightsCounters counts={summary.data} className="grid grid-cols-2 gap-4 sm:grid-cols-4 xl:grid-cols-7">
        <Counter label="Équipe" value={summary.data?.team_size} />
      </RightsCounters>
      {summary.error && <ErrorBox message={summary.error.message} />}

      <Card>
        <CardHeader className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <CardTitle>Droits à valider pour l&apos;équipe</CardTitle>
            {total !== undefined && awaiting.data && !queueSummary.isPending && (
              <CardDescription>{awaitingDescription(total, shown, confidedCount(queueSummary.data ?? []))}</CardDescription>
            )}
          </div>
          <Link to="/app/reviews" className={buttonClasses({ variant: 'primary', size: 'sm' })}>
            Traiter dans Mes revues
          </Link>
        </CardHeader>
        <CardContent className="p-0">
          {awaiting.isPending ? (
            <Spinner className="py-8" />
          ) : awaiting.error ? (
            <ErrorBox className="m-4" message={awaiting.error.message} />
          ) : (
            <AwaitingRightsTable rights={awaiting.data} renderActions={renderActions} />
          )}
        </CardContent>
      </Card>

      {teamProgress}
    </div>
  )
}
