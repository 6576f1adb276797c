import { lazy, useState } from 'react'
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/Card'
import { ChartFigure } from '@/components/ui/ChartFigure'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { SelectField } from '@/components/ui/SelectField'
import { Spinner } from '@/components/ui/Spinner'
import { useCurrentUser } from '@/auth/auth-context'
import { formatDate } from '@/lib/dates'
import { useLiveCampaign } from '@/lib/realtime'
import { useCampaignBurndown, useRunningCampaigns } from './api'
import { burndownSummary, type RunningCampaign } from './burndown-model'

// The chart library arrives with the first chart drawn, never with the campaigns page's own code.
const BurndownChart = lazy(() => import('./BurndownChart'))

/**
 * The running campaigns' burndown, under the Campagnes list: decisions per day against the
 * deadline, one running campaign at a time, whatever page of the list is on screen. Nothing when no campaign runs.
 */
export function CampaignBurndown() {
  const running = useRunningCampaigns()
  const [chosenId, setChosenId] = useState<string | null>(null)
  if (running.isError) return <ErrorBox className="mt-6" message={running.error.message} />
  const campaigns = running.data ?? []
  const campaign = campaigns.find((candidate) => candidate.id === chosenId) ?? campaigns[0]
  if (!campaign) return null
  return (
    <Card className="mt-6">
      <CardHeader className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold text-gray-900">Avancement de la campagne en cours</h2>
          <CardDescription>
            Décisions par jour et droits restant à décider, face au rythme qui tient l’échéance du {formatDate(campaign.end_date)}.
          </CardDescription>
        </div>
        {campaigns.length > 1 && (
          <SelectField label="Campagne" value={campaign.id} onChange={(event) => setChosenId(event.target.value)} className="min-w-56">
            {campaigns.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name}
              </option>
            ))}
          </SelectField>
        )}
      </CardHeader>
      <CardContent>
        <BurndownFigure campaign={campaign} />
      </CardContent>
    </Card>
  )
}

function BurndownFigure({ campaign }: { campaign: RunningCampaign }) {
  const burndown = useCampaignBurndown(campaign.id)
  // Every decision in the campaign moves the chart, not only those on the person's own topic.
  const person = useCurrentUser()
  useLiveCampaign(campaign.id, person)
  if (burndown.isPending) return <Spinner />
  if (burndown.isError) return <ErrorBox message={burndown.error.message} />
  const days = burndown.data
  return (
    <ChartFigure
      title={`Avancement jour par jour de ${campaign.name}`}
      summary={`${campaign.name} : ${burndownSummary(days, campaign.end_date)}`}
      columns={['Jour', 'Décisions du jour', 'Droits sans décision', 'Rythme régulier']}
      rows={days
        .filter((day) => day.remaining !== null)
        .map((day) => [formatDate(day.day), day.decisions ?? 0, day.remaining ?? 0, Math.round(day.ideal)])}
    >
      <BurndownChart days={days} />
    </ChartFigure>
  )
}
