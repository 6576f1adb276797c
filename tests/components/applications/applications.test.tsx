import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
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

const mutation = { mutate: vi.fn(), mutateAsync: vi.fn(), reset: vi.fn(), isPending: false, isError: false, error: null }

vi.mock('@/features/applications/api', () => ({
  useApplications: () => ({ isPending: false, isError: false, data: [application] }),
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

describe('ApplicationsPage', () => {
  it('shows the list with its French columns and the actions to an administrator', () => {
    render(<ApplicationsPage title="Applications" canManage />)
    for (const column of ['Nom', 'Description', 'RA', 'BPO Métier', 'BPO Groupe', 'RSSI', 'Création', 'Actions']) {
      expect(screen.getByRole('columnheader', { name: column })).toBeInTheDocument()
    }
    const row = screen.getByRole('row', { name: /SAP Finance/ })
    expect(within(row).getByText('Rémi Admin')).toBeInTheDocument()
    expect(within(row).getByText('05 mars 2025')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Nouvelle application' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Modifier SAP Finance' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Supprimer SAP Finance' })).toBeInTheDocument()
  })

  it('shows the list without any action button to the other roles', () => {
    render(<ApplicationsPage title="Applications" canManage={false} />)
    expect(screen.getByRole('row', { name: /SAP Finance/ })).toBeInTheDocument()
    expect(screen.queryAllByRole('button')).toHaveLength(0)
    expect(screen.queryByRole('columnheader', { name: 'Actions' })).not.toBeInTheDocument()
  })

  it('asks for confirmation, saying the deletion is irreversible and takes the rights and controls along', async () => {
    const user = userEvent.setup()
    render(<ApplicationsPage title="Applications" canManage />)
    await user.click(screen.getByRole('button', { name: 'Supprimer SAP Finance' }))
    const dialog = screen.getByRole('dialog', { name: "Supprimer l'application" })
    expect(dialog).toHaveTextContent(/SAP Finance.*irréversible.*droits et les contrôles/)
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
