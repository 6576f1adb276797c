import { screen, waitFor, within } from '@testing-library/react'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import type { DecisionEntry, HistoryCursor, HistoryScope, ProfileDetails } from '@/features/profile/model'
import type { HeldRight } from '@/features/rights/model'

const stubs = vi.hoisted(() => ({
  fetchProfile: vi.fn(),
  fetchMyRights: vi.fn(),
  fetchDecisionHistory: vi.fn(),
}))

// The api neighbours are stubbed (their real query options kept): the page is tested on what Postgres would answer.
vi.mock('@/features/reviews/api', async (original) => (await import('../support/quiet-bell')).quietBell(original))
vi.mock('@/features/rights/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/rights/api')>()
  return {
    ...actual,
    usePersonRights: (userId: string) => useQuery({ ...actual.personRightsQuery(userId), queryFn: () => stubs.fetchMyRights(userId) as Promise<HeldRight[]> }),
  }
})
vi.mock('@/features/profile/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/profile/api')>()
  return {
    ...actual,
    useProfile: (userId: string) => useQuery({ ...actual.profileQuery(userId), queryFn: () => stubs.fetchProfile(userId) as Promise<ProfileDetails> }),
    useDecisionHistory: (userId: string, scope: HistoryScope) =>
      useInfiniteQuery({
        ...actual.decisionHistoryQuery(userId, scope),
        queryFn: ({ pageParam }: { pageParam: HistoryCursor | undefined }) => stubs.fetchDecisionHistory(scope, pageParam) as Promise<DecisionEntry[]>,
      }),
  }
})

const JULIE: ProfileDetails = {
  id: 'id-user',
  email: 'user@example.com',
  first_name: 'Julie',
  last_name: 'Martin',
  role: 'user',
  position: 'Comptable',
  department: 'Finance',
  last_login: '2026-11-20T14:30:00',
  manager: { first_name: 'Marc', last_name: 'Dubois' },
}

const RIGHTS: HeldRight[] = [
  {
    id: 'r1',
    status: 'pending',
    role_name: 'Lecteur',
    account_type: 'standard',
    granted_at: '2024-01-15T00:00:00Z',
    last_used_at: null,
    application: { name: 'Salesforce CRM' },
    campaign: { name: 'Revue T4', end_date: '2026-12-15' },
  },
]

function decision(id: string, overrides: Partial<DecisionEntry> = {}): DecisionEntry {
  return {
    decision_id: id,
    right_id: 'r0',
    stage: 'user',
    decision: 'approved',
    from_status: 'pending',
    to_status: 'validated_user',
    comment: null,
    decided_at: '2026-10-02T09:15:00',
    decided_by: 'id-user',
    decided_by_name: 'Julie Martin',
    decided_by_email: 'user@example.com',
    holder_id: 'id-user',
    holder_name: 'Julie Martin',
    holder_email: 'user@example.com',
    application_name: 'SAP Finance',
    role_name: 'Comptable',
    campaign_name: 'Revue T3',
    ...overrides,
  }
}

const HISTORY = [
  decision('d2', { stage: 'manager', to_status: 'validated_manager', from_status: 'validated_user', decided_by: 'id-marc', decided_by_name: 'Marc Dubois', decided_at: '2026-10-03T10:00:00' }),
  decision('d1', { comment: 'Toujours nécessaire' }),
]

function renderProfile(overrides: Parameters<typeof makeUser>[1] = {}) {
  return renderApp({
    path: '/app/profile',
    gateway: createFakeGateway({ sessionUser: makeUser('user', { id: 'id-user', firstName: 'Julie', lastName: 'Martin', ...overrides }) }),
  })
}

beforeEach(() => {
  stubs.fetchProfile.mockReset().mockResolvedValue(JULIE)
  stubs.fetchMyRights.mockReset().mockResolvedValue(RIGHTS)
  stubs.fetchDecisionHistory.mockReset().mockResolvedValue(HISTORY)
})

function field(label: string): string | null {
  const identity = screen.getByRole('region', { name: 'Identité' })
  return within(identity).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent ?? null
}

describe('Profil', () => {
  it('shows my identity, French role, manager and last login', async () => {
    renderProfile()
    const identity = await screen.findByRole('region', { name: 'Identité' }, { timeout: 10_000 })
    await within(identity).findByText('Julie Martin')
    expect(field('Nom')).toBe('Julie Martin')
    expect(field('E-mail')).toBe('user@example.com')
    expect(field('Poste')).toBe('Comptable')
    expect(field('Département')).toBe('Finance')
    expect(field('Rôle')).toBe('Utilisateur')
    expect(field('Manager')).toBe('Marc Dubois')
    expect(field('Dernière connexion')).toBe('20 novembre 2026 à 14:30')
    expect(stubs.fetchProfile).toHaveBeenCalledWith('id-user')
  })

  it('lists my rights and my decision history, newest first', async () => {
    renderProfile()
    const rights = await screen.findByRole('table', { name: 'Mes droits' }, { timeout: 10_000 })
    expect(within(rights).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'Salesforce CRM',
      'Lecteur',
      'Standard',
      '15 janvier 2024',
      'Jamais',
      'En attente',
    ])
    const history = await screen.findByRole('table', { name: 'Historique des décisions' })
    const rows = within(history).getAllByRole('row').slice(1)
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['3 octobre 2026 à 10:00', 'SAP Finance', 'Comptable', 'Julie Martin', 'Validé par le manager', 'Marc Dubois', '-'],
      ['2 octobre 2026 à 09:15', 'SAP Finance', 'Comptable', 'Julie Martin', "Validé par l'utilisateur", 'Julie Martin', 'Toujours nécessaire'],
    ])
    expect(stubs.fetchDecisionHistory).toHaveBeenCalledWith('all', undefined)
    expect(screen.queryByRole('button', { name: 'Afficher plus' })).not.toBeInTheDocument()
  })

  it('narrows the history to the decisions I took', async () => {
    const { user } = renderProfile()
    await screen.findByRole('table', { name: 'Historique des décisions' }, { timeout: 10_000 })
    stubs.fetchDecisionHistory.mockResolvedValue([HISTORY[1]])
    await user.selectOptions(screen.getByLabelText('Afficher'), 'Prises par moi')
    await waitFor(() => expect(stubs.fetchDecisionHistory).toHaveBeenLastCalledWith('taken', undefined))
    const history = screen.getByRole('table', { name: 'Historique des décisions' })
    await waitFor(() => expect(within(history).getAllByRole('row')).toHaveLength(2))
    expect(within(history).queryByText('Marc Dubois')).not.toBeInTheDocument()
  })

  it('loads older decisions from where the last page ended', async () => {
    const fullPage = Array.from({ length: 50 }, (_, index) =>
      decision(`p${String(index).padStart(2, '0')}`, { decided_at: `2026-10-${String(30 - Math.floor(index / 2)).padStart(2, '0')}T08:00:00`, role_name: `Rôle ${index}` }),
    )
    stubs.fetchDecisionHistory.mockImplementation(async (_scope: HistoryScope, cursor?: HistoryCursor) =>
      cursor ? [decision('older', { role_name: 'Ancien rôle', decided_at: '2025-01-01T08:00:00' })] : fullPage,
    )
    const { user } = renderProfile()
    const more = await screen.findByRole('button', { name: 'Afficher plus' }, { timeout: 10_000 })
    await user.click(more)
    expect(await screen.findByText('Ancien rôle')).toBeInTheDocument()
    const last = fullPage[49]!
    expect(stubs.fetchDecisionHistory).toHaveBeenLastCalledWith('all', { beforeAt: last.decided_at, beforeId: last.decision_id })
    expect(within(screen.getByRole('table', { name: 'Historique des décisions' })).getAllByRole('row')).toHaveLength(52)
    expect(screen.queryByRole('button', { name: 'Afficher plus' })).not.toBeInTheDocument()
  })

  it('says so when I have no manager, never signed in, hold no right and decided nothing', async () => {
    stubs.fetchProfile.mockResolvedValue({ ...JULIE, manager: null, last_login: null, position: null })
    stubs.fetchMyRights.mockResolvedValue([])
    stubs.fetchDecisionHistory.mockResolvedValue([])
    renderProfile()
    const identity = await screen.findByRole('region', { name: 'Identité' }, { timeout: 10_000 })
    await within(identity).findByText('Julie Martin')
    expect(field('Manager')).toBe('Aucun manager')
    expect(field('Dernière connexion')).toBe('Jamais')
    expect(field('Poste')).toBe('-')
    expect(await screen.findByText('Vous ne détenez aucun droit.')).toBeInTheDocument()
    expect(await screen.findByText('Aucune décision enregistrée.')).toBeInTheDocument()
  })

  it('shows the French error of each failed call in its place', async () => {
    stubs.fetchProfile.mockRejectedValue(new Error('Une erreur est survenue'))
    stubs.fetchDecisionHistory.mockRejectedValue(new Error('Historique inconnu'))
    renderProfile()
    const identity = await screen.findByRole('region', { name: 'Identité' }, { timeout: 10_000 })
    expect(await within(identity).findByRole('alert')).toHaveTextContent('Une erreur est survenue')
    await waitFor(() => expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain('Historique inconnu'))
    expect(screen.queryByRole('table', { name: 'Historique des décisions' })).not.toBeInTheDocument()
    // My rights do not depend on the failed calls.
    expect(await screen.findByRole('table', { name: 'Mes droits' })).toBeInTheDocument()
  })
})
