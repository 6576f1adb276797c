import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { RssiTrends as Trends } from '@/features/dashboards/components/charts/model'
import { defaultFilters, type DashboardFilters } from '@/features/dashboards/model'

// The RSSI dashboard's charts, their text alternatives, and the period and filters they
// follow. The API answers rssi_trends and records what it was asked.
const api = vi.hoisted(() => ({ trends: null as unknown, calls: [] as unknown[] }))

vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    async rpc(name: string, args: unknown) {
      if (name !== 'rssi_trends') throw new Error(`unexpected rpc ${name}`)
      api.calls.push(args)
      return { data: api.trends, error: null }
    },
  }),
}))

const { RssiTrends } = await import('@/features/dashboards/components/charts/RssiTrends')

const november: DashboardFilters = { ...defaultFilters(new Date(2026, 10, 24)) }

function show(trends: Trends, filters: DashboardFilters = november) {
  api.trends = trends
  api.calls = []
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RssiTrends filters={filters} />
    </QueryClientProvider>,
  )
  const rerender = (next: DashboardFilters) =>
    view.rerender(
      <QueryClientProvider client={queryClient}>
        <RssiTrends filters={next} />
      </QueryClientProvider>,
    )
  return { user: userEvent.setup(), rerender }
}

const twoCampaigns: Trends = {
  as_of: '2026-11-24T09:00:00Z',
  campaigns: [
    {
      id: 'c1', name: 'Revue annuelle 2025', status: 'completed', point_date: '2025-11-15', total_items: 40, validated_items: 29, validation_rate: 73,
      reviewed_items: 31, undecided_items: 9, review_rate: 78, at_risk_items: 12,
    },
    {
      id: 'c2', name: 'Revue T4 2026', status: 'active', point_date: '2026-11-24', total_items: 30, validated_items: 6, validation_rate: 20,
      reviewed_items: 8, undecided_items: 0, review_rate: 27, at_risk_items: 1,
    },
  ],
  stages: [
    { stage: 'manager', decided: 8, waiting: 22 },
    { stage: 'bpo_metier', decided: 3, waiting: 2 },
    { stage: 'bpo_groupe', decided: 1, waiting: 1 },
    { stage: 'ra', decided: 0, waiting: 2 },
  ],
  days: [
    { day: '2026-11-22', approved: 2, refused: 1 },
    { day: '2026-11-23', approved: 0, refused: 0 },
    { day: '2026-11-24', approved: 1, refused: 0 },
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
    const { user } = show(twoCampaigns)
    await screen.findByRole('figure', { name: /taux de conformité passe/ })
    for (const summary of screen.getAllByText('Voir les données')) await user.click(summary)
    const trend = screen.getByRole('table', { name: 'Évolution de la conformité par campagne' })
    expect(within(trend).getAllByRole('row').map((row) => row.textContent)).toEqual([
      // The items, those reviewed and the review rate, as the campaign list counts them; a running campaign has no closure yet.
      'CampagneDateTaux de conformitéComptes à risqueDroitsDroits revusProgressionNon décidés à la clôture (transmis au RA)',
      'Revue annuelle 202515 novembre 202573%12403178%9',
      'Revue T4 2026en cours20%130827%-',
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
    show({
      as_of: '2026-11-24T09:00:00Z',
      campaigns: [],
      stages: twoCampaigns.stages.map((s) => ({ ...s, decided: 0, waiting: 0 })),
      days: twoCampaigns.days.map((d) => ({ ...d, approved: 0, refused: 0 })),
    })
    expect(await screen.findByRole('figure', { name: 'Aucune campagne menée sur la période : pas de tendance à montrer.' })).toBeInTheDocument()
    expect(screen.getByRole('figure', { name: 'Aucune campagne en cours : aucun droit à revoir.' })).toBeInTheDocument()
    expect(screen.getByRole('figure', { name: 'Aucune décision sur la période.' })).toBeInTheDocument()
  })

  it('draws the decisions of each day of the period, in words and in a table', async () => {
    const { user } = show(twoCampaigns)
    const figure = await screen.findByRole('figure', { name: /sur la période/ })
    expect(figure).toHaveAccessibleName(
      '4 décisions sur la période : 3 validations et 1 refus. Le 22 novembre 2026 en a compté le plus (3).',
    )
    await user.click(within(figure).getByText('Voir les données'))
    expect(within(figure).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'JourValidationsRefus',
      '22 novembre 202621',
      '23 novembre 202600',
      '24 novembre 202610',
    ])
  })

  it('asks for the dashboard’s period and filters, again when they change, and says which figures follow them', async () => {
    const { rerender } = show(twoCampaigns)
    await screen.findByRole('figure', { name: /taux de conformité passe/ })
    expect(api.calls).toEqual([{ p_from: '2026-10-24', p_to: '2026-11-24' }])
    expect(screen.getByText(/^Sur la période \(du 24 octobre 2026 au 24 novembre 2026\) : chaque campagne menée/)).toBeInTheDocument()
    expect(screen.getByText(/^À ce jour : droits des campagnes en cours/)).toBeInTheDocument()
    rerender({ ...november, period: 'semaine', from: '2026-11-17', applicationId: 'app-sap' })
    await waitFor(() => expect(api.calls).toHaveLength(2))
    expect(api.calls[1]).toEqual({ p_application_id: 'app-sap', p_from: '2026-11-17', p_to: '2026-11-24' })
    expect(await screen.findByText(/^Sur la période \(du 17 novembre 2026 au 24 novembre 2026\) : validations et refus de chaque jour ; droits retenus par les filtres\.$/)).toBeInTheDocument()
  })
})
