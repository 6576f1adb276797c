import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { AuthContext, type AuthContextValue } from '@/auth/auth-context'
import type { RunningCampaign } from '@/features/campaigns/burndown-model'
import { makeUser } from '../support/fake-auth'

// A running campaign's decisions per day against its deadline, with its text alternatives, under
// the Campagnes list. The API answers the running campaigns (status=eq.active) and campaign_burndown for the one asked.
const api = vi.hoisted(() => ({ running: [] as unknown[], days: {} as Record<string, unknown[]>, asked: [] as string[], filters: [] as string[] }))

vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    from(table: string) {
      if (table !== 'campaigns') throw new Error(`unexpected table ${table}`)
      const query = {
        select: () => query,
        eq: (column: string, value: string) => (api.filters.push(`${column}=${value}`), query),
        order: () => query,
        range: async () => ({ data: api.running, error: null }),
      }
      return query
    },
    async rpc(name: string, args: { p_campaign_id: string }) {
      if (name !== 'campaign_burndown') throw new Error(`unexpected rpc ${name}`)
      api.asked.push(args.p_campaign_id)
      return { data: api.days[args.p_campaign_id] ?? [], error: null }
    },
  }),
}))

const { CampaignBurndown } = await import('@/features/campaigns/CampaignBurndown')

const campaign = (id: string): RunningCampaign => ({ id, name: `Campagne ${id}`, start_date: '2026-11-01', end_date: '2026-11-05' })

// PostgREST sends numeric as text: the ideal line arrives as strings.
const row = (day: string, decisions: number | null, remaining: number | null, ideal: string) => ({ day, decisions, remaining, ideal })

function show(running: RunningCampaign[]) {
  api.running = running
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  // An administrator: their role's live topic carries every campaign's progress, so no campaign topic is joined.
  render(
    <AuthContext.Provider value={{ status: 'authenticated', user: makeUser('admin') } as AuthContextValue}>
      <QueryClientProvider client={queryClient}>
        <CampaignBurndown />
      </QueryClientProvider>
    </AuthContext.Provider>,
  )
  return userEvent.setup()
}

beforeEach(() => {
  api.asked = []
  api.filters = []
  api.days = {
    late: [
      row('2026-11-01', 1, 9, '10.0'),
      row('2026-11-02', 2, 7, '7.5'),
      row('2026-11-03', 1, 6, '5.0'),
      row('2026-11-04', null, null, '2.5'),
      row('2026-11-05', null, null, '0.0'),
    ],
    ahead: [row('2026-11-01', 6, 4, '10.0'), row('2026-11-02', 4, 0, '7.5')],
  }
})

describe('Campaign burndown', () => {
  it('says where a running campaign stands against its deadline, and gives the days drawn in a table', async () => {
    const user = show([campaign('late')])
    const figure = await screen.findByRole('figure', { name: /^Campagne late/ })
    expect(api.filters).toEqual(['status=active'])
    expect(figure).toHaveAccessibleName(
      'Campagne late : 4 décisions depuis le 1er novembre 2026 ; 6 droits restent sans décision au 3 novembre 2026, pour une échéance au 5 novembre 2026. C’est en retard sur le rythme régulier, qui en laisserait 5.',
    )
    await user.click(screen.getByText('Voir les données'))
    const table = screen.getByRole('table', { name: 'Avancement jour par jour de Campagne late' })
    expect(within(table).getAllByRole('row').map((r) => r.textContent)).toEqual([
      'JourDécisions du jourDroits sans décisionRythme régulier',
      '1er novembre 20261910',
      '2 novembre 2026278',
      '3 novembre 2026165',
    ])
  })

  it('switches between running campaigns, and says when one is done', async () => {
    const user = show([campaign('late'), campaign('ahead')])
    await screen.findByRole('figure', { name: /^Campagne late/ })
    await user.selectOptions(screen.getByRole('combobox', { name: 'Campagne' }), 'Campagne ahead')
    expect(await screen.findByRole('figure', { name: /^Campagne ahead/ })).toHaveAccessibleName(
      'Campagne ahead : 10 décisions depuis le 1er novembre 2026 ; 0 droit reste sans décision au 2 novembre 2026, pour une échéance au 5 novembre 2026. Tous les droits ont reçu une décision.',
    )
    expect(api.asked).toEqual(['late', 'ahead'])
  })

  it('draws nothing when no campaign runs', async () => {
    show([])
    await vi.waitFor(() => expect(api.filters).toEqual(['status=active']))
    expect(screen.queryByRole('figure')).not.toBeInTheDocument()
    expect(api.asked).toEqual([])
  })
})
