import { fireEvent, render, screen } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { MemoryRouter } from 'react-router-dom'

// Rendering fifteen hundred rows takes seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000 })

// The neighbour stubbed here is the supabase-js client, answering at most 1000 rows per request as the API does,
// so that the feature's api.ts pages for real.
const backend = vi.hoisted(() => ({ client: null as unknown }))
vi.mock('@/lib/supabase', () => ({ getSupabase: () => backend.client }))

const { createPagedSupabase } = await import('../../unit/support/paged-supabase')
const { UsersPage } = await import('@/features/users/UsersPage')

const person = (index: number, role: string) => ({
  id: `user-${String(index).padStart(4, '0')}`,
  email: `personne${index}@example.com`,
  first_name: 'Personne',
  last_name: `N${String(index).padStart(4, '0')}`,
  role,
  position: null,
  department: null,
  manager_id: null,
  last_login: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  manager: null,
})

beforeEach(() => {
  // 1,500 people; the last manager comes after the first page of the API.
  const people = Array.from({ length: 1500 }, (_, index) => person(index, index === 3 || index === 1450 ? 'manager' : 'user'))
  backend.client = createPagedSupabase({ users: people }).client
})

it('lists all 1,500 people, says how many, and offers a manager found after the first 1000', async () => {
  render(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <UsersPage title="Utilisateurs" currentUserId="user-0000" />
      </QueryClientProvider>
    </MemoryRouter>,
  )
  expect(await screen.findByText('1 500 utilisateurs', {}, { timeout: 30_000 })).toBeInTheDocument()
  // Role and label queries look at every element: far too slow over 1,500 rows, so the page is read through the DOM.
  expect(document.querySelectorAll('table tbody tr')).toHaveLength(1500)
  expect(screen.getByText('personne1499@example.com')).toBeInTheDocument()

  fireEvent.click(document.querySelector('[aria-label="Modifier Personne N0000"]')!)
  const options = Array.from(document.querySelector<HTMLSelectElement>('[role="dialog"] select[name="manager_id"]')!.options, (option) => option.text)
  expect(options).toEqual(['Aucun manager', 'Personne N0003', 'Personne N1450'])
})
