import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider, queryOptions } from '@tanstack/react-query'
import { UnverifiedRemovalsTile } from '@/features/dashboards/removals/UnverifiedRemovalsTile'
import type { UnverifiedRemovals } from '@/features/dashboards/removals/model'

// The RSSI's « Suppressions non constatées »: how many removals are still present past their delay, the oldest's
// age, and the list behind the figure. The API is stubbed with what PostgREST would answer from right_removals.
const stubs = vi.hoisted(() => ({ removals: vi.fn() }))
vi.mock('@/features/dashboards/removals/api', () => ({
  unverifiedRemovalsQuery: () => queryOptions({ queryKey: ['unverified'], queryFn: () => stubs.removals() as Promise<UnverifiedRemovals> }),
}))

const TODAY = new Date('2026-11-21T10:00:00Z')

function renderTile() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <ul>
        <UnverifiedRemovalsTile today={TODAY} />
      </ul>
    </QueryClientProvider>,
  )
}

const row = (overrides: Partial<UnverifiedRemovals['rows'][number]>): UnverifiedRemovals['rows'][number] => ({
  id: 'rm-1',
  application_name: 'SAP Finance',
  holder_name: 'Julie Martin',
  holder_email: 'user@example.com',
  role_name: 'Comptable',
  method: 'ticket',
  ticket: 'INC-1234',
  requested_at: '2026-09-01T09:00:00Z',
  requested_by_name: 'Nadia Moreau',
  due_at: '2026-10-01T09:00:00Z',
  unverified_at: '2026-10-02T03:00:00Z',
  apply_outcome: null,
  apply_message: null,
  ...overrides,
})

describe('Suppressions non constatées', () => {
  it('counts them, says how old the oldest request is, and opens their list', async () => {
    stubs.removals.mockResolvedValue({
      count: 2,
      rows: [row({}), row({ id: 'rm-2', holder_name: 'Paul Girard', method: 'connector', ticket: null, apply_outcome: 'failed', requested_at: '2026-10-10T09:00:00Z' })],
    })
    renderTile()
    const tile = await screen.findByRole('button', { name: 'Suppressions non constatées 2, voir la liste' })
    expect(screen.getByText(/la plus ancienne demandée il y a 81 jours/)).toBeInTheDocument()
    await userEvent.click(tile)
    const dialog = await screen.findByRole('dialog', { name: 'Suppressions non constatées' })
    const rows = within(dialog).getAllByRole('row').slice(1)
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual(['Julie Martinuser@example.com', 'Paul Girarduser@example.com'])
    expect(within(rows[0]!).getByText('Ticket INC-1234')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('Connecteur (échec du retrait)')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('42 jours')).toBeInTheDocument()
  })

  it('shows a green zero when every removal was seen', async () => {
    stubs.removals.mockResolvedValue({ count: 0, rows: [] })
    renderTile()
    await screen.findByRole('button', { name: 'Suppressions non constatées 0, voir la liste' })
    expect(screen.getByText(/Aucune suppression demandée n’est encore présente/)).toBeInTheDocument()
  })
})
