import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { vi } from 'vitest'
import type { QueueItem } from '@/features/reviews/model'
import { makeQueueItem } from '../support/queue-items'

// The layout asks for Mes revues's first page while the page's code is still loading (usePrefetchReviewQueue); the
// page, once there, shows that page without asking for it again. The neighbour stubbed is the supabase-js client:
// review_queue answers one right. The query client is configured as the app's (AppQueryProvider: 30 s fresh).
const right: QueueItem = makeQueueItem('r-1', {
  holder_id: 'h-1',
  holder_name: 'Julie Martin',
  holder_email: 'julie.martin@example.com',
  application_id: 'a-sap',
  application_name: 'SAP Finance',
  role_name: 'Comptable',
  granted_at: '2024-01-01T00:00:00Z',
  campaign_id: 'c-1',
  campaign_name: 'Revue T4',
})
const calls: { name: string; args: Record<string, unknown> }[] = []

vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    async rpc(name: string, args: Record<string, unknown> = {}) {
      calls.push({ name, args })
      if (name === 'review_queue') return { data: [right], error: null }
      if (name === 'review_conflicts') return { data: [], error: null }
      throw new Error(`unexpected rpc ${name}`)
    },
  }),
}))

const { usePrefetchReviewQueue } = await import('@/features/reviews/api')
const { ReviewsPage } = await import('@/features/reviews/components/ReviewsPage')

/** The layout on the way to a page: it prefetches while `opening`, and shows the page once its code has "arrived". */
function Layout({ opening }: { opening: boolean }) {
  usePrefetchReviewQueue(opening)
  const [codeArrived, setCodeArrived] = useState(false)
  return codeArrived ? <ReviewsPage decide={vi.fn()} /> : <button onClick={() => setCodeArrived(true)}>Code arrivé</button>
}

function renderLayout(opening: boolean) {
  calls.length = 0
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000, retry: false } } })
  return render(
    <QueryClientProvider client={queryClient}>
      <Layout opening={opening} />
    </QueryClientProvider>,
  )
}

const queueCalls = () => calls.filter((call) => call.name === 'review_queue').map((call) => call.args)

it('asks for the first page while Mes revues is opening, and the page shows it without asking again', async () => {
  renderLayout(true)
  // Asked during the layout's render, before anything of the page exists.
  expect(queueCalls()).toEqual([{ p_limit: 100 }])
  fireEvent.click(screen.getByRole('button', { name: 'Code arrivé' }))
  const table = await screen.findByRole('table', { name: /Droits en attente de ma décision/ })
  expect(within(table).getByText('Julie Martin')).toBeInTheDocument()
  expect(queueCalls()).toEqual([{ p_limit: 100 }])
})

it('asks for nothing on the way to another page: the queue is asked for by the page, once it is there', async () => {
  renderLayout(false)
  expect(queueCalls()).toEqual([])
  fireEvent.click(screen.getByRole('button', { name: 'Code arrivé' }))
  await waitFor(() => expect(queueCalls()).toEqual([{ p_limit: 100 }]))
})
