import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query'
import { MemoryRouter } from 'react-router-dom'
import type { ReactNode } from 'react'
import { makeUser } from '../support/fake-auth'
import type { Role } from '@/lib/labels'
import type { Campaign, CampaignPayload } from '@/features/campaigns/model'

const stubs = vi.hoisted(() => ({
  role: 'admin' as string,
  save: vi.fn(),
  setStatus: vi.fn(),
  remove: vi.fn(),
  exportRows: vi.fn(),
}))

vi.mock('@/auth/auth-context', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/auth/auth-context')>()),
  useCurrentUser: () => makeUser(stubs.role as Role),
}))

function campaign(overrides: Partial<Campaign>): Campaign {
  return {
    id: 'c1',
    name: 'Campagne',
    description: '',
    applicationId: null,
    applicationName: null,
    accountType: null,
    startDate: '2026-11-01',
    endDate: '2026-12-15',
    status: 'draft',
    createdBy: null,
    creatorName: null,
    createdAt: '2026-11-01T00:00:00Z',
    progress: null,
    rightsCount: 0,
    pendingCount: 0,
    validatedManagerCount: 0,
    validatedBpoMetierCount: 0,
    ...overrides,
  }
}

const CAMPAIGNS: Campaign[] = [
  campaign({ id: 'd', name: 'Brouillon 2027', status: 'draft', applicationName: 'GitLab', accountType: 'privileged' }),
  campaign({ id: 'a', name: 'Revue T4', status: 'active', progress: 33.4, rightsCount: 3, pendingCount: 2 }),
  campaign({ id: 'c', name: 'Revue 2025', status: 'completed', progress: 100, rightsCount: 4 }),
  campaign({ id: 'x', name: 'Revue 2024', status: 'archived', progress: 100, rightsCount: 1 }),
]

vi.mock('@/features/campaigns/api', () => ({
  useCampaigns: () => useQuery({ queryKey: ['campaigns', 'list'], queryFn: async () => CAMPAIGNS }),
  useApplicationOptions: () => ({ data: [{ id: 'app-1', name: 'SAP Finance' }], error: null }),
  useSaveCampaign: () =>
    useMutation({ mutationFn: (variables: { id?: string; payload: CampaignPayload }) => stubs.save(variables) as Promise<void> }),
  useSetCampaignStatus: () => useMutation({ mutationFn: (variables: unknown) => stubs.setStatus(variables) as Promise<void> }),
  useDeleteCampaign: () => useMutation({ mutationFn: (id: string) => stubs.remove(id) as Promise<void> }),
  fetchExportRows: stubs.exportRows,
}))

const { CampaignsPage } = await import('@/features/campaigns/CampaignsPage')

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  return (
    <MemoryRouter>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MemoryRouter>
  )
}

function renderPage(role: Role) {
  stubs.role = role
  const user = userEvent.setup()
  render(wrap(<CampaignsPage title="Campagnes" />))
  return user
}

beforeEach(() => {
  stubs.save.mockReset().mockResolvedValue(undefined)
  stubs.setStatus.mockReset().mockResolvedValue(undefined)
  stubs.remove.mockReset().mockResolvedValue(undefined)
  stubs.exportRows.mockReset()
})

const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement

describe('Campaigns table', () => {
  it("shows 'Toutes', 'Tous', French dates, the status badges and rounded progress", async () => {
    renderPage('admin')
    await screen.findByText('Brouillon 2027')
    const draft = rowOf('Brouillon 2027')
    expect(within(draft).getByText('GitLab')).toBeInTheDocument()
    expect(within(draft).getByText('À privilèges')).toBeInTheDocument()
    expect(within(draft).getByText('Brouillon')).toBeInTheDocument()
    const active = rowOf('Revue T4')
    expect(within(active).getByText('Toutes')).toBeInTheDocument()
    expect(within(active).getByText('Tous')).toBeInTheDocument()
    expect(within(active).getByText('01 novembre 2026')).toBeInTheDocument()
    expect(within(active).getByText('15 décembre 2026')).toBeInTheDocument()
    expect(within(active).getByText('33%')).toBeInTheDocument()
    expect(within(rowOf('Revue 2025')).getByText('Terminée')).toBeInTheDocument()
    expect(within(rowOf('Revue 2024')).getByText('Archivée')).toBeInTheDocument()
    expect(screen.getByText('4 campagnes')).toBeInTheDocument()
  })

  it("counts each campaign's rights with the noun agreed: singular for 0 and 1, plural from 2", async () => {
    renderPage('admin')
    await screen.findByText('Brouillon 2027')
    expect(within(rowOf('Brouillon 2027')).getByText('0 droit')).toBeInTheDocument()
    expect(within(rowOf('Revue 2024')).getByText('1 droit')).toBeInTheDocument()
    expect(within(rowOf('Revue T4')).getByText('3 droits')).toBeInTheDocument()
  })

  it('gives admins one lifecycle step per row and Modifier/Supprimer on drafts only', async () => {
    renderPage('rssi')
    await screen.findByText('Brouillon 2027')
    expect(screen.getByRole('button', { name: 'Nouvelle campagne' })).toBeInTheDocument()
    const draft = rowOf('Brouillon 2027')
    expect(within(draft).getByRole('button', { name: 'Démarrer Brouillon 2027' })).toBeInTheDocument()
    expect(within(draft).getByRole('button', { name: 'Modifier Brouillon 2027' })).toBeInTheDocument()
    expect(within(draft).getByRole('button', { name: 'Supprimer Brouillon 2027' })).toBeInTheDocument()
    expect(within(rowOf('Revue T4')).getByRole('button', { name: 'Terminer Revue T4' })).toBeInTheDocument()
    expect(within(rowOf('Revue T4')).queryByRole('button', { name: /Modifier|Supprimer/ })).toBeNull()
    expect(within(rowOf('Revue 2025')).getByRole('button', { name: 'Archiver Revue 2025' })).toBeInTheDocument()
    expect(within(rowOf('Revue 2024')).getAllByRole('button').map((b) => b.textContent)).toEqual(['Excel', 'Rapport de campagne'])
  })

  it.each(['user', 'manager', 'bpo_metier', 'bpo_groupe', 'ra'] as const)('shows %s the list with the export only', async (role) => {
    renderPage(role)
    await screen.findByText('Brouillon 2027')
    expect(screen.queryByRole('button', { name: 'Nouvelle campagne' })).toBeNull()
    expect(screen.queryByRole('button', { name: /Démarrer|Terminer|Archiver|Modifier|Supprimer/ })).toBeNull()
    expect(screen.getAllByRole('button', { name: /Export Excel/ })).toHaveLength(4)
  })

  it('confirms a deletion, saying it is irreversible and takes the rights', async () => {
    const user = renderPage('admin')
    await user.click(await screen.findByRole('button', { name: 'Supprimer Brouillon 2027' }))
    const dialog = screen.getByRole('dialog', { name: 'Supprimer la campagne' })
    expect(dialog).toHaveTextContent('irréversible')
    expect(dialog).toHaveTextContent('supprime également les droits associés')
    await user.click(within(dialog).getByRole('button', { name: 'Supprimer' }))
    expect(stubs.remove).toHaveBeenCalledWith('d')
  })

  it('confirms Démarrer and keeps the dialog open with the server message on failure', async () => {
    stubs.setStatus.mockRejectedValue(new Error('Passage impossible du statut « Brouillon » au statut « Archivée ».'))
    const user = renderPage('admin')
    await user.click(await screen.findByRole('button', { name: 'Démarrer Brouillon 2027' }))
    const dialog = screen.getByRole('dialog', { name: 'Démarrer la campagne' })
    await user.click(within(dialog).getByRole('button', { name: 'Démarrer' }))
    expect(stubs.setStatus).toHaveBeenCalledWith({ id: 'd', status: 'active' })
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Passage impossible')
  })

  it('disables each export button whose count is 0', async () => {
    const user = renderPage('user')
    await user.click(await screen.findByRole('button', { name: 'Export Excel de Revue T4' }))
    const dialog = screen.getByRole('dialog', { name: 'Export Excel' })
    expect(within(dialog).getByRole('button', { name: 'Fichier Manager' })).toBeEnabled()
    expect(within(dialog).getByRole('button', { name: 'Fichier BPO Métier' })).toBeDisabled()
    expect(within(dialog).getByRole('button', { name: 'Fichier BPO Groupe' })).toBeDisabled()
    expect(dialog).toHaveTextContent('Manager')
  })

  it('counts the lines read while a file is prepared, agreed with the number', async () => {
    const pending = { progress: (_fetched: number) => {}, fail: (_error: Error) => {} }
    stubs.exportRows.mockImplementation(
      (_id: string, _file: string, onProgress: (fetched: number) => void) =>
        new Promise((_resolve, reject) => {
          pending.progress = onProgress
          pending.fail = reject
        }),
    )
    const user = renderPage('user')
    await user.click(await screen.findByRole('button', { name: 'Export Excel de Revue T4' }))
    const dialog = screen.getByRole('dialog', { name: 'Export Excel' })
    await user.click(within(dialog).getByRole('button', { name: 'Fichier Manager' }))
    const status = within(dialog).getByRole('status')
    expect(status).toHaveTextContent(/^Préparation du fichier… 0 ligne lue$/)
    act(() => pending.progress(1))
    expect(status).toHaveTextContent(/^Préparation du fichier… 1 ligne lue$/)
    act(() => pending.progress(2))
    expect(status).toHaveTextContent(/^Préparation du fichier… 2 lignes lues$/)
    await act(async () => pending.fail(new Error('Lecture interrompue.')))
    expect(await within(dialog).findByText('Lecture interrompue.')).toBeInTheDocument()
  })
})

describe('Campaign form', () => {
  it('requires name and dates, in French, inside the dialog, and sends nothing', async () => {
    const user = renderPage('admin')
    await user.click(await screen.findByRole('button', { name: 'Nouvelle campagne' }))
    const dialog = screen.getByRole('dialog', { name: 'Nouvelle campagne' })
    await user.click(within(dialog).getByRole('button', { name: 'Créer la campagne' }))
    expect(dialog).toHaveTextContent('Le nom de la campagne est obligatoire.')
    expect(dialog).toHaveTextContent('La date de début est obligatoire.')
    expect(dialog).toHaveTextContent('La date de fin est obligatoire.')
    expect(stubs.save).not.toHaveBeenCalled()
  })

  it('refuses an end before the start, then creates with blanks as all applications and types', async () => {
    const user = renderPage('admin')
    await user.click(await screen.findByRole('button', { name: 'Nouvelle campagne' }))
    const dialog = screen.getByRole('dialog', { name: 'Nouvelle campagne' })
    await user.type(within(dialog).getByLabelText(/Nom/), 'Revue 2027')
    await user.type(within(dialog).getByLabelText(/Date de début/), '2027-02-10')
    await user.type(within(dialog).getByLabelText(/Date de fin/), '2027-02-01')
    await user.click(within(dialog).getByRole('button', { name: 'Créer la campagne' }))
    expect(dialog).toHaveTextContent('La date de fin doit être postérieure ou égale à la date de début.')
    expect(stubs.save).not.toHaveBeenCalled()

    await user.clear(within(dialog).getByLabelText(/Date de fin/))
    await user.type(within(dialog).getByLabelText(/Date de fin/), '2027-02-10')
    await user.click(within(dialog).getByRole('button', { name: 'Créer la campagne' }))
    expect(stubs.save).toHaveBeenCalledWith({
      id: undefined,
      payload: {
        name: 'Revue 2027',
        description: '',
        application_id: null,
        account_type: null,
        start_date: '2027-02-10',
        end_date: '2027-02-10',
      },
    })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('edits a draft from its values and shows a server refusal inside the dialog', async () => {
    stubs.save.mockRejectedValue(new Error('Seule une campagne en brouillon peut être modifiée.'))
    const user = renderPage('admin')
    await user.click(await screen.findByRole('button', { name: 'Modifier Brouillon 2027' }))
    const dialog = screen.getByRole('dialog', { name: 'Modifier la campagne' })
    expect(within(dialog).getByLabelText(/Nom/)).toHaveValue('Brouillon 2027')
    await user.selectOptions(within(dialog).getByLabelText('Application'), 'app-1')
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }))
    expect(stubs.save).toHaveBeenCalledWith(expect.objectContaining({ id: 'd', payload: expect.objectContaining({ application_id: 'app-1' }) }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Seule une campagne en brouillon peut être modifiée.')
  })
})
