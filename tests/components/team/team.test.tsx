import { screen, waitFor, within } from '@testing-library/react'
import { useQuery } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import type { AwaitingRight, QueueSummaryRow, TeamSummary } from '@/features/dashboards/model'
import type { HeldRight } from '@/features/rights/model'
import type { TeamMember } from '@/features/team/model'

const stubs = vi.hoisted(() => ({
  fetchTeamSummary: vi.fn(),
  fetchTeamMembers: vi.fn(),
  fetchAwaitingRights: vi.fn(),
  fetchMemberRights: vi.fn(),
  fetchReviewQueueSummary: vi.fn(),
}))

// The api neighbours are stubbed (their real query keys kept): the screens are tested on what Postgres would answer.
vi.mock('@/features/reviews/api', async (original) => (await import('../support/quiet-bell')).quietBell(original))
vi.mock('@/features/dashboards/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/dashboards/api')>()
  return {
    ...actual,
    useTeamSummary: () => useQuery({ ...actual.teamSummaryQuery(), queryFn: () => stubs.fetchTeamSummary() as Promise<TeamSummary> }),
    useAwaitingRights: () => useQuery({ ...actual.awaitingRightsQuery(), queryFn: () => stubs.fetchAwaitingRights() as Promise<AwaitingRight[]> }),
    useReviewQueueSummary: () =>
      useQuery({ ...actual.reviewQueueSummaryQuery(), queryFn: () => stubs.fetchReviewQueueSummary() as Promise<QueueSummaryRow[]> }),
  }
})
vi.mock('@/features/team/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/team/api')>()
  return {
    ...actual,
    useTeamMembers: () => useQuery({ ...actual.teamMembersQuery(), queryFn: () => stubs.fetchTeamMembers() as Promise<TeamMember[]> }),
  }
})
vi.mock('@/features/rights/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/rights/api')>()
  return {
    ...actual,
    usePersonRights: (userId: string) =>
      useQuery({ ...actual.personRightsQuery(userId), queryFn: () => stubs.fetchMemberRights(userId) as Promise<HeldRight[]> }),
  }
})

const SUMMARY: TeamSummary = {
  team_size: 5,
  rights_count: 17,
  pending_count: 7,
  validated_count: 6,
  refused_count: 2,
  treatment_required_count: 1,
  treated_count: 1,
  progress: 59,
  awaiting_decision_count: 12,
}

function member(overrides: Partial<TeamMember>): TeamMember {
  return {
    user_id: 'u',
    full_name: 'X Y',
    email: 'x@example.com',
    position: null,
    department: 'Finance',
    rights_count: 0,
    pending_count: 0,
    validated_count: 0,
    refused_count: 0,
    treatment_required_count: 0,
    treated_count: 0,
    progress: null,
    ...overrides,
  }
}

const MEMBERS: TeamMember[] = [
  member({ user_id: 'u-emma', full_name: 'Emma Girard', email: 'emma.girard@example.com', position: 'Chargée de clientèle', rights_count: 3, pending_count: 3, progress: 0 }),
  member({ user_id: 'u-julie', full_name: 'Julie Martin', email: 'user@example.com', position: 'Comptable', rights_count: 5, pending_count: 2, validated_count: 2, refused_count: 1, progress: 60 }),
  member({ user_id: 'u-new', full_name: 'Nina Nouvelle', email: 'nina@example.com' }),
  // Rights the RA has to treat, or has treated, count as progress and need their own columns.
  member({ user_id: 'u-lucas', full_name: 'Lucas Bonnet', email: 'lucas.bonnet@example.com', rights_count: 3, pending_count: 1, treatment_required_count: 1, treated_count: 1, progress: 67 }),
  member({ user_id: 'u-paul', full_name: 'Paul Mercier', email: 'paul.mercier@example.com', rights_count: 1, treated_count: 1, progress: 100 }),
]

const TEAM_COLUMNS = ['Collaborateur', 'Poste', 'Droits', 'En attente', 'Validés', 'Refusés', 'En traitement', 'Traités', 'Progression %']

/** Each row's Droits is the sum of the five columns beside it, read off the screen. */
function expectRowsToAddUp(table: HTMLElement) {
  const header = within(table).getAllByRole('columnheader').map((cell) => cell.textContent)
  const at = (name: string) => header.indexOf(name)
  const rows = within(table).getAllByRole('row').slice(1)
  expect(rows).toHaveLength(MEMBERS.length)
  for (const row of rows) {
    const cells = within(row).getAllByRole('cell').map((cell) => Number(cell.textContent))
    const parts = ['En attente', 'Validés', 'Refusés', 'En traitement', 'Traités'].map((name) => cells[at(name)]!)
    expect(parts.reduce((a, b) => a + b, 0), row.textContent ?? '').toBe(cells[at('Droits')])
  }
}

const AWAITING: AwaitingRight[] = [
  { right_id: 'r2', holder_name: 'Lucas Bonnet', application_name: 'Active Directory', role_name: 'Compte de service', status: 'pending', last_used_at: null, recommendation: 'Jamais utilisé', approve_status: 'validated_manager', refuse_status: 'refused_manager' },
  { right_id: 'r1', holder_name: 'Julie Martin', application_name: 'SAP Finance', role_name: 'Comptable', status: 'validated_user', last_used_at: '2026-11-10T00:00:00Z', recommendation: null, approve_status: 'validated_manager', refuse_status: 'refused_manager' },
]

const JULIE_RIGHTS: HeldRight[] = [
  {
    id: 'jr1',
    status: 'validated_user',
    role_name: 'Comptable',
    account_type: 'standard',
    granted_at: '2023-03-01T00:00:00Z',
    last_used_at: '2026-11-10T00:00:00Z',
    application: { name: 'SAP Finance' },
    campaign: { name: 'Revue T4', end_date: '2026-12-15' },
  },
  {
    id: 'jr2',
    status: 'refused_user',
    role_name: 'Developer',
    account_type: 'privileged',
    granted_at: '2025-02-01T00:00:00Z',
    last_used_at: null,
    application: { name: 'GitLab' },
    campaign: null,
  },
]

function renderAs(path: string) {
  return renderApp({ path, gateway: createFakeGateway({ sessionUser: makeUser('manager', { id: 'id-manager', firstName: 'Marc', lastName: 'Dubois' }) }) })
}

beforeEach(() => {
  stubs.fetchTeamSummary.mockReset().mockResolvedValue(SUMMARY)
  stubs.fetchTeamMembers.mockReset().mockResolvedValue(MEMBERS)
  stubs.fetchAwaitingRights.mockReset().mockResolvedValue(AWAITING)
  stubs.fetchMemberRights.mockReset().mockImplementation(async (userId: string) => (userId === 'u-julie' ? JULIE_RIGHTS : []))
  stubs.fetchReviewQueueSummary.mockReset().mockResolvedValue([])
})

/** A line of rpc('review_queue_summary'): the manager's own queue when actingAs is null, else rights confided to them. */
function queueLine(rightsCount: number, actingAs: QueueSummaryRow['acting_as'] = null): QueueSummaryRow {
  return {
    campaign_id: 'c-t4',
    campaign_name: 'Revue T4 2026',
    campaign_status: 'active',
    end_date: '2026-12-15',
    stage: 'manager',
    acting_as: actingAs,
    on_behalf_of: actingAs === 'delegate' ? 'u-marc' : null,
    on_behalf_of_name: actingAs === 'delegate' ? 'Marc Petit' : null,
    rights_count: rightsCount,
  }
}

describe('Manager dashboard', () => {
  it('shows the counters Postgres computed for the whole team', async () => {
    renderAs('/app/dashboard')
    await waitFor(() => expect(screen.getByTestId('counter-Équipe')).toHaveTextContent('5'), { timeout: 10_000 })
    expect(screen.getByTestId('counter-Droits')).toHaveTextContent('17')
    expect(screen.getByTestId('counter-En attente')).toHaveTextContent('7')
    expect(screen.getByTestId('counter-Validés')).toHaveTextContent('6')
    expect(screen.getByTestId('counter-Refusés')).toHaveTextContent('2')
    expect(screen.getByTestId('counter-En traitement')).toHaveTextContent('1')
    expect(screen.getByTestId('counter-Traités')).toHaveTextContent('1')
  })

  it('shows counters that add up to the team’s rights', async () => {
    renderAs('/app/dashboard')
    await waitFor(() => expect(screen.getByTestId('counter-Droits')).toHaveTextContent('17'), { timeout: 10_000 })
    const parts = ['En attente', 'Validés', 'Refusés', 'En traitement', 'Traités'].map((label) => Number(screen.getByTestId(`counter-${label}`).textContent))
    expect(parts.reduce((a, b) => a + b, 0)).toBe(17)
  })

  it("lists the rights awaiting the manager, by person, and leads to Mes revues to decide them", async () => {
    renderAs('/app/dashboard')
    const table = await screen.findByRole('table', { name: "Droits à valider pour l'équipe" }, { timeout: 10_000 })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((row) => within(row).getAllByRole('cell')[0]?.textContent)).toEqual(['Julie Martin', 'Lucas Bonnet'])
    expect(within(rows[0]!).getByText("Validé par l'utilisateur")).toBeInTheDocument()
    expect(within(rows[0]!).getByText('10 novembre 2026')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('Jamais')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('Jamais utilisé')).toBeInTheDocument()
    // Only the first page of the queue is fetched; the count comes from Postgres.
    expect(screen.getByText('2 sur 12 droits en attente de votre décision.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Traiter dans Mes revues' })).toHaveAttribute('href', '/app/reviews')
  })

  it('opens the validation dialog from a row of the dashboard, and Annuler closes it', async () => {
    const { user } = renderAs('/app/dashboard')
    await user.click(await screen.findByRole('button', { name: 'Refuser Active Directory — Compte de service (Lucas Bonnet)' }, { timeout: 10_000 }))
    const dialog = await screen.findByRole('dialog', { name: 'Revue du droit' })
    expect(within(dialog).getByText('Lucas Bonnet')).toBeInTheDocument()
    expect(within(dialog).getByText('Compte de service')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    expect(screen.getByRole('button', { name: 'Valider SAP Finance — Comptable (Julie Martin)' })).toBeInTheDocument()
  })

  it("shows the team's progress with SPEC's columns", async () => {
    renderAs('/app/dashboard')
    const table = await screen.findByRole('table', { name: "État d'avancement de l'équipe" }, { timeout: 10_000 })
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(TEAM_COLUMNS)
    const julie = within(table).getByRole('row', { name: /Julie Martin/ })
    expect(within(julie).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Julie Martinuser@example.com', 'Comptable', '5', '2', '2', '1', '0', '0', '60%'])
    expect(within(julie).getByRole('progressbar', { name: 'Progression de Julie Martin' })).toHaveAttribute('aria-valuenow', '60')
    // A person without rights has no progress, and an empty position shows '-'.
    const nina = within(table).getByRole('row', { name: /Nina Nouvelle/ })
    expect(within(nina).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Nina Nouvellenina@example.com', '-', '0', '0', '0', '0', '0', '0', '-'])
    const lucas = within(table).getByRole('row', { name: /Lucas Bonnet/ })
    expect(within(lucas).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Lucas Bonnetlucas.bonnet@example.com', '-', '3', '1', '0', '0', '1', '1', '67%'])
    expectRowsToAddUp(table)
  })

  it('gives the count alone when the whole queue fits on the dashboard', async () => {
    stubs.fetchTeamSummary.mockResolvedValue({ ...SUMMARY, awaiting_decision_count: 2 })
    renderAs('/app/dashboard')
    expect(await screen.findByText('2 droits en attente de votre décision.', {}, { timeout: 10_000 })).toBeInTheDocument()
  })

  it('agrees the count of one right awaiting the manager in the singular', async () => {
    stubs.fetchTeamSummary.mockResolvedValue({ ...SUMMARY, awaiting_decision_count: 1 })
    stubs.fetchAwaitingRights.mockResolvedValue(AWAITING.slice(0, 1))
    renderAs('/app/dashboard')
    expect(await screen.findByText('1 droit en attente de votre décision.', {}, { timeout: 10_000 })).toBeInTheDocument()
  })

  it('says so when nothing awaits the manager and the team is empty', async () => {
    stubs.fetchTeamSummary.mockResolvedValue({ ...SUMMARY, team_size: 0, rights_count: 0, pending_count: 0, validated_count: 0, refused_count: 0, treatment_required_count: 0, treated_count: 0, progress: null, awaiting_decision_count: 0 })
    stubs.fetchAwaitingRights.mockResolvedValue([])
    stubs.fetchTeamMembers.mockResolvedValue([])
    renderAs('/app/dashboard')
    expect(await screen.findByText("Aucun droit de l'équipe n'attend votre décision.", {}, { timeout: 10_000 })).toBeInTheDocument()
    expect(screen.getByText('Rien en attente de votre décision.')).toBeInTheDocument()
    expect(await screen.findByText('Aucun collaborateur dans votre équipe.')).toBeInTheDocument()
    expect(screen.getByTestId('counter-Équipe')).toHaveTextContent('0')
  })

  it('adds the rights confided to the manager to the team’s, as the bell counts them', async () => {
    stubs.fetchTeamSummary.mockResolvedValue({ ...SUMMARY, awaiting_decision_count: 2 })
    stubs.fetchReviewQueueSummary.mockResolvedValue([queueLine(2), queueLine(3, 'delegate'), queueLine(1, 'fallback')])
    renderAs('/app/dashboard')
    expect(
      await screen.findByText('2 droits en attente de votre décision. Et 4 droits qui vous sont confiés (délégation ou relecteur de secours), dans Mes revues.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument()
  })

  it('says what is confided when nothing of the team waits, in the singular', async () => {
    stubs.fetchTeamSummary.mockResolvedValue({ ...SUMMARY, awaiting_decision_count: 0 })
    stubs.fetchAwaitingRights.mockResolvedValue([])
    stubs.fetchReviewQueueSummary.mockResolvedValue([queueLine(1, 'delegate')])
    renderAs('/app/dashboard')
    expect(
      await screen.findByText('Rien pour l’équipe, et 1 droit qui vous est confié (délégation ou relecteur de secours), dans Mes revues.', {}, { timeout: 10_000 }),
    ).toBeInTheDocument()
    expect(screen.queryByText('Rien en attente de votre décision.')).not.toBeInTheDocument()
  })

  it('shows the French error of each failed call in its place', async () => {
    stubs.fetchTeamSummary.mockRejectedValue(new Error('Une erreur est survenue'))
    stubs.fetchAwaitingRights.mockRejectedValue(new Error('La taille de page doit être comprise entre 1 et 1000.'))
    renderAs('/app/dashboard')
    await waitFor(() => expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(
      expect.arrayContaining(['Une erreur est survenue', 'La taille de page doit être comprise entre 1 et 1000.']),
    ), { timeout: 10_000 })
    expect(screen.getByTestId('counter-Équipe')).toHaveTextContent('…')
    // The team's table does not depend on the failed calls.
    expect(await screen.findByRole('table', { name: "État d'avancement de l'équipe" })).toBeInTheDocument()
  })
})

describe('Équipe', () => {
  it('lists each member with position, their rights by status, adding up, and progress', async () => {
    renderAs('/app/team')
    expect(await screen.findByRole('heading', { name: 'Équipe', level: 1 }, { timeout: 10_000 })).toBeInTheDocument()
    const table = await screen.findByRole('table', { name: "Membres de l'équipe" })
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(TEAM_COLUMNS)
    const emma = within(table).getByRole('row', { name: /Emma Girard/ })
    expect(within(emma).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Emma Girardemma.girard@example.com', 'Chargée de clientèle', '3', '3', '0', '0', '0', '0', '0%'])
    const paul = within(table).getByRole('row', { name: /Paul Mercier/ })
    expect(within(paul).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Paul Mercierpaul.mercier@example.com', '-', '1', '0', '0', '0', '0', '1', '100%'])
    expectRowsToAddUp(table)
  })

  it("opens a member's rights from the keyboard, and gives focus back on Escape", async () => {
    const { user } = renderAs('/app/team')
    const open = await screen.findByRole('button', { name: 'Voir les droits de Julie Martin' }, { timeout: 10_000 })
    open.focus()
    await user.keyboard('{Enter}')
    const dialog = screen.getByRole('dialog', { name: 'Droits de Julie Martin' })
    expect(dialog).toHaveAccessibleDescription('Comptable · user@example.com')
    const table = await within(dialog).findByRole('table', { name: 'Droits de Julie Martin' })
    const gitlab = within(table).getByRole('row', { name: /GitLab/ })
    expect(within(gitlab).getAllByRole('cell').map((cell) => cell.textContent)).toEqual([
      'GitLab',
      'Developer',
      'À privilèges',
      '1er février 2025',
      'Jamais',
      "Refusé par l'utilisateur",
    ])
    expect(within(table).getByRole('row', { name: /SAP Finance/ })).toHaveTextContent("Validé par l'utilisateur")
    expect(stubs.fetchMemberRights).toHaveBeenCalledWith('u-julie')

    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(open).toHaveFocus()
  })

  it('says so when a member holds no right', async () => {
    const { user } = renderAs('/app/team')
    await user.click(await screen.findByRole('button', { name: 'Voir les droits de Nina Nouvelle' }, { timeout: 10_000 }))
    const dialog = screen.getByRole('dialog', { name: 'Droits de Nina Nouvelle' })
    expect(await within(dialog).findByText('Aucun droit pour ce collaborateur.')).toBeInTheDocument()
  })

  it("shows the error when a member's rights cannot be read", async () => {
    stubs.fetchMemberRights.mockRejectedValue(new Error('Une erreur est survenue'))
    const { user } = renderAs('/app/team')
    await user.click(await screen.findByRole('button', { name: 'Voir les droits de Emma Girard' }, { timeout: 10_000 }))
    const dialog = screen.getByRole('dialog', { name: 'Droits de Emma Girard' })
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Une erreur est survenue')
  })

  it('shows a spinner while the team loads, then the error if it fails', async () => {
    let reject: (error: Error) => void = () => {}
    stubs.fetchTeamMembers.mockImplementation(() => new Promise((_, fail) => (reject = fail)))
    renderAs('/app/team')
    await screen.findByRole('heading', { name: 'Équipe', level: 1 }, { timeout: 10_000 })
    // Rejected only once the page has asked, so that the rejection always has the query to handle it.
    await waitFor(() => expect(stubs.fetchTeamMembers).toHaveBeenCalled())
    expect(screen.getByRole('status')).toHaveTextContent('Chargement…')
    reject(new Error('Une erreur est survenue'))
    expect(await screen.findByRole('alert')).toHaveTextContent('Une erreur est survenue')
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })
})
