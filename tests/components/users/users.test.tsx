import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router-dom'
import { UserFormDialog } from '@/features/users/UserFormDialog'
import { UsersPage } from '@/features/users/UsersPage'
import { currentManager, EMPTY_USER_FORM, userToForm, type UserRow } from '@/features/users/model'

function person(overrides: Partial<UserRow>): UserRow {
  return {
    id: 'id',
    email: 'x@example.com',
    first_name: 'X',
    last_name: 'Y',
    role: 'user',
    position: null,
    department: null,
    manager_id: null,
    last_login: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    manager: null,
    ...overrides,
  }
}

const admin = person({ id: 'admin-1', email: 'admin@example.com', first_name: 'Alice', last_name: 'Admin', role: 'admin', last_login: '2025-03-05T13:30:00Z' })
const manager = person({ id: 'mgr-1', email: 'manager@example.com', first_name: 'Marc', last_name: 'Dubois', role: 'manager', department: 'Finance' })
const otherManager = person({ id: 'mgr-2', email: 'manager2@example.com', first_name: 'Nina', last_name: 'Durand', role: 'manager' })
const employee = person({ id: 'user-1', email: 'user@example.com', first_name: 'Ulysse', last_name: 'User', manager_id: 'mgr-1', manager: { first_name: 'Marc', last_name: 'Dubois' } })
const leaver = person({ id: 'user-2', email: 'leaver@example.com', first_name: 'Léa', last_name: 'Partie', active: false })
const everyone = [admin, manager, otherManager, employee, leaver]
/** The account filter each read of the list was made with. */
const filtersAsked: string[] = []

const mutation = { mutate: vi.fn(), mutateAsync: vi.fn(), reset: vi.fn(), isPending: false, isError: false, error: null }

// The server's side of the manager picker: managers only, never the person edited, matching the search.
const managerSearch = (search: string, editingId: string | null) =>
  everyone.filter((person) => person.role === 'manager' && person.id !== editingId && `${person.first_name} ${person.last_name}`.toLowerCase().includes(search.toLowerCase()))

vi.mock('@/features/users/api', () => ({
  MANAGER_CHOICES: 20,
  useUsersPage: (_request: unknown, accounts = 'all') => {
    filtersAsked.push(accounts)
    const rows = everyone.filter((person) => accounts === 'all' || (person.active !== false) === (accounts === 'active'))
    return { isPending: false, isError: false, data: { rows, total: rows.length } }
  },
  useUser: (id: string | null) => ({ isError: false, data: id === null ? undefined : (everyone.find((person) => person.id === id) ?? null) }),
  useManagerChoices: (search: string, editingId: string | null) => {
    const rows = managerSearch(search, editingId)
    return { data: { rows, total: rows.length } }
  },
  useSaveUser: () => mutation,
  useDeleteUser: () => mutation,
}))

/** The page reads its link parameter (?utilisateur=<id>) from the router. */
function renderPage(search = '') {
  return render(
    <MemoryRouter initialEntries={[`/app/users${search}`]}>
      <UsersPage title="Utilisateurs" currentUserId="admin-1" />
    </MemoryRouter>,
  )
}

describe('UsersPage', () => {
  it("lists people with their French role, '-' for an empty position, the manager and 'Jamais' without a login", () => {
    renderPage()
    const row = screen.getByRole('row', { name: /Ulysse User/ })
    expect(within(row).getByText('Utilisateur')).toBeInTheDocument()
    expect(within(row).getAllByText('-').length).toBeGreaterThan(0)
    expect(within(row).getByText('Marc Dubois')).toBeInTheDocument()
    expect(within(row).getByText('Jamais')).toBeInTheDocument()
    expect(within(screen.getByRole('row', { name: /Alice Admin/ })).getByText('Administrateur')).toBeInTheDocument()
  })

  it('marks a leaver’s account « Désactivé », and filters the accounts on the server', async () => {
    const user = userEvent.setup()
    renderPage()
    expect(within(screen.getByRole('row', { name: /Léa Partie/ })).getByText('Désactivé')).toBeInTheDocument()
    expect(within(screen.getByRole('row', { name: /Ulysse User/ })).queryByText('Désactivé')).not.toBeInTheDocument()
    await user.selectOptions(screen.getByLabelText('Comptes'), 'Désactivés')
    expect(filtersAsked.at(-1)).toBe('inactive')
    expect(screen.getAllByRole('row')).toHaveLength(2)
    await user.selectOptions(screen.getByLabelText('Comptes'), 'Actifs')
    expect(filtersAsked.at(-1)).toBe('active')
    expect(screen.queryByRole('row', { name: /Léa Partie/ })).not.toBeInTheDocument()
  })

  it('never offers to delete oneself', () => {
    renderPage()
    expect(screen.queryByRole('button', { name: 'Supprimer Alice Admin' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Supprimer Ulysse User' })).toBeInTheDocument()
  })

  it('asks for confirmation with the exact French text', async () => {
    const user = userEvent.setup()
    renderPage()
    await user.click(screen.getByRole('button', { name: 'Supprimer Ulysse User' }))
    expect(screen.getByRole('dialog')).toHaveTextContent("Êtes-vous sûr de vouloir supprimer l'utilisateur Ulysse User ? Cette action est irréversible.")
  })

  it('offers as manager choices the managers other than the person edited, and Aucun manager', async () => {
    const user = userEvent.setup()
    renderPage()
    await user.click(screen.getByRole('button', { name: 'Modifier Marc Dubois' }))
    await user.click(screen.getByRole('combobox', { name: 'Manager' }))
    const options = within(screen.getByRole('listbox', { name: 'Manager' })).getAllByRole('option').map((option) => option.textContent)
    expect(options).toEqual(['Aucun manager', 'Nina Durand'])
  })

  it('locks the role of the signed-in administrator', async () => {
    const user = userEvent.setup()
    renderPage()
    await user.click(screen.getByRole('button', { name: 'Modifier Alice Admin' }))
    expect(screen.getByLabelText(/^Rôle/)).toBeDisabled()
  })
})

describe("UsersPage opened from a link (the admin dashboard's Détails)", () => {
  it("opens the person's form and highlights their row", async () => {
    const user = userEvent.setup()
    renderPage('?utilisateur=user-1')
    const dialog = screen.getByRole('dialog', { name: "Modifier l'utilisateur" })
    expect(within(dialog).getByLabelText(/Adresse e-mail/)).toHaveValue('user@example.com')
    expect(screen.getByRole('row', { name: /Ulysse User/ })).toHaveAttribute('aria-current', 'true')
    expect(screen.getByRole('row', { name: /Nina Durand/ })).not.toHaveAttribute('aria-current')

    // Closed, it stays closed; the row stays highlighted.
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('row', { name: /Ulysse User/ })).toHaveAttribute('aria-current', 'true')
  })

  it('says so when the person does not exist', () => {
    renderPage('?utilisateur=personne')
    expect(screen.getByRole('alert')).toHaveTextContent("L'utilisateur demandé est introuvable")
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('UserFormDialog', () => {
  const renderForm = (onSubmit = vi.fn().mockResolvedValue(undefined)) => {
    render(<UserFormDialog editing={false} editingId={null} initialValues={EMPTY_USER_FORM} initialManager={null} onSubmit={onSubmit} onClose={vi.fn()} />)
    return onSubmit
  }

  it('requires the e-mail and both names, with the role defaulting to Utilisateur', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    expect(screen.getByLabelText(/^Rôle/)).toHaveValue('user')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(screen.getByText("L'adresse e-mail est obligatoire.")).toBeInTheDocument()
    expect(screen.getByText('Le prénom est obligatoire.')).toBeInTheDocument()
    expect(screen.getByText('Le nom est obligatoire.')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('refuses a malformed e-mail address', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    await user.type(screen.getByLabelText(/Adresse e-mail/), 'pas-une-adresse')
    await user.type(screen.getByLabelText(/^Prénom/), 'Jean')
    await user.type(screen.getByLabelText(/^Nom/), 'Martin')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(screen.getByText('Veuillez entrer une adresse email valide.')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('sends trimmed values, null for the empty optional fields and Aucun manager', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    await user.type(screen.getByLabelText(/Adresse e-mail/), ' jean@example.com ')
    await user.type(screen.getByLabelText(/^Prénom/), 'Jean')
    await user.type(screen.getByLabelText(/^Nom/), 'Martin')
    await user.selectOptions(screen.getByLabelText(/^Rôle/), 'manager')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(onSubmit).toHaveBeenCalledWith({
      email: 'jean@example.com',
      first_name: 'Jean',
      last_name: 'Martin',
      role: 'manager',
      position: null,
      department: null,
      manager_id: null,
    })
  })

  it('finds a manager by typing, picks one with the keyboard and sends their id', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    await user.type(screen.getByLabelText(/Adresse e-mail/), 'jean@example.com')
    await user.type(screen.getByLabelText(/^Prénom/), 'Jean')
    await user.type(screen.getByLabelText(/^Nom/), 'Martin')
    const picker = screen.getByRole('combobox', { name: 'Manager' })
    await user.type(picker, 'nina')
    // The list follows the search once typing pauses.
    await waitFor(() => expect(within(screen.getByRole('listbox', { name: 'Manager' })).queryByRole('option', { name: 'Marc Dubois' })).toBeNull())
    await user.keyboard('{ArrowDown}{Enter}')
    expect(picker).toHaveValue('Nina Durand')
    expect(picker).toHaveAttribute('aria-expanded', 'false')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ manager_id: 'mgr-2' }))
  })

  it("shows the person's manager, and Aucun manager clears it", async () => {
    const user = userEvent.setup()
    const onSubmit = vi.fn().mockResolvedValue(undefined)
    render(<UserFormDialog editing editingId={employee.id} initialValues={userToForm(employee)} initialManager={currentManager(employee)} onSubmit={onSubmit} onClose={vi.fn()} />)
    const picker = screen.getByRole('combobox', { name: 'Manager' })
    expect(picker).toHaveValue('Marc Dubois')
    await user.click(picker)
    expect(screen.getByRole('option', { name: 'Marc Dubois' })).toHaveAttribute('aria-selected', 'true')
    await user.click(screen.getByRole('option', { name: 'Aucun manager' }))
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ manager_id: null }))
  })

  it("shows the server's French refusal inside the dialog", async () => {
    const user = userEvent.setup()
    render(
      <UserFormDialog
        editing
        initialValues={userToForm(employee)}
        editingId={employee.id}
        initialManager={currentManager(employee)}
        onSubmit={vi.fn().mockRejectedValue(new Error('Vous ne pouvez pas modifier votre propre rôle.'))}
        onClose={vi.fn()}
      />,
    )
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }))
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('Vous ne pouvez pas modifier votre propre rôle.')
  })
})
