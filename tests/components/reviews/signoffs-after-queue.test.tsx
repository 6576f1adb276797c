import { render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { vi } from 'vitest'
import type { StageSignoff } from '@/features/reviews/delegation-model'
import type { QueueItem } from '@/features/reviews/model'
import { makeQueueItem, RECENTLY_USED } from '../support/queue-items'

// Mes revues as the route composes it: the queue, and beside it the panel of delegations and sign-offs. The neighbour
// stubbed is the supabase-js client; the queue's first page is held back until the test releases it, and every call
// is recorded by name.
const right: QueueItem = makeQueueItem('r-1', {
  ...RECENTLY_USED,
  holder_id: 'h-1',
  application_id: 'a-sap',
  application_name: 'SAP Finance',
  role_name: 'Comptable',
  granted_at: '2024-01-01T00:00:00Z',
  campaign_id: 'c-1',
  campaign_name: 'Revue T4',
})
const signoff: StageSignoff = { campaign_id: 'c-1', campaign_name: 'Revue T4', stage: 'manager', items_count: 1, open_count: 1, waiting_count: 1, upcoming_count: 0, signed_at: null }
const calls: string[] = []
let releaseQueue: () => void = () => {}
const queueReleased = new Promise<void>((resolve) => (releaseQueue = resolve))

vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    async rpc(name: string) {
      calls.push(name)
      if (name === 'review_queue') {
        await queueReleased
        return { data: [right], error: null }
      }
      if (name === 'my_signoffs') return { data: [signoff], error: null }
      if (name === 'delegated_review_queue' || name === 'my_delegations' || name === 'review_conflicts') return { data: [], error: null }
      throw new Error(`unexpected rpc ${name}`)
    },
  }),
}))

const { ReviewsPage } = await import('@/features/reviews/components/ReviewsPage')
const { DelegationPanel } = await import('@/features/reviews/components/delegation/DelegationPanel')

it('asks for the sign-offs, seconds of work on a large organisation, only once the queue’s first rows are in', async () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={queryClient}>
      <ReviewsPage decide={vi.fn()} />
      <DelegationPanel userId="m-1" />
    </QueryClientProvider>,
  )
  await waitFor(() => expect(calls).toContain('delegated_review_queue'))
  expect(calls).toContain('review_queue')
  expect(calls).not.toContain('my_signoffs')

  releaseQueue()
  expect(await screen.findByRole('checkbox', { name: /SAP Finance — Comptable/ })).toBeInTheDocument()
  expect(await screen.findByText('Attestation et délégation')).toBeInTheDocument()
  expect(calls.filter((name) => name === 'my_signoffs')).toHaveLength(1)
})
