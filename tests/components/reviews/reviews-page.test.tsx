import { render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { vi } from 'vitest'
import type { QueueItem } from '@/features/reviews/model'
import { makeQueueItem, RECENTLY_USED } from '../support/queue-items'

// The neighbour stubbed is the supabase-js client, answering rpc('review_queue') like the SQL function: rights in
// right_id order after p_after_id, at most p_limit of them. The second page is held back until the test releases it.
const queue: QueueItem[] = Array.from({ length: 1250 }, (_, index) =>
  makeQueueItem(`r-${String(index).padStart(5, '0')}`, {
    ...RECENTLY_USED,
    holder_id: `h-${index % 40}`,
    holder_name: `Personne ${String(index % 40).padStart(2, '0')}`,
    holder_email: `personne${index % 40}@example.com`,
    application_id: 'app-sap',
    application_name: 'SAP Finance',
    role_name: `Rôle ${index}`,
    granted_at: '2024-01-01T00:00:00Z',
    campaign_id: 'c-1',
    campaign_name: 'Revue T4',
  }),
)
const calls: { p_after_id?: string; p_limit: number }[] = []
let releaseRest: () => void = () => {}
const restReleased = new Promise<void>((resolve) => (releaseRest = resolve))

vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    async rpc(name: string, args: { p_after_id?: string; p_limit: number }) {
      if (name !== 'review_queue') throw new Error(`unexpected rpc ${name}`)
      calls.push(args)
      if (args.p_after_id) await restReleased
      const after = queue.filter((item) => !args.p_after_id || item.right_id > args.p_after_id)
      return { data: after.slice(0, args.p_limit), error: null }
    },
  }),
}))

const { ReviewsPage } = await import('@/features/reviews/components/ReviewsPage')

it('shows the first rights at once and the rest of a long queue as it arrives, page by page, with none lost', async () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={queryClient}>
      <ReviewsPage decide={vi.fn()} />
    </QueryClientProvider>,
  )
  expect(await screen.findByText('Chargement de la suite de la file… 100 droits chargés.')).toBeInTheDocument()
  expect(screen.getAllByRole('checkbox', { name: /SAP Finance — Rôle/ }).length).toBeGreaterThan(0)

  releaseRest()
  await waitFor(() => expect(screen.queryByText(/Chargement de la suite/)).not.toBeInTheDocument())
  expect(screen.getByText(/— 1\s250 droits/)).toBeInTheDocument()
  expect(calls.map((call) => call.p_limit)).toEqual([100, 1000, 1000])
  expect(calls.map((call) => call.p_after_id)).toEqual([undefined, 'r-00099', 'r-01099'])
}, 15_000)
