import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter } from 'react-router-dom'
import { ApplicationFormDialog } from '@/features/applications/ApplicationFormDialog'
import { ApplicationsPage } from '@/features/applications/ApplicationsPage'
import { EMPTY_APPLICATION_FORM, type ApplicationOwnerChoices, type ApplicationRow } from '@/features/applications/model'

const application: ApplicationRow = {
  id: 'app-1',
  name: 'SAP Finance',
  description: 'Comptabilité',
  ra_id: 'ra-1',
  bpo_metier_id: 'bpo-1',
  bpo_groupe_id: null,
  rssi_id: null,
  created_at: '2025-03-05T10:00:00Z',
  updated_at: '2025-03-05T10:00:00Z',
  ra: { first_name: 'Rémi', last_name: 'Admin' },
  bpo_metier: { first_name: 'Béa', last_name: 'Métier' },
  bpo_groupe: null,
  rssi: null,
}

const { requests } = vi.hoisted(() => ({ requests: [] as unknown[] }))

const mutation = { mutate: vi.fn(), mutateAsync: vi.fn(), reset: vi.fn(), isPending: false, isError: false, error: null }

vi.mock('@/features/applications/api', () => ({
  useApplicationsPage: (request: unknown) => {
    requests.push(request)
    return { isPending: false, isError: false, data: { rows: [application], total: 1 } }
  },
  useApplication: (id: string | null) => ({ isError: false, data: id === null ? undefined : id === application.id ? application : null }),
  useOwnerChoices: () => ({ isError: false, data: undefined }),
  useSaveApplication: () => mutation,
  useDeleteApplication: () => mutation,
}))

const choices: ApplicationOwnerChoices = {
  ra: [{ id: 'ra-1', first_name: 'Rémi', last_name: 'Admin', role: 'ra' }],
  bpo_metier: [{ id: 'bpo-1', first_name: 'Béa', last_name: 'Métier', role: 'bpo_metier' }],
  bpo_groupe: [{ id: 'grp-1', first_name: 'Gaël', last_name: 'Groupe', role: 'bpo_groupe' }],
  rssi: [],
}

/** The page reads its link parameter (?application=<id>) from the router. */
function renderPage(canManage: boolean, search = '') {
  return render(
    <MemoryRouter initialEntries={[`/app/applications${search}`]}>
      <ApplicationsPage title="Applications" canManage={canManage} />
    </MemoryRouter>,
  )
}

describe('ApplicationsPage', () => {
  it('shows the list with its French columns and the actions to an administrator', () => {
    renderPage(true)
    for (const column of ['Nom', 'Description', 'RA', 'BPO Métier', 'BPO Groupe', 'RSSI', 'Création', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: column })).toBeInTheDocument()
    }
    const row = screen.getByRole('row', { name: /SAP Finance/ })
    expect(within(row).getByText('Rémi Admin')).toBeInTheDocument()
    expect(within(row).getByText('5 mars 2025')).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('1–1 sur 1 application')
    expect(screen.getByRole('button', { name: 'Nouvelle application' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Modifier SAP Finance' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Supprimer SAP Finance' })).toBeInTheDocument()
  })

  it('shows the list without any action button to the other roles', () => {
    renderPage(false)
    expect(screen.getByRole('row', { name: /SAP Finance/ })).toBeInTheDocument()
    // Sorting and paging are reading; no button changes anything.
    expect(screen.queryAllByRole('button').map((button) => button.textContent || button.getAttribute('aria-label'))).toEqual([
      'Nom',
      'Description',
      'RA',
      'BPO Métier',
      'BPO Groupe',
      'RSSI',
      'Création',
      'Page précédente',
      'Page suivante',
    ])
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument()
  })

  it('asks for confirmation, saying the deletion is irreversible and takes the rights and controls along', async () => {
    const user = userEvent.setup()
    renderPage(true)
    await user.click(screen.getByRole('button', { name: 'Supprimer SAP Finance' }))
    const dialog = screen.getByRole('dialog', { name: "Supprimer l'application" })
    expect(dialog).toHaveTextContent(/SAP Finance.*irréversible.*droits et les contrôles/)
  })
})

describe("ApplicationsPage opened from a link (the admin dashboard's Détails)", () => {
  it("opens the application's form for an administrator and highlights its row", async () => {
    const user = userEvent.setup()
    renderPage(true, '?application=app-1')
    const dialog = screen.getByRole('dialog', { name: "Modifier l'application" })
    expect(within(dialog).getByLabelText(/^Nom/)).toHaveValue('SAP Finance')
    expect(screen.getByRole('row', { name: /SAP Finance/ })).toHaveAttribute('aria-current', 'true')

    // Closed, it stays closed; the row stays highlighted.
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('row', { name: /SAP Finance/ })).toHaveAttribute('aria-current', 'true')
  })

  it('only highlights the row for a role that may not edit', () => {
    renderPage(false, '?application=app-1')
    expect(screen.getByRole('row', { name: /SAP Finance/ })).toHaveAttribute('aria-current', 'true')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('says so when the application does not exist', () => {
    renderPage(true, '?application=inconnue')
    expect(screen.getByRole('alert')).toHaveTextContent("L'application demandée est introuvable")
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})

describe('ApplicationsPage, paged on the server', () => {
  it('asks the server for the page sorted on the header clicked, and for what is searched once typing pauses', async () => {
    const user = userEvent.setup()
    renderPage(false)
    const ra = screen.getByRole('columnheader', { name: 'RA' })
    await user.click(within(ra).getByRole('button', { name: 'RA' }))
    expect(ra).toHaveAttribute('aria-sort', 'ascending')
    expect(requests.at(-1)).toMatchObject({ sort: 'ra', direction: 'asc', page: 0 })
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher une application' }), 'sap')
    await waitFor(() => expect(requests.at(-1)).toMatchObject({ sort: 'ra', search: 'sap', page: 0 }))
  })
})

describe('ApplicationFormDialog', () => {
  const renderForm = (onSubmit = vi.fn().mockResolvedValue(undefined)) => {
    render(<ApplicationFormDialog editingName={null} initialValues={EMPTY_APPLICATION_FORM} choices={choices} onSubmit={onSubmit} onClose={vi.fn()} />)
    return onSubmit
  }

  it('requires the name, the RA and the BPO Métier', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(screen.getByText("Le nom de l'application est obligatoire.")).toBeInTheDocument()
    expect(screen.getByText("Le Responsable d'Application est obligatoire.")).toBeInTheDocument()
    expect(screen.getByText('Le BPO Métier est obligatoire.')).toBeInTheDocument()
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('offers only people of the matching role and sends the chosen owners', async () => {
    const user = userEvent.setup()
    const onSubmit = renderForm()
    expect(within(screen.getByLabelText(/^RA/)).getAllByRole('option').map((o) => o.textContent)).toEqual(['Sélectionner un RA', 'Rémi Admin'])
    expect(within(screen.getByLabelText(/^BPO Groupe/)).getAllByRole('option').map((o) => o.textContent)).toEqual(['Aucun BPO Groupe', 'Gaël Groupe'])
    await user.type(screen.getByLabelText(/^Nom/), '  CRM  ')
    await user.selectOptions(screen.getByLabelText(/^RA/), 'ra-1')
    await user.selectOptions(screen.getByLabelText(/^BPO Métier/), 'bpo-1')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    expect(onSubmit).toHaveBeenCalledWith({ name: 'CRM', description: '', ra_id: 'ra-1', bpo_metier_id: 'bpo-1', bpo_groupe_id: undefined, rssi_id: undefined })
  })

  it("shows the server's French refusal inside the dialog, which stays open", async () => {
    const user = userEvent.setup()
    renderForm(vi.fn().mockRejectedValue(new Error('Une application nommée « CRM » existe déjà.')))
    await user.type(screen.getByLabelText(/^Nom/), 'CRM')
    await user.selectOptions(screen.getByLabelText(/^RA/), 'ra-1')
    await user.selectOptions(screen.getByLabelText(/^BPO Métier/), 'bpo-1')
    await user.click(screen.getByRole('button', { name: 'Créer' }))
    const dialog = screen.getByRole('dialog')
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Une application nommée « CRM » existe déjà.')
  })
})
