import { lazy } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { ChartFigure } from '@/components/ui/ChartFigure'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Spinner } from '@/components/ui/Spinner'
import { UNDECIDED_AT_CLOSURE_LABEL } from '@/domain/campaign-figures'
import { formatDate } from '@/lib/dates'
import { formatRate } from '@/domain/rates'
import { useSeen } from '@/lib/use-seen'
import { rssiTrendsQuery } from '../../api'
import { activeFilterCount, periodText, type DashboardFilters } from '../../model'
import { decisionsSummary, pointDateText, STAGE_LABELS, stageSummary, trendSummary } from './model'

// The chart library arrives with the first chart drawn, never with the dashboard's own code.
const ComplianceTrendChart = lazy(() => import('./TrendCharts').then((module) => ({ default: module.ComplianceTrendChart })))
const DecisionsPerDayChart = lazy(() => import('./TrendCharts').then((module) => ({ default: module.DecisionsPerDayChart })))
const StageCompletionChart = lazy(() => import('./TrendCharts').then((module) => ({ default: module.StageCompletionChart })))

/**
 * The RSSI dashboard's pictures, under the dashboard's filters and period like every figure
 * above them: compliance and accounts at risk campaign after campaign and the decisions day by day, over the period;
 * the running campaigns' completion per stage, a state that no period changes.
 */
export function RssiTrends({ filters }: { filters: DashboardFilters }) {
  // Asked for once the section comes into view: at the bottom of the dashboard, its query would otherwise compete with
  // the figures at the top while the page loads.
  const [ref, seen] = useSeen<HTMLDivElement>()
  const trends = useQuery({ ...rssiTrendsQuery(filters), enabled: seen, placeholderData: keepPreviousData })
  if (!trends.data) {
    // Until the section is in view nothing loads, so nothing spins: an empty block the size of a chart to scroll to.
    return (
      <div ref={ref} className={seen ? undefined : 'min-h-64'}>
        {trends.isError ? <ErrorBox message={trends.error.message} /> : seen && <Spinner />}
      </div>
    )
  }
  const { campaigns, days, stages } = trends.data
  const scope = activeFilterCount(filters) > 0 ? 'droits retenus par les filtres' : 'toutes applications'
  const period = periodText(filters).toLowerCase()
  return (
    // min-w-0: a grid item may otherwise grow to its widest table and push the page sideways on a phone.
    <div className="grid gap-6 lg:grid-cols-2" aria-busy={trends.isFetching || undefined}>
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Évolution de la conformité</CardTitle>
          <CardDescription>
            Sur la période ({period}) : chaque campagne menée, à sa date de fin ou aujourd’hui si elle est en cours ; {scope}.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ChartFigure
            title="Évolution de la conformité par campagne"
            summary={trendSummary(campaigns)}
            columns={['Campagne', 'Date', 'Taux de conformité', 'Comptes à risque', 'Droits', 'Droits revus', 'Progression', UNDECIDED_AT_CLOSURE_LABEL]}
            rows={campaigns.map((point) => [
              point.name,
              pointDateText(point),
              formatRate(point.validation_rate),
              point.at_risk_items,
              point.total_items,
              point.reviewed_items,
              formatRate(point.review_rate),
              point.status === 'active' ? '-' : point.undecided_items,
            ])}
          >
            <ComplianceTrendChart points={campaigns} />
          </ChartFigure>
        </CardContent>
      </Card>
      <Card className="min-w-0">
        <CardHeader>
          <CardTitle>Avancement par étape</CardTitle>
          <CardDescription>À ce jour : droits des campagnes en cours décidés à chaque étape, et ceux qui y attendent ; {scope}.</CardDescription>
        </CardHeader>
        <CardContent>
          <ChartFigure
            title="Avancement des campagnes en cours par étape"
            summary={stageSummary(stages)}
            columns={['Étape', 'Décidés', 'En attente']}
            rows={stages.map((stage) => [STAGE_LABELS[stage.stage], stage.decided, stage.waiting])}
          >
            <StageCompletionChart stages={stages} />
          </ChartFigure>
        </CardContent>
      </Card>
      <Card className="min-w-0 lg:col-span-2">
        <CardHeader>
          <CardTitle>Décisions par jour</CardTitle>
          <CardDescription>
            Sur la période ({period}) : validations et refus de chaque jour ; {scope}.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ChartFigure
            title="Décisions par jour sur la période"
            summary={decisionsSummary(days)}
            columns={['Jour', 'Validations', 'Refus']}
            rows={days.map((day) => [formatDate(day.day), day.approved, day.refused])}
          >
            <DecisionsPerDayChart days={days} />
          </ChartFigure>
        </CardContent>
      </Card>
    </div>
  )
}
