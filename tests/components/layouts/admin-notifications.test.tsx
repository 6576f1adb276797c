import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { AppHeader } from '@/app/layouts/AppHeader'
import type { Role } from '@/domain/labels'
import { makeUser } from '../support/fake-auth'

// Admin and rssi get the bell SPEC §2 puts in every header; it counts the campaigns still active
// past their end date and the e-mails given up, and leads to the first that waits. The API answers admin_alerts as
// the RPC does (one object; tests/api/admin-alerts.test.ts reads the real one); the neighbours stubbed are the other
// counts the bells say.
const counts = vi.hoisted(() => ({ overdue: 0, failed: 0, queue: 3 }))

vi.mock('@/lib/supabase', async () => {
  const { withFakeRealtime } = await import('../support/fake-realtime')
  const client = withFakeRealtime({
    async rpc(name: string) {
      if (name !== 'admin_alerts') throw new Error(`unexpected rpc ${name}`)
      return { data: { overdue_campaigns: counts.overdue }, error: null }
    },
  })
  return { getSupabase: () => client }
})
vi.mock('@/features/notifications/api', () => ({ useOutbox: () => ({ data: { failed: counts.failed } }) }))
vi.mock('@/features/reviews/api', () => ({ useReviewQueueCount: () => ({ data: counts.queue }) }))

function headerFor(role: Role) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/app/dashboard']}>
        <Routes>
          <Route
            path="/app/dashboard"
            element={<AppHeader user={makeUser(role)} mobileMenuOpen={false} mobileMenuId="menu" onToggleMobileMenu={() => {}} onLogout={() => {}} />}
          />
          <Route path="/app/campaigns" element={<h1>Campagnes</h1>} />
          <Route path="/app/notifications" element={<h1>Envois d'e-mails</h1>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  )
  return queryClient
}

/** The bell once its label says `name`: the alerts arrive after the first render. */
async function bellNamed(name: string) {
  const bell = screen.getByRole('link', { name: /^Notifications/ })
  await waitFor(() => expect(bell).toHaveAccessibleName(name))
  return bell
}

describe('The bell of admin and rssi', () => {
  it.each(['admin', 'rssi'] as const)('tells %s how many campaigns are left running past their end date, and leads to them', async (role) => {
    counts.overdue = 2
    counts.failed = 3
    headerFor(role)
    const bell = await bellNamed('Notifications : 2 campagnes échues encore actives, 3 e-mails en échec')
    expect(screen.getByTestId('notifications-count')).toHaveTextContent('5')
    await userEvent.setup().click(bell)
    expect(screen.getByRole('heading', { name: 'Campagnes' })).toBeInTheDocument()
  })

  it('says one campaign in the singular', async () => {
    counts.overdue = 1
    counts.failed = 0
    headerFor('admin')
    await bellNamed('Notifications : 1 campagne échue encore active')
  })

  it('leads to the e-mails given up when no campaign waits', async () => {
    counts.overdue = 0
    counts.failed = 1
    headerFor('rssi')
    const bell = await bellNamed('Notifications : 1 e-mail en échec')
    await userEvent.setup().click(bell)
    expect(screen.getByRole('heading', { name: "Envois d'e-mails" })).toBeInTheDocument()
  })

  it('shows no count when nothing waits', async () => {
    counts.overdue = 0
    counts.failed = 0
    const queryClient = headerFor('rssi')
    await waitFor(() => expect(queryClient.getQueryCache().getAll().map((query) => query.state.status)).toEqual(['success']))
    expect(screen.getByRole('link', { name: /^Notifications/ })).toHaveAccessibleName('Notifications : rien en attente')
    expect(screen.queryByTestId('notifications-count')).not.toBeInTheDocument()
  })

  it('keeps the reviewers’ bell on their queue', () => {
    counts.overdue = 2
    headerFor('manager')
    expect(screen.getByRole('link', { name: /^Notifications/ })).toHaveAccessibleName('Notifications : mes revues, 3 droits en attente de ma décision')
  })
})
