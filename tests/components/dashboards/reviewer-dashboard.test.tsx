import { screen, waitFor, within } from '@testing-library/react'
import { useQuery } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import type { QueueSummaryRow, ReviewDeadline, RightsSummary } from '@/features/dashboards/model'
import type { HeldRight } from '@/features/rights/model'
import type { Role } from '@/domain/labels'

const stubs = vi.hoisted(() => ({ fetchReviewQueueSummary: vi.fn(), fetchRightsSummary: vi.fn() }))

// The api neighbours are stubbed (their real query keys kept): the screen is tested on what Postgres would answer.
vi.mock('@/features/reviews/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/reviews/api')>()),
  useReviewQueueCount: () => ({ data: 7 }),
}))
vi.mock('@/features/dashboards/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/dashboards/api')>()
  return {
    ...actual,
    useRightsSummary: () => useQuery({ ...actual.rightsSummaryQuery(), queryFn: () => stubs.fetchRightsSummary() as Promise<RightsSummary> }),
    useReviewDeadline: () => useQuery({ ...actual.reviewDeadlineQuery(), queryFn: async (): Promise<ReviewDeadline | null> => null }),
    useReviewQueueSummary: () =>
      useQuery({ ...actual.reviewQueueSummaryQuery(), queryFn: () => stubs.fetchReviewQueueSummary() as Promise<QueueSummaryRow[]> }),
  }
})
vi.mock('@/features/rights/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/rights/api')>()
  return {
    ...actual,
    usePersonRights: (userId: string) => useQuery({ ...actual.personRightsQuery(userId), queryFn: async (): Promise<HeldRight[]> => [] }),
  }
})

// The RA's queue of the walkthrough: 7 rights, in the running campaign and in last year's, completed.
const OWN = { acting_as: null, on_behalf_of: null, on_behalf_of_name: null }
const RA_QUEUE: QueueSummaryRow[] = [
  { campaign_id: 'c-2025', campaign_name: 'Revue annuelle 2025', campaign_status: 'completed', end_date: '2025-11-30', stage: 'ra', ...OWN, rights_count: 1 },
  { campaign_id: 'c-t4', campaign_name: 'Revue T4 2026', campaign_status: 'active', end_date: '2026-12-15', stage: 'ra', ...OWN, rights_count: 6 },
]

const NO_RIGHTS: RightsSummary = { rights_count: 0, pending_count: 0, validated_count: 0, refused_count: 0, treatment_required_count: 0, treated_count: 0 }

function renderAs(role: Role) {
  return renderApp({ path: '/app/dashboard', gateway: createFakeGateway({ sessionUser: makeUser(role) }) })
}

beforeEach(() => {
  stubs.fetchReviewQueueSummary.mockReset().mockResolvedValue(RA_QUEUE)
  stubs.fetchRightsSummary.mockReset().mockResolvedValue(NO_RIGHTS)
})

describe('A reviewer’s dashboard', () => {
  it.each(['ra', 'bpo_metier', 'bpo_groupe'] as const)('%s: shows their queue per campaign and stage, its deadline, and leads to Mes revues', async (role) => {
    renderAs(role)
    const table = await screen.findByRole('table', { name: 'Ma file de revue' }, { timeout: 10_000 })
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Campagne', 'Étape', 'Droits en attente', 'Date limite'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      // The RA treats refusals after the campaign's end: its past deadline says why.
      ['Revue annuelle 2025', "Responsable d'Application", '1', '30 novembre 2025 (campagne terminée)'],
      ['Revue T4 2026', "Responsable d'Application", '6', '15 décembre 2026'],
    ])
    expect(screen.getByText('7 droits attendent votre décision.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Traiter dans Mes revues' })).toHaveAttribute('href', '/app/reviews')
    // Holding no right, they are not shown an empty list of their own, nor a note that reads as if nothing awaited them.
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Mes propres droits' })).not.toBeInTheDocument())
    expect(screen.queryByText('Aucun de vos droits n’attend votre revue.')).not.toBeInTheDocument()
    expect(screen.queryByText('Aucun droit en attente de votre revue.')).not.toBeInTheDocument()
    expect(screen.queryByTestId('counter-Droits')).not.toBeInTheDocument()
  })

  it('shows a reviewer who holds rights their own after their queue', async () => {
    stubs.fetchRightsSummary.mockResolvedValue({ ...NO_RIGHTS, rights_count: 2, pending_count: 1, validated_count: 1 })
    renderAs('bpo_metier')
    expect(await screen.findByRole('heading', { name: 'Mes propres droits' }, { timeout: 10_000 })).toBeInTheDocument()
    await waitFor(() => expect(screen.getByTestId('counter-Droits')).toHaveTextContent('2'))
    expect(screen.getByRole('table', { name: 'Ma file de revue' })).toBeInTheDocument()
    // Their own rights have a deadline line of their own (none in a running campaign here).
    expect(await screen.findByText('Aucun de vos droits n’attend votre revue.')).toBeInTheDocument()
  })

  it('names each stage and writes one right in the singular; a right in no campaign has no deadline', async () => {
    stubs.fetchReviewQueueSummary.mockResolvedValue([{ campaign_id: null, campaign_name: null, campaign_status: null, end_date: null, stage: 'bpo_metier', ...OWN, rights_count: 1 }])
    renderAs('bpo_metier')
    const table = await screen.findByRole('table', { name: 'Ma file de revue' }, { timeout: 10_000 })
    expect(within(within(table).getAllByRole('row')[1]!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Hors campagne', 'BPO Métier', '1', '-'])
    expect(screen.getByText('1 droit attend votre décision.')).toBeInTheDocument()
  })

  it('says so when nothing waits', async () => {
    stubs.fetchReviewQueueSummary.mockResolvedValue([])
    renderAs('bpo_groupe')
    expect(await screen.findByText('Aucun droit n’attend votre décision.', {}, { timeout: 10_000 })).toBeInTheDocument()
  })

  it('lists after their own queue the rights they decide for someone else, in the total the bell shows', async () => {
    const t4 = { campaign_id: 'c-t4', campaign_name: 'Revue T4 2026', campaign_status: 'active', end_date: '2026-12-15' } as const
    stubs.fetchReviewQueueSummary.mockResolvedValue([
      ...RA_QUEUE,
      { ...t4, stage: 'manager', acting_as: 'delegate', on_behalf_of: 'u-marc', on_behalf_of_name: 'Marc Petit', rights_count: 2 },
      { ...t4, stage: 'bpo_groupe', acting_as: 'fallback', on_behalf_of: null, on_behalf_of_name: null, rights_count: 1 },
    ])
    renderAs('ra')
    const table = await screen.findByRole('table', { name: 'Ma file de revue' }, { timeout: 10_000 })
    const rows = within(table).getAllByRole('row').slice(3)
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['Revue T4 2026', 'Manager, pour le compte de Marc Petit', '2', '15 décembre 2026'],
      ['Revue T4 2026', 'BPO Groupe, relecteur de secours', '1', '15 décembre 2026'],
    ])
    expect(screen.getByText('10 droits attendent votre décision.')).toBeInTheDocument()
  })

  it('keeps the plain user’s view to their own rights, and names what is confided to them', async () => {
    renderAs('user')
    await screen.findByTestId('counter-Droits', {}, { timeout: 10_000 })
    expect(screen.queryByRole('table', { name: 'Ma file de revue' })).not.toBeInTheDocument()
    // The RA's lines are their own queue: a plain user's own queue is their rights, already on the page.
    expect(screen.queryByText(/qui vous (est|sont) confiés?/)).not.toBeInTheDocument()
  })
})
