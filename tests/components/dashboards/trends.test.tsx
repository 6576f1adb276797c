import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { RssiTrends as Trends } from '@/features/dashboards/components/charts/model'

// Issue 17, point 11: the RSSI dashboard's charts and their text alternatives. The API answers rssi_trends.
const api = vi.hoisted(() => ({ trends: null as unknown }))

vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    async rpc(name: string) {
      if (name !== 'rssi_trends') throw new Error(`unexpected rpc ${name}`)
      return { data: api.trends, error: null }
    },
  }),
}))

const { RssiTrends } = await import('@/features/dashboards/components/charts/RssiTrends')

function show(trends: Trends) {
  api.trends = trends
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={queryClient}>
      <RssiTrends />
    </QueryClientProvider>,
  )
  return userEvent.setup()
}

const twoCampaigns: Trends = {
  as_of: '2026-11-24T09:00:00Z',
  campaigns: [
    { id: 'c1', name: 'Revue annuelle 2025', status: 'completed', point_date: '2025-11-15', total_items: 40, validated_items: 29, validation_rate: 73, at_risk_items: 12 },
    { id: 'c2', name: 'Revue T4 2026', status: 'active', point_date: '2026-11-24', total_items: 30, validated_items: 6, validation_rate: 20, at_risk_items: 1 },
  ],
  stages: [
    { stage: 'manager', decided: 8, waiting: 22 },
    { stage: 'bpo_metier', decided: 3, waiting: 2 },
    { stage: 'bpo_groupe', decided: 1, waiting: 1 },
    { stage: 'ra', decided: 0, waiting: 2 },
  ],
}

describe('RSSI trends', () => {
  it('says in a sentence how compliance and accounts at risk went from one campaign to the next', async () => {
    show(twoCampaigns)
    const figure = await screen.findByRole('figure', { name: /taux de conformité passe/ })
    expect(figure).toHaveAccessibleName(
      'De « Revue annuelle 2025 » (15 novembre 2025) à « Revue T4 2026 » (en cours), le taux de conformité passe de 73% à 20% et les comptes à risque de 12 à 1.',
    )
  })

  it('gives every figure a chart draws in a table', async () => {
    const user = show(twoCampaigns)
    await screen.findByRole('figure', { name: /taux de conformité passe/ })
    for (const summary of screen.getAllByText('Voir les données')) await user.click(summary)
    const trend = screen.getByRole('table', { name: 'Évolution de la conformité par campagne' })
    expect(within(trend).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'CampagneDateTaux de conformitéComptes à risqueDroits revus',
      'Revue annuelle 202515 novembre 202573%1240',
      'Revue T4 2026en cours20%130',
    ])
    const stages = screen.getByRole('table', { name: 'Avancement des campagnes en cours par étape' })
    expect(within(stages).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'ÉtapeDécidésEn attente',
      'Manager822',
      'BPO Métier32',
      'BPO Groupe11',
      'RA (traitement)02',
    ])
    expect(screen.getByRole('figure', { name: /par étape/ })).toHaveAccessibleName(
      'Campagnes en cours, par étape. Manager : 8 droits décidés, 22 en attente ; BPO Métier : 3 droits décidés, 2 en attente ; BPO Groupe : 1 droit décidé, 1 en attente ; RA (traitement) : 0 droit décidé, 2 en attente.',
    )
  })

  it('says so when there is nothing to draw yet', async () => {
    show({ as_of: '2026-11-24T09:00:00Z', campaigns: [], stages: twoCampaigns.stages.map((s) => ({ ...s, decided: 0, waiting: 0 })) })
    expect(await screen.findByRole('figure', { name: 'Aucune campagne démarrée : pas encore de tendance.' })).toBeInTheDocument()
    expect(screen.getByRole('figure', { name: 'Aucune campagne en cours : aucun droit à revoir.' })).toBeInTheDocument()
  })
})
