import { screen, waitFor, within } from '@testing-library/react'
import { queryOptions } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import { riskListArgs, type DashboardFilters, type RiskList, type RssiDashboard } from '@/features/dashboards/model'

// The RSSI's risk tiles: each says what it counts and opens, in a dialog, the list behind its figure, page by page,
// under the dashboard's filters. The API is stubbed with what Postgres would answer (rssi_dashboard, rssi_risk_list).
const stubs = vi.hoisted(() => ({
  fetchRssiDashboard: vi.fn(),
  riskList: vi.fn(),
}))

vi.mock('@/features/dashboards/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/dashboards/api')>()),
  useLiveRssiDashboard: () => {},
  usePrefetchRssiDashboard: () => {},
  rssiDashboardQuery: (filters: DashboardFilters) =>
    queryOptions({ queryKey: ['dashboard', 'rssi', filters], queryFn: () => stubs.fetchRssiDashboard(filters) as Promise<RssiDashboard> }),
  rssiTrendsQuery: () => queryOptions({ queryKey: ['dashboard', 'rssi', 'trends'], queryFn: () => new Promise<never>(() => {}) }),
  // What the list asks the API, in the RPC's own arguments.
  rssiRiskListQuery: (filters: DashboardFilters, risk: string, page: { page: number; size: number }) =>
    queryOptions({
      queryKey: ['dashboard', 'rssi', 'risk', risk, filters, page.page, page.size],
      queryFn: () => stubs.riskList(riskListArgs(filters, risk, page)) as Promise<RiskList>,
    }),
}))
vi.mock('@/features/rights/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/rights/api')>()),
  useApplicationOptions: () => ({ data: [{ id: 'app-sap', name: 'SAP' }] }),
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
  compliance_by_application: [],
  risks: [
    { key: 'expired', label: 'Comptes expirés', count: 30, ignored_filters: [] },
    { key: 'inactive', label: 'Comptes inactifs', count: 321, ignored_filters: [] },
    { key: 'incompatible_roles', label: 'Rôles incompatibles', count: 1, ignored_filters: ['search', 'account_type'] },
    { key: 'duplicates', label: 'Doublons', count: 0, ignored_filters: [] },
  ],
  active_campaigns: [],
  activity: { decisions: 0, approved: 0, refused: 0 },
}

const CONFLICTS: RiskList = {
  key: 'incompatible_roles',
  label: 'Rôles incompatibles',
  total: 1,
  ignored_filters: ['search', 'account_type'],
  rows: [
    {
      rule_id: 'rule-1',
      rule_name: 'Séparation saisie / approbation',
      user_id: 'u-1',
      user_name: 'Julien Marchand',
      user_email: 'julien.marchand@example.org',
      user_active: true,
      rights: [
        { id: 'r-1', role_name: 'Comptable', application_id: 'app-sap', application_name: 'SAP Finance' },
        { id: 'r-2', role_name: 'Approbateur factures', application_id: 'app-crm', application_name: 'Circuit factures' },
      ],
    },
  ],
}

/** A leaver's rights, 30 in all: the page asked for, numbered from its offset. */
function expiredPage(offset: number, limit: number): RiskList {
  return {
    key: 'expired',
    label: 'Comptes expirés',
    total: 30,
    ignored_filters: [],
    rows: Array.from({ length: Math.max(0, Math.min(limit, 30 - offset)) }, (_, index) => ({
      id: `right-${offset + index + 1}`,
      user_id: 'u-9',
      user_name: 'Lucas Bonnet',
      user_email: 'lucas.bonnet@example.com',
      user_active: false,
      application_id: 'app-sap',
      application_name: 'SAP Finance',
      role_name: `Rôle ${offset + index + 1}`,
      account_type: 'standard',
      status: 'pending',
      status_label: 'En attente',
      last_used_at: null,
    })),
  }
}

beforeEach(() => {
  stubs.fetchRssiDashboard.mockReset().mockResolvedValue(DASHBOARD)
  stubs.riskList.mockReset().mockImplementation(async (args: { p_risk: string; p_offset: number; p_limit: number }) =>
    args.p_risk === 'incompatible_roles' ? CONFLICTS : expiredPage(args.p_offset, args.p_limit),
  )
})

async function renderDashboard() {
  const view = renderApp({ path: '/app/dashboard', gateway: createFakeGateway({ sessionUser: makeUser('rssi') }) })
  await screen.findByRole('list', { name: 'Risques détectés' }, { timeout: 10_000 })
  return view
}

describe('RSSI risk tiles', () => {
  it('say what each figure counts, and which filters « Rôles incompatibles » leaves aside', async () => {
    await renderDashboard()
    const tiles = within(screen.getByRole('list', { name: 'Risques détectés' })).getAllByRole('button')
    expect(tiles.map((tile) => tile.getAttribute('aria-label'))).toEqual([
      'Comptes expirés 30, voir la liste',
      'Comptes inactifs 321, voir la liste',
      'Rôles incompatibles 1, voir la liste',
      'Doublons 0, voir la liste',
    ])
    expect(tiles[0]).toHaveAccessibleDescription('droits encore détenus par des personnes désactivées, non traités par le RA')
    expect(tiles[2]).toHaveAccessibleDescription(
      'violations des règles de séparation des tâches actives, une par règle et par personne, comme la page Conformité ' +
        'Filtres non appliqués : la recherche et le type de compte.',
    )
  })

  it('open « Rôles incompatibles » on its violations: who, under which rule, the rights in conflict', async () => {
    const { user } = await renderDashboard()
    await user.click(screen.getByRole('button', { name: 'Rôles incompatibles 1, voir la liste' }))
    const dialog = await screen.findByRole('dialog', { name: 'Rôles incompatibles' })
    const table = await within(dialog).findByRole('table', { name: 'Rôles incompatibles' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(1)
    expect(rows[0]).toHaveTextContent('Julien Marchand')
    expect(rows[0]).toHaveTextContent('Séparation saisie / approbation')
    expect(within(rows[0]!).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '« Comptable » sur SAP Finance',
      '« Approbateur factures » sur Circuit factures',
    ])
    expect(within(dialog).getByText('Filtres non appliqués : la recherche et le type de compte.')).toBeInTheDocument()
    expect(within(dialog).getByRole('status')).toHaveTextContent('1–1 sur 1 violation')
    expect(stubs.riskList).toHaveBeenCalledWith(expect.objectContaining({ p_risk: 'incompatible_roles', p_offset: 0, p_limit: 25 }))

    await user.click(within(dialog).getByRole('button', { name: 'Fermer' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('open « Comptes expirés » on its rights, as many as the figure, page after page', async () => {
    const { user } = await renderDashboard()
    await user.click(screen.getByRole('button', { name: 'Comptes expirés 30, voir la liste' }))
    const dialog = await screen.findByRole('dialog', { name: 'Comptes expirés' })
    const rows = async () => within(await within(dialog).findByRole('table', { name: 'Comptes expirés' })).getAllByRole('row').slice(1)
    expect(await rows()).toHaveLength(25)
    expect((await rows())[0]).toHaveTextContent('Lucas Bonnet')
    expect((await rows())[0]).toHaveTextContent('Désactivé')
    expect((await rows())[0]).toHaveTextContent('Jamais')
    expect(within(dialog).getByRole('status')).toHaveTextContent('1–25 sur 30 droits')

    await user.click(within(dialog).getByRole('button', { name: 'Page suivante' }))
    await waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent('26–30 sur 30 droits'))
    await waitFor(async () => expect(await rows()).toHaveLength(5))
    expect((await rows())[4]).toHaveTextContent('Rôle 30')
    expect(within(dialog).getByRole('button', { name: 'Page suivante' })).toBeDisabled()
    expect(stubs.riskList).toHaveBeenLastCalledWith(expect.objectContaining({ p_risk: 'expired', p_offset: 25, p_limit: 25 }))
  })

  it('apply the dashboard’s filters to the list, as to the figure', async () => {
    const { user } = await renderDashboard()
    await user.click(screen.getByRole('button', { name: 'Filtres' }))
    const filters = await screen.findByRole('dialog', { name: 'Filtres' })
    await user.selectOptions(within(filters).getByLabelText('Application'), 'app-sap')
    await user.click(within(filters).getByRole('button', { name: 'Appliquer' }))
    await waitFor(() => expect(stubs.fetchRssiDashboard).toHaveBeenCalledTimes(2))

    await user.click(await screen.findByRole('button', { name: 'Comptes expirés 30, voir la liste' }))
    await screen.findByRole('dialog', { name: 'Comptes expirés' })
    expect(stubs.riskList).toHaveBeenCalledWith({ p_risk: 'expired', p_application_id: 'app-sap', p_offset: 0, p_limit: 25 })
  })
})
