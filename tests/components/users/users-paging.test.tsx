import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router-dom'
import type { UserRow } from '@/features/users/model'
import type { PageRequest } from '@/lib/paging'

// The neighbour stubbed here is the feature's api.ts, answering each page request as the server would (search, sort,
// range and total over 120 people), so that what is checked is what the page asks for and how it shows the answer.
const server = vi.hoisted(() => ({ requests: [] as PageRequest<string>[] }))

const person = (index: number): UserRow => ({
  id: `user-${String(index).padStart(3, '0')}`,
  email: `p${String(index).padStart(3, '0')}@example.com`,
  first_name: 'Personne',
  last_name: `N${String(index).padStart(3, '0')}`,
  role: 'user',
  position: null,
  department: index % 10 === 0 ? 'Finance' : 'Ventes',
  manager_id: null,
  last_login: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  manager: null,
})
const people = Array.from({ length: 120 }, (_, index) => person(index))

vi.mock('@/features/users/api', () => ({
  MANAGER_CHOICES: 20,
  useUsersPage: (request: PageRequest<'name' | 'email'>) => {
    server.requests.push(request)
    const found = people.filter((user) => `${user.last_name} ${user.department}`.toLowerCase().includes(request.search.trim().toLowerCase()))
    const key = (user: UserRow) => (request.sort === 'email' ? user.email : user.last_name)
    const sorted = [...found].sort((a, b) => key(a).localeCompare(key(b)) * (request.direction === 'asc' ? 1 : -1))
    const from = request.page * request.size
    return { isPending: false, isError: false, data: { rows: sorted.slice(from, from + request.size), total: found.length } }
  },
  useUser: () => ({ isError: false, data: undefined }),
  useManagerChoices: () => ({ data: { rows: [], total: 0 } }),
  useSaveUser: () => ({}),
  useDeleteUser: () => ({}),
}))

const { UsersPage } = await import('@/features/users/UsersPage')

beforeEach(() => {
  server.requests = []
})

function renderPage() {
  render(
    <MemoryRouter>
      <UsersPage title="Utilisateurs" currentUserId="admin" />
    </MemoryRouter>,
  )
  return userEvent.setup()
}

const bodyRows = () => within(screen.getByRole('table', { name: 'Utilisateurs' })).getAllByRole('row').slice(1)
const firstEmail = () => within(bodyRows()[0]!).getAllByRole('cell')[1]!.textContent

describe('the users page, paged on the server', () => {
  it('shows the first 50 with the total, then the next page', async () => {
    const user = renderPage()
    expect(screen.getByRole('status')).toHaveTextContent('1–50 sur 120 utilisateurs')
    expect(bodyRows()).toHaveLength(50)
    expect(screen.getByRole('button', { name: 'Page précédente' })).toBeDisabled()

    await user.click(screen.getByRole('button', { name: 'Page suivante' }))
    expect(screen.getByRole('status')).toHaveTextContent('51–100 sur 120 utilisateurs')
    expect(firstEmail()).toBe('p050@example.com')
    await user.click(screen.getByRole('button', { name: 'Page suivante' }))
    expect(screen.getByRole('status')).toHaveTextContent('101–120 sur 120 utilisateurs')
    expect(bodyRows()).toHaveLength(20)
    expect(screen.getByRole('button', { name: 'Page suivante' })).toBeDisabled()
  })

  it('changes the page size and goes back to the first page', async () => {
    const user = renderPage()
    await user.click(screen.getByRole('button', { name: 'Page suivante' }))
    await user.selectOptions(screen.getByLabelText('Lignes par page'), '100')
    expect(screen.getByRole('status')).toHaveTextContent('1–100 sur 120 utilisateurs')
    expect(bodyRows()).toHaveLength(100)
  })

  it('sorts on a column header, says so with aria-sort, and reverses on a second click', async () => {
    const user = renderPage()
    const nameHeader = screen.getByRole('columnheader', { name: 'Nom' })
    const emailHeader = screen.getByRole('columnheader', { name: 'Email' })
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending')
    expect(emailHeader).toHaveAttribute('aria-sort', 'none')

    await user.click(within(emailHeader).getByRole('button', { name: 'Email' }))
    expect(emailHeader).toHaveAttribute('aria-sort', 'ascending')
    expect(nameHeader).toHaveAttribute('aria-sort', 'none')
    await user.click(within(emailHeader).getByRole('button', { name: 'Email' }))
    expect(emailHeader).toHaveAttribute('aria-sort', 'descending')
    expect(firstEmail()).toBe('p119@example.com')
    expect(server.requests.at(-1)).toMatchObject({ sort: 'email', direction: 'desc', page: 0 })
  })

  it('searches once typing pauses, with the total found', async () => {
    const user = renderPage()
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher un utilisateur' }), 'finance')
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('1–12 sur 12 utilisateurs'))
    expect(server.requests.at(-1)).toMatchObject({ search: 'finance', page: 0 })

    await user.clear(screen.getByRole('searchbox', { name: 'Rechercher un utilisateur' }))
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher un utilisateur' }), 'personne inconnue')
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('0 utilisateur'))
    expect(screen.getByText('Aucun utilisateur ne correspond à la recherche')).toBeInTheDocument()
  })
})
