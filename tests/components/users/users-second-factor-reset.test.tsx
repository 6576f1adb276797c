// An administrator resets another person's second factor from the Users page: the action on the rows of those who
// may hold one (never their own), a confirmation that says what follows, the server's refusal kept in the dialog, and
// a status line once done. The API module is the real one; only the client's rpc answers as the server would.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router-dom'
import { UsersPage } from '@/features/users/UsersPage'
import type { UserRow } from '@/features/users/model'

function person(id: string, first_name: string, last_name: string, role: UserRow['role']): UserRow {
  return {
    id,
    email: `${id}@example.com`,
    first_name,
    last_name,
    role,
    position: null,
    department: null,
    manager_id: null,
    last_login: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    manager: null,
  }
}

const everyone = [
  person('admin-1', 'Alice', 'Admin', 'admin'),
  person('rssi-1', 'Romane', 'Sécu', 'rssi'),
  person('ra-1', 'Rémi', 'Applis', 'ra'),
  person('mgr-1', 'Marc', 'Dubois', 'manager'),
  person('user-1', 'Ulysse', 'User', 'user'),
]

const rpc = vi.fn()
vi.mock('@/lib/supabase', () => ({ getSupabase: () => ({ rpc }) }))
vi.mock('@/features/users/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/users/api')>()),
  useUsersPage: () => ({ isPending: false, isError: false, data: { rows: everyone, total: everyone.length } }),
  useUser: () => ({ isError: false, data: undefined }),
}))

beforeEach(() => rpc.mockReset())

function renderPage(canResetSecondFactor: boolean) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
      <MemoryRouter initialEntries={['/app/users']}>
        <UsersPage title="Utilisateurs" currentUserId="admin-1" canResetSecondFactor={canResetSecondFactor} />
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

const resetButton = (name: string) => within(screen.getByRole('row', { name: new RegExp(name) })).queryByRole('button', { name: `Réinitialiser le second facteur de ${name}` })

describe('Réinitialiser le second facteur', () => {
  it('is offered on the rows of the RSSI and the RA, never on the administrator’s own row nor to a reader who is not an administrator', () => {
    const { unmount } = renderPage(true)
    expect(resetButton('Romane Sécu')).toBeInTheDocument()
    expect(resetButton('Rémi Applis')).toBeInTheDocument()
    expect(resetButton('Alice Admin')).toBeNull()
    expect(resetButton('Marc Dubois')).toBeNull()
    expect(resetButton('Ulysse User')).toBeNull()
    unmount()
    renderPage(false)
    expect(resetButton('Romane Sécu')).toBeNull()
  })

  it('asks first, saying what happens, then resets through the RPC and says so', async () => {
    rpc.mockResolvedValue({ data: null, error: null })
    const user = userEvent.setup()
    renderPage(true)
    await user.click(resetButton('Romane Sécu')!)
    const dialog = screen.getByRole('dialog', { name: 'Réinitialiser le second facteur' })
    expect(dialog).toHaveTextContent('Les seconds facteurs de Romane Sécu seront supprimés et toutes ses sessions fermées')
    expect(dialog).toHaveTextContent('À sa prochaine connexion, cette personne devra en enregistrer un nouveau')
    expect(rpc).not.toHaveBeenCalled()

    await user.click(within(dialog).getByRole('button', { name: 'Réinitialiser' }))
    expect(rpc).toHaveBeenCalledWith('reset_second_factor', { p_user_id: 'rssi-1' })
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(screen.getByText(/Le second facteur de Romane Sécu a été réinitialisé/)).toHaveAttribute('role', 'status')
  })

  it('keeps the dialog open with the server’s refusal, and says nothing was done', async () => {
    const refusal = "Seul un administrateur peut réinitialiser le second facteur d'une personne."
    rpc.mockResolvedValue({ data: null, error: { code: '42501', message: refusal } })
    const user = userEvent.setup()
    renderPage(true)
    await user.click(resetButton('Rémi Applis')!)
    const dialog = screen.getByRole('dialog', { name: 'Réinitialiser le second facteur' })
    await user.click(within(dialog).getByRole('button', { name: 'Réinitialiser' }))
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument()
    expect(screen.queryByText(/a été réinitialisé/)).toBeNull()

    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})
