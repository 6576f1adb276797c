import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query'
import { MemoryRouter } from 'react-router-dom'
import type { ReactNode } from 'react'
import { makeUser } from '../support/fake-auth'
import { makeCampaign } from '../support/campaigns'
import type { Role } from '@/domain/labels'
import type { Campaign, CampaignPayload } from '@/features/campaigns/model'

const stubs = vi.hoisted(() => ({
  role: 'admin' as string,
  save: vi.fn(),
  setStatus: vi.fn(),
  remove: vi.fn(),
  exportRows: vi.fn(),
  pageRequests: [] as unknown[],
  total: null as number | null,
  preview: { rightsToAttach: 12, rightsLeftWithRa: 0 },
}))

vi.mock('@/auth/auth-context', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/auth/auth-context')>()),
  useCurrentUser: () => makeUser(stubs.role as Role),
}))

const campaign = makeCampaign

const CAMPAIGNS: Campaign[] = [
  campaign({ id: 'd', name: 'Brouillon 2027', status: 'draft', applicationName: 'GitLab', accountType: 'privileged' }),
  campaign({ id: 'a', name: 'Revue T4', status: 'active', progress: 33.4, rightsCount: 3, reviewedCount: 1, pendingCount: 2 }),
  // As the seed's « Revue annuelle 2025 »: 3 of 17 reviewed, the other 14 sent to the RA by Terminer.
  campaign({ id: 'c', name: 'Revue 2025', status: 'completed', progress: 18, rightsCount: 17, reviewedCount: 3, undecidedCount: 14 }),
  campaign({ id: 'x', name: 'Revue 2024', status: 'archived', progress: 100, rightsCount: 1, reviewedCount: 1 }),
]

vi.mock('@/features/campaigns/api/read-export-rows', () => ({ fetchExportRows: stubs.exportRows }))
vi.mock('@/features/campaigns/api/start-preview', () => ({
  useStartPreview: (id: string) => useQuery({ queryKey: ['campaigns', 'start-preview', id], queryFn: async () => stubs.preview }),
}))
vi.mock('@/features/campaigns/api', () => ({
  useCampaigns: () => useQuery({ queryKey: ['campaigns', 'list'], queryFn: async () => CAMPAIGNS }),
  useCampaignsPage: (request: unknown) => {
    stubs.pageRequests.push(request)
    return useQuery({ queryKey: ['campaigns', 'page', request], queryFn: async () => ({ rows: CAMPAIGNS, total: stubs.total ?? CAMPAIGNS.length }) })
  },
  useCampaign: (id: string | null) =>
    useQuery({ queryKey: ['campaigns', 'one', id], queryFn: async () => CAMPAIGNS.find((c) => c.id === id) ?? null, enabled: id !== null }),
  // The burndown chart is tested on its own; here it stays loading.
  useCampaignBurndown: (id: string) => useQuery({ queryKey: ['campaigns', 'burndown', id], queryFn: () => new Promise<never>(() => {}) }),
  useApplicationOptions: () => ({ data: [{ id: 'app-1', name: 'SAP Finance' }], error: null }),
  useSaveCampaign: () =>
    useMutation({ mutationFn: (variables: { id?: string; payload: CampaignPayload }) => stubs.save(variables) as Promise<void> }),
  useSetCampaignStatus: () => useMutation({ mutationFn: (variables: unknown) => stubs.setStatus(variables) as Promise<void> }),
  useDeleteCampaign: () => useMutation({ mutationFn: (id: string) => stubs.remove(id) as Promise<void> }),
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
  stubs.pageRequests.length = 0
  stubs.total = null
})

const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement

describe('Campaigns table', () => {
  it("shows 'Toutes', 'Tous', dates as jj/mm/aaaa, the status badges and rounded progress", async () => {
    renderPage('admin')
    await screen.findByText('Brouillon 2027')
    const draft = rowOf('Brouillon 2027')
    expect(within(draft).getByText('GitLab')).toBeInTheDocument()
    expect(within(draft).getByText('À privilèges')).toBeInTheDocument()
    expect(within(draft).getByText('Brouillon')).toBeInTheDocument()
    const active = rowOf('Revue T4')
    expect(within(active).getByText('Toutes')).toBeInTheDocument()
    expect(within(active).getByText('Tous')).toBeInTheDocument()
    expect(within(active).getByText('01/11/2026')).toBeInTheDocument()
    expect(within(active).getByText('15/12/2026')).toBeInTheDocument()
    expect(within(active).getByText('33%')).toBeInTheDocument()
    expect(within(rowOf('Revue 2025')).getByText('Terminée')).toBeInTheDocument()
    expect(within(rowOf('Revue 2024')).getByText('Archivée')).toBeInTheDocument()
    expect(screen.getByText('1–4 sur 4 campagnes')).toBeInTheDocument()
  })

  it('asks the server for one page, newest first, then searched, sorted by a column and paged, with the total', async () => {
    stubs.total = 120
    const user = renderPage('admin')
    await screen.findByText('Brouillon 2027')
    const last = () => stubs.pageRequests.at(-1)
    expect(last()).toEqual({ page: 0, size: 50, sort: 'created_at', direction: 'desc', search: '' })
    expect(screen.getByText('1–50 sur 120 campagnes')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Page suivante' }))
    await waitFor(() => expect(last()).toMatchObject({ page: 1 }))
    expect(await screen.findByText('51–100 sur 120 campagnes')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Nom' }))
    await waitFor(() => expect(last()).toMatchObject({ page: 0, sort: 'name', direction: 'asc' }))
    expect(screen.getByRole('columnheader', { name: 'Nom' })).toHaveAttribute('aria-sort', 'ascending')
    await user.click(screen.getByRole('button', { name: 'Nom' }))
    await waitFor(() => expect(last()).toMatchObject({ sort: 'name', direction: 'desc' }))

    await user.type(screen.getByRole('searchbox', { name: 'Rechercher une campagne' }), 'revue')
    await waitFor(() => expect(last()).toMatchObject({ search: 'revue', page: 0 }))
  })

  it("counts each campaign's rights with the noun agreed: singular for 0 and 1, plural from 2", async () => {
    renderPage('admin')
    await screen.findByText('Brouillon 2027')
    expect(within(rowOf('Brouillon 2027')).getByText('0 droit')).toBeInTheDocument()
    expect(within(rowOf('Revue 2024')).getByText('1 droit revu sur 1')).toBeInTheDocument()
    expect(within(rowOf('Revue T4')).getByText('1 droit revu sur 3')).toBeInTheDocument()
  })

  it('shows a closed campaign’s review rate beside the rights left undecided at its closure, never 100 % for them', async () => {
    renderPage('user')
    await screen.findByText('Brouillon 2027')
    const closed = rowOf('Revue 2025')
    expect(within(closed).getByRole('progressbar', { name: 'Progression de Revue 2025' })).toHaveAttribute('aria-valuenow', '18')
    expect(within(closed).getByText('3 droits revus sur 17')).toBeInTheDocument()
    expect(within(closed).getByTitle('14 non décidés à la clôture (transmis au RA)')).toHaveTextContent('14 non décidés à la clôture (transmis au RA)')
    // A running campaign shows how far its review went so far, and nothing was left at a closure yet.
    const running = rowOf('Revue T4')
    expect(within(running).getByRole('progressbar', { name: 'Progression de Revue T4' })).toHaveAttribute('aria-valuenow', '33')
    expect(within(running).queryByText(/non décidé/)).toBeNull()
    expect(within(rowOf('Revue 2024')).queryByText(/non décidé/)).toBeNull()
  })

  it("shows a campaign's reminder days under its dates while it may still send them, the escalation in the sentence", async () => {
    renderPage('admin')
    await screen.findByText('Brouillon 2027')
    const line = within(rowOf('Revue T4')).getByText('J-7 J-3 J-1').parentElement!
    expect(line).toHaveAttribute('title', 'Rappels 7, 3 et 1 jours avant la fin · escalade le lendemain')
    expect(line).toHaveTextContent('Rappels 7, 3 et 1 jours avant la fin · escalade le lendemain')
    expect(within(rowOf('Brouillon 2027')).getByText('J-7 J-3 J-1')).toBeInTheDocument()
    expect(within(rowOf('Revue 2025')).queryByText('J-7 J-3 J-1')).toBeNull()
  })

  it('gives admins one action in view per row, the step the campaign calls for, and the others in its menu', async () => {
    const user = renderPage('rssi')
    await screen.findByText('Brouillon 2027')
    expect(screen.getByRole('button', { name: 'Nouvelle campagne' })).toBeInTheDocument()
    const inView = (name: string) => within(rowOf(name)).getAllByRole('button').map((button) => button.getAttribute('aria-label'))
    const menuOf = async (name: string) => {
      await user.click(within(rowOf(name)).getByRole('button', { name: `Autres actions pour ${name}` }))
      const items = within(screen.getByRole('menu', { name: `Autres actions pour ${name}` })).getAllByRole('menuitem').map((item) => item.textContent)
      await user.keyboard('{Escape}')
      return items
    }
    expect(inView('Brouillon 2027')).toEqual(['Démarrer Brouillon 2027', 'Autres actions pour Brouillon 2027'])
    expect(await menuOf('Brouillon 2027')).toEqual(['Export Excel', 'Relecteurs', 'Modifier', 'Supprimer'])
    expect(inView('Revue T4')).toEqual(['Terminer Revue T4', 'Autres actions pour Revue T4'])
    expect(await menuOf('Revue T4')).toEqual(['Export Excel', 'Relecteurs', 'E-mails et rappels'])
    expect(inView('Revue 2025')).toEqual(['Rapport de campagne de Revue 2025', 'Autres actions pour Revue 2025'])
    expect(await menuOf('Revue 2025')).toEqual(['Export Excel', 'Relecteurs', 'Archiver'])
    expect(inView('Revue 2024')).toEqual(['Rapport de campagne de Revue 2024', 'Autres actions pour Revue 2024'])
    expect(await menuOf('Revue 2024')).toEqual(['Export Excel', 'Relecteurs'])
  })

  it('opens the dialog of a menu item, and gives focus back to the menu button when it closes', async () => {
    const user = renderPage('admin')
    const opener = await screen.findByRole('button', { name: 'Autres actions pour Revue 2025' })
    await user.click(opener)
    await user.click(screen.getByRole('menuitem', { name: 'Archiver' }))
    const dialog = screen.getByRole('dialog', { name: 'Archiver la campagne' })
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(opener).toHaveFocus()
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
    await user.click(await screen.findByRole('button', { name: 'Autres actions pour Brouillon 2027' }))
    await user.click(screen.getByRole('menuitem', { name: 'Supprimer' }))
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

  it('says before Démarrer how many rights it takes and how many stay with the RA', async () => {
    stubs.preview = { rightsToAttach: 12, rightsLeftWithRa: 6 }
    const user = renderPage('admin')
    await user.click(await screen.findByRole('button', { name: 'Démarrer Brouillon 2027' }))
    const figures = within(screen.getByRole('dialog', { name: 'Démarrer la campagne' })).getByRole('list', { name: 'Périmètre du démarrage' })
    expect(await within(figures).findByText('12 droits seront rattachés à la campagne.')).toBeInTheDocument()
    expect(figures).toHaveTextContent('6 droits en attente de traitement par le RA ne seront pas repris')
    stubs.preview = { rightsToAttach: 1, rightsLeftWithRa: 0 }
  })

  it('warns before Démarrer that a campaign would start empty, or already past its end date', async () => {
    // Only the date is fixed (the day after the draft's end date); timers stay real for the queries.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(new Date(2026, 11, 16, 9, 0))
    try {
      stubs.preview = { rightsToAttach: 0, rightsLeftWithRa: 0 }
      const user = renderPage('admin')
      await user.click(await screen.findByRole('button', { name: 'Démarrer Brouillon 2027' }))
      const warnings = await within(screen.getByRole('dialog', { name: 'Démarrer la campagne' })).findByRole('list', { name: 'Avertissements' })
      expect(warnings).toHaveTextContent('la campagne démarrerait vide')
      expect(warnings).toHaveTextContent('Sa date de fin (15 décembre 2026) est passée')
    } finally {
      vi.useRealTimers()
      stubs.preview = { rightsToAttach: 1, rightsLeftWithRa: 0 }
    }
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
    await user.type(within(dialog).getByLabelText(/Date de début/), '10/02/2027')
    await user.type(within(dialog).getByLabelText(/Date de fin/), '01/02/2027')
    await user.click(within(dialog).getByRole('button', { name: 'Créer la campagne' }))
    expect(dialog).toHaveTextContent('La date de fin doit être postérieure ou égale à la date de début.')
    expect(stubs.save).not.toHaveBeenCalled()

    await user.clear(within(dialog).getByLabelText(/Date de fin/))
    await user.type(within(dialog).getByLabelText(/Date de fin/), '20/02/2027')
    await user.click(within(dialog).getByRole('button', { name: 'Créer la campagne' }))
    expect(stubs.save).toHaveBeenCalledWith({
      id: undefined,
      payload: {
        name: 'Revue 2027',
        description: '',
        application_id: null,
        account_type: null,
        start_date: '2027-02-10',
        end_date: '2027-02-20',
        recurrence: null,
        auto_start: false,
        notifications_enabled: true,
        reminders_enabled: true,
        reminder_days: [7, 3, 1],
        escalation_delay_days: 0,
      },
    })
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('creates a recurring campaign that starts on its own, and says what each choice does', async () => {
    const user = renderPage('admin')
    await user.click(await screen.findByRole('button', { name: 'Nouvelle campagne' }))
    const dialog = screen.getByRole('dialog', { name: 'Nouvelle campagne' })
    await user.type(within(dialog).getByLabelText(/Nom/), 'Revue trimestrielle SAP')
    await user.type(within(dialog).getByLabelText(/Date de début/), '04/01/2027')
    await user.type(within(dialog).getByLabelText(/Date de fin/), '05/02/2027')
    const recurrence = within(dialog).getByRole('combobox', { name: 'Récurrence' })
    expect(recurrence).toHaveAccessibleDescription(/la campagne suivante est créée avec le même périmètre et la même durée/)
    await user.selectOptions(recurrence, 'Trimestrielle')
    const autoStart = within(dialog).getByRole('checkbox', { name: 'Démarrage automatique le premier jour' })
    expect(autoStart).toHaveAccessibleDescription('La campagne démarre à sa date de début, comme par un clic sur Démarrer.')
    await user.click(autoStart)
    await user.click(within(dialog).getByRole('button', { name: 'Créer la campagne' }))
    expect(stubs.save).toHaveBeenCalledWith({
      id: undefined,
      payload: expect.objectContaining({ name: 'Revue trimestrielle SAP', start_date: '2027-01-04', end_date: '2027-02-05', recurrence: 'quarterly', auto_start: true }),
    })
  })

  it('edits a draft from its values and shows a server refusal inside the dialog', async () => {
    stubs.save.mockRejectedValue(new Error('Seule une campagne en brouillon peut être modifiée.'))
    const user = renderPage('admin')
    await user.click(await screen.findByRole('button', { name: 'Autres actions pour Brouillon 2027' }))
    await user.click(screen.getByRole('menuitem', { name: 'Modifier' }))
    const dialog = screen.getByRole('dialog', { name: 'Modifier la campagne' })
    expect(within(dialog).getByLabelText(/Nom/)).toHaveValue('Brouillon 2027')
    await user.selectOptions(within(dialog).getByLabelText('Application'), 'app-1')
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }))
    expect(stubs.save).toHaveBeenCalledWith(expect.objectContaining({ id: 'd', payload: expect.objectContaining({ application_id: 'app-1' }) }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Seule une campagne en brouillon peut être modifiée.')
  })
})
