import { screen, waitFor, within } from '@testing-library/react'
import { format, subMonths } from 'date-fns'
import { queryOptions } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import { formatDate } from '@/lib/dates'
import type { DashboardFilters, RssiDashboard } from '@/features/dashboards/model'

const stubs = vi.hoisted(() => ({
  fetchRssiDashboard: vi.fn(),
  fetchAllRightsForExport: vi.fn(),
}))

// The api neighbours are stubbed: the screen is tested on what Postgres would answer.
// The rest of the module (other panels' queries) stays real, so that a panel added beside these figures needs no stub.
vi.mock('@/features/dashboards/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/dashboards/api')>()),
  useLiveRssiDashboard: () => {},
  usePrefetchRssiDashboard: () => {},
  rssiDashboardQuery: (filters: DashboardFilters) =>
    queryOptions({ queryKey: ['dashboard', 'rssi', filters], queryFn: () => stubs.fetchRssiDashboard(filters) as Promise<RssiDashboard> }),
  fetchAllRightsForExport: stubs.fetchAllRightsForExport,
  // The trend charts are tested on their own; here they stay loading.
  rssiTrendsQuery: () => queryOptions({ queryKey: ['dashboard', 'rssi', 'trends'], queryFn: () => new Promise<never>(() => {}) }),
}))
vi.mock('@/features/rights/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/rights/api')>()),
  useApplicationOptions: () => ({
    data: [
      { id: 'app-sap', name: 'SAP' },
      { id: 'app-crm', name: 'CRM' },
    ],
  }),
}))

const DASHBOARD: RssiDashboard = {
  as_of: '2026-11-21T08:00:00Z',
  counters: {
    total_rights: 1500,
    validated_rights: 1275,
    validation_rate: 85,
    validation_level: 'orange',
    at_risk_rights: 321,
    reviews_in_progress: 4,
    reviews_completed: 7,
  },
  compliance_by_application: [
    { application_id: 'app-sap', application_name: 'SAP', total_rights: 1000, validated_rights: 950, rate: 95, level: 'green' },
    { application_id: 'app-crm', application_name: 'CRM', total_rights: 500, validated_rights: 325, rate: 65, level: 'red' },
  ],
  risks: [
    { key: 'expired', label: 'Comptes expirés', count: 12, ignored_filters: [] },
    { key: 'inactive', label: 'Comptes inactifs', count: 321, ignored_filters: [] },
    { key: 'incompatible_roles', label: 'Rôles incompatibles', count: 3, ignored_filters: [] },
    { key: 'duplicates', label: 'Doublons', count: 0, ignored_filters: [] },
  ],
  active_campaigns: [
    {
      id: 'c1',
      name: 'Revue annuelle',
      description: null,
      application_id: 'app-sap',
      application_name: 'SAP',
      account_type: null,
      start_date: '2026-11-01',
      end_date: '2026-12-15',
      total_rights: 200,
      reviewed_rights: 50,
      progress: 25,
      scope_rights: 200,
      scope_reviewed_rights: 50,
      scope_progress: 25,
    },
  ],
  activity: { decisions: 9, approved: 7, refused: 2 },
}

function renderDashboard() {
  return renderApp({ path: '/app/dashboard', gateway: createFakeGateway({ sessionUser: makeUser('rssi') }) })
}

beforeEach(() => {
  stubs.fetchRssiDashboard.mockReset().mockResolvedValue(DASHBOARD)
  stubs.fetchAllRightsForExport.mockReset()
})

describe('RSSI dashboard', () => {
  it('shows the counters, bars, risks and active campaigns Postgres computed', async () => {
    renderDashboard()
    const rate = await screen.findByTestId('counter-Taux de conformité', {}, { timeout: 10_000 })
    expect(rate).toHaveTextContent('85%')
    expect(rate).toHaveAttribute('data-tone', 'orange')
    expect(screen.getByTestId('counter-Comptes à risque')).toHaveTextContent('321')
    expect(screen.getByTestId('counter-Revues en cours')).toHaveTextContent('4')
    expect(screen.getByTestId('counter-Revues complétées')).toHaveTextContent('7')

    const sap = screen.getByRole('progressbar', { name: 'Conformité SAP' })
    expect(sap).toHaveAttribute('aria-valuenow', '95')
    expect(sap.firstElementChild).toHaveAttribute('data-tone', 'green')
    expect(screen.getByRole('progressbar', { name: 'Conformité CRM' }).firstElementChild).toHaveAttribute('data-tone', 'red')

    const risks = within(screen.getByRole('list', { name: 'Risques détectés' })).getAllByRole('button')
    expect(risks.map((item) => item.getAttribute('aria-label'))).toEqual([
      'Comptes expirés 12, voir la liste',
      'Comptes inactifs 321, voir la liste',
      'Rôles incompatibles 3, voir la liste',
      'Doublons 0, voir la liste',
    ])

    const campaigns = screen.getByRole('table', { name: 'Campagnes actives' })
    expect(within(campaigns).getByText('Revue annuelle')).toBeInTheDocument()
    expect(within(campaigns).getByText('1er novembre 2026')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Voir les campagnes' })).toHaveAttribute('href', '/app/campaigns')
  })

  it('shows the first 20 applications of a large organisation and more on demand, in the order Postgres gave', async () => {
    const applications = Array.from({ length: 145 }, (_, index) => {
      const name = `App ${String(index + 1).padStart(3, '0')}`
      return { application_id: `app-${index}`, application_name: name, total_rights: 10, validated_rights: 9, rate: 90, level: 'green' as const }
    })
    stubs.fetchRssiDashboard.mockResolvedValue({ ...DASHBOARD, compliance_by_application: applications })
    const { user } = renderDashboard()
    const region = await screen.findByRole('region', { name: 'Conformité par application' }, { timeout: 10_000 })
    const bars = () => within(region).getAllByRole('progressbar').map((bar) => bar.getAttribute('aria-label'))
    expect(bars()).toEqual(applications.slice(0, 20).map((app) => `Conformité ${app.application_name}`))
    expect(region).toHaveTextContent('20 applications affichées sur 145')

    await user.click(within(region).getByRole('button', { name: 'Afficher 100 applications de plus' }))
    expect(bars()).toHaveLength(120)
    await user.click(within(region).getByRole('button', { name: 'Afficher 25 applications de plus' }))
    expect(bars()).toEqual(applications.map((app) => `Conformité ${app.application_name}`))
    expect(within(region).queryByRole('button', { name: /de plus$/ })).not.toBeInTheDocument()
  })

  it('opens on Mois, pressed, with the date line of its window, and a week or a quarter from the other buttons', async () => {
    const { user } = renderDashboard()
    await screen.findByTestId('counter-Taux de conformité', {}, { timeout: 10_000 })
    const first = stubs.fetchRssiDashboard.mock.calls[0]?.[0] as DashboardFilters
    expect(first.period).toBe('mois')
    const today = new Date()
    expect(first).toMatchObject({ from: format(subMonths(today, 1), 'yyyy-MM-dd'), to: format(today, 'yyyy-MM-dd') })
    const periods = screen.getByRole('group', { name: 'Période' })
    expect(within(periods).getByRole('button', { name: 'Mois' })).toHaveAttribute('aria-pressed', 'true')
    expect(within(periods).getByRole('button', { name: 'Semaine' })).toHaveAttribute('aria-pressed', 'false')
    expect(screen.getByTestId('period-dates')).toHaveTextContent(`Du ${formatDate(first.from)} au ${formatDate(first.to)}`)

    const days = (f: DashboardFilters) => Math.round((Date.parse(f.to) - Date.parse(f.from)) / 86_400_000)
    await user.click(screen.getByRole('button', { name: 'Semaine' }))
    await waitFor(() => expect(stubs.fetchRssiDashboard).toHaveBeenCalledTimes(2))
    const week = stubs.fetchRssiDashboard.mock.calls[1]?.[0] as DashboardFilters
    expect(week.period).toBe('semaine')
    expect(days(week)).toBe(7)
    expect(screen.getByRole('button', { name: 'Semaine' })).toHaveAttribute('aria-pressed', 'true')
    expect(screen.getByRole('button', { name: 'Mois' })).toHaveAttribute('aria-pressed', 'false')
    expect(screen.getByTestId('period-dates')).toHaveTextContent(`Du ${formatDate(week.from)} au ${formatDate(week.to)}`)

    await user.click(screen.getByRole('button', { name: 'Trimestre' }))
    await waitFor(() => expect(stubs.fetchRssiDashboard).toHaveBeenCalledTimes(3))
    expect((stubs.fetchRssiDashboard.mock.calls[2]?.[0] as DashboardFilters).period).toBe('trimestre')
  })

  it('shows the figures of the period chosen, apart from the states, which say « à ce jour »', async () => {
    // Postgres answers a week with fewer decisions and completed reviews than a month; the states stay.
    stubs.fetchRssiDashboard.mockImplementation(async (filters: DashboardFilters) =>
      filters.period === 'semaine'
        ? { ...DASHBOARD, counters: { ...DASHBOARD.counters, reviews_completed: 1 }, activity: { decisions: 3, approved: 2, refused: 1 } }
        : DASHBOARD,
    )
    const { user } = renderDashboard()
    const now = await screen.findByRole('region', { name: 'À ce jour' }, { timeout: 10_000 })
    expect(within(now).getByTestId('counter-Taux de conformité')).toHaveTextContent('85%')
    expect(within(now).getByTestId('counter-Comptes à risque')).toHaveTextContent('321')
    expect(within(now).getByTestId('counter-Revues en cours')).toHaveTextContent('4')
    const period = screen.getByRole('region', { name: /^Sur la période/ })
    expect(within(period).getByTestId('counter-Revues complétées')).toHaveTextContent('7')
    expect(within(period).getByTestId('counter-Décisions')).toHaveTextContent('9')
    expect(within(period).getByTestId('counter-Décisions')).toHaveAccessibleDescription('7 validations, 2 refus')

    await user.click(screen.getByRole('button', { name: 'Semaine' }))
    await waitFor(() => expect(within(period).getByTestId('counter-Décisions')).toHaveTextContent('3'))
    expect(within(period).getByTestId('counter-Revues complétées')).toHaveTextContent('1')
    expect(within(period).getByTestId('counter-Décisions')).toHaveAccessibleDescription('2 validations, 1 refus')
    expect(within(now).getByTestId('counter-Comptes à risque')).toHaveTextContent('321')
    expect(screen.getByRole('heading', { name: 'Risques détectés' }).nextElementSibling).toHaveTextContent('À ce jour.')
  })

  it('says under Taux de conformité what it counts, distinct from the compliance page’s rate', async () => {
    renderDashboard()
    const rate = await screen.findByTestId('counter-Taux de conformité', {}, { timeout: 10_000 })
    expect(rate).toHaveAccessibleDescription('droits validés / tous les droits 1\u202f275 droits validés sur 1\u202f500')
    const applications = screen.getByRole('region', { name: 'Conformité par application' })
    expect(applications).toHaveTextContent('À ce jour, part des droits validés : droits validés / tous les droits de l’application.')
  })

  it('agrees the counts with their nouns: one validated right, one decision', async () => {
    stubs.fetchRssiDashboard.mockResolvedValue({
      ...DASHBOARD,
      counters: { ...DASHBOARD.counters, total_rights: 4, validated_rights: 1, validation_rate: 25, validation_level: 'red' },
      activity: { decisions: 1, approved: 1, refused: 0 },
    })
    renderDashboard()
    const rate = await screen.findByTestId('counter-Taux de conformité', {}, { timeout: 10_000 })
    expect(rate).toHaveAccessibleDescription('droits validés / tous les droits 1 droit validé sur 4')
    expect(screen.getByTestId('counter-Décisions')).toHaveAccessibleDescription('1 validation, 0 refus')
    expect(screen.queryByText(/droits validés sur/)).not.toBeInTheDocument()
  })

  it('shows the error in a red box when the figures cannot be read', async () => {
    stubs.fetchRssiDashboard.mockRejectedValue(new Error('Réservé au RSSI.'))
    renderDashboard()
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent('Réservé au RSSI.')
  })
})

describe('RSSI filters dialog', () => {
  it('applies search, application, account type and dates, and Réinitialiser goes back to the defaults', async () => {
    const { user } = renderDashboard()
    await screen.findByTestId('counter-Taux de conformité', {}, { timeout: 10_000 })

    await user.click(screen.getByRole('button', { name: 'Filtres' }))
    // The dialog's code loads when it first opens.
    let dialog = await screen.findByRole('dialog', { name: 'Filtres' })
    await user.type(within(dialog).getByLabelText('Recherche'), 'dupont')
    await user.selectOptions(within(dialog).getByLabelText('Application'), 'app-crm')
    await user.selectOptions(within(dialog).getByLabelText('Type de compte'), 'privileged')
    const from = within(dialog).getByLabelText('Date de début')
    await user.clear(from)
    await user.type(from, '01/01/2026')
    const to = within(dialog).getByLabelText('Date de fin')
    await user.clear(to)
    await user.type(to, '31/03/2026')
    await user.click(within(dialog).getByRole('button', { name: 'Appliquer' }))

    await waitFor(() =>
      expect(stubs.fetchRssiDashboard).toHaveBeenLastCalledWith({
        search: 'dupont',
        applicationId: 'app-crm',
        accountType: 'privileged',
        from: '2026-01-01',
        to: '2026-03-31',
        period: 'personnalisee',
      }),
    )
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Filtres (3)' })).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Filtres (3)' }))
    dialog = await screen.findByRole('dialog', { name: 'Filtres' })
    expect(within(dialog).getByLabelText('Recherche')).toHaveValue('dupont')
    await user.click(within(dialog).getByRole('button', { name: 'Réinitialiser' }))
    expect(within(dialog).getByLabelText('Recherche')).toHaveValue('')
    expect(within(dialog).getByLabelText('Application')).toHaveValue('')
    await user.click(within(dialog).getByRole('button', { name: 'Appliquer' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Filtres' })).toBeInTheDocument())
    expect(stubs.fetchRssiDashboard).toHaveBeenLastCalledWith(expect.objectContaining({ search: '', applicationId: '', accountType: '' }))
  })

  it('refuses an end date before the start date', async () => {
    const { user } = renderDashboard()
    await screen.findByTestId('counter-Taux de conformité', {}, { timeout: 10_000 })
    await user.click(screen.getByRole('button', { name: 'Filtres' }))
    const dialog = screen.getByRole('dialog', { name: 'Filtres' })
    const to = within(dialog).getByLabelText('Date de fin')
    await user.clear(to)
    await user.type(to, '01/01/2000')
    expect(within(dialog).getByText('La date de fin doit suivre la date de début.')).toBeInTheDocument()
    expect(within(dialog).getByRole('button', { name: 'Appliquer' })).toBeDisabled()
  })

  it('exports every filtered right with a busy button, under the SPEC file name', async () => {
    let release: (rows: unknown[]) => void = () => {}
    stubs.fetchAllRightsForExport.mockImplementation((_filters: DashboardFilters, onProgress: (n: number) => void) => {
      onProgress(1000)
      return new Promise((resolve) => (release = resolve))
    })
    const createObjectURL = vi.fn((blob: Blob) => {
      void blob
      return 'blob:csv'
    })
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() })
    const clicks: string[] = []
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download)
    })

    const { user } = renderDashboard()
    await screen.findByTestId('counter-Taux de conformité', {}, { timeout: 10_000 })
    await user.click(screen.getByRole('button', { name: 'Mois' }))
    await user.click(screen.getByRole('button', { name: 'Exporter CSV' }))
    const busy = await screen.findByRole('button', { name: 'Export en cours… (1\u202f000 lignes)' })
    expect(busy).toBeDisabled()
    release([
      {
        id: '1',
        application_name: 'SAP',
        user_name: 'Jean Dupont',
        user_email: 'j@example.com',
        role_name: '=cmd',
        status_label: 'En attente',
        granted_at: '2025-03-05T10:00:00Z',
        last_used_at: null,
        campaign_name: null,
      },
    ])
    await waitFor(() => expect(clicks).toHaveLength(1))
    expect(clicks[0]).toMatch(/^revue-droits-mois-\d{4}-\d{2}-\d{2}\.csv$/)
    const blob = createObjectURL.mock.calls[0]?.[0] as Blob
    const text = new TextDecoder().decode(await blob.arrayBuffer())
    expect(text).toBe("Application;Utilisateur;Rôle;Statut;Date d'attribution;Dernière utilisation;Campagne\r\nSAP;Jean Dupont;'=cmd;En attente;5 mars 2025;Jamais;\r\n")
    expect(screen.getByRole('button', { name: 'Exporter CSV' })).toBeEnabled()
    click.mockRestore()
  })
})
