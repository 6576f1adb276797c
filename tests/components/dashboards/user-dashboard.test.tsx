import { screen, waitFor } from '@testing-library/react'
import { useQuery } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import type { QueueSummaryRow, ReviewDeadline, RightsSummary } from '@/features/dashboards/model'
import type { HeldRight } from '@/features/rights/model'

const stubs = vi.hoisted(() => ({
  fetchRightsSummary: vi.fn(),
  fetchReviewDeadline: vi.fn(),
  fetchReviewQueueSummary: vi.fn(),
}))

// The api neighbours are stubbed (their real query keys kept): the screen is tested on what Postgres would answer.
vi.mock('@/features/reviews/api', async (original) => (await import('../support/quiet-bell')).quietBell(original))
vi.mock('@/features/dashboards/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/dashboards/api')>()
  return {
    ...actual,
    useRightsSummary: () => useQuery({ ...actual.rightsSummaryQuery(), queryFn: () => stubs.fetchRightsSummary() as Promise<RightsSummary> }),
    useReviewDeadline: () => useQuery({ ...actual.reviewDeadlineQuery(), queryFn: () => stubs.fetchReviewDeadline() as Promise<ReviewDeadline | null> }),
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

// 6 rights, of which 2 are in the RA's hands, counted nowhere before.
const SUMMARY: RightsSummary = { rights_count: 6, pending_count: 1, validated_count: 1, refused_count: 2, treatment_required_count: 1, treated_count: 1 }

function renderAsUser() {
  return renderApp({ path: '/app/dashboard', gateway: createFakeGateway({ sessionUser: makeUser('user', { firstName: 'Julie', lastName: 'Martin' }) }) })
}

beforeEach(() => {
  stubs.fetchRightsSummary.mockReset().mockResolvedValue(SUMMARY)
  stubs.fetchReviewDeadline.mockReset().mockResolvedValue({ campaign_id: 'c1', campaign_name: 'Revue T4', end_date: '2026-12-15', pending_count: 1 })
  stubs.fetchReviewQueueSummary.mockReset().mockResolvedValue([OWN_LINE])
})

// The holder's own pending right, as rpc('review_queue_summary') counts it.
const OWN_LINE: QueueSummaryRow = {
  campaign_id: 'c1',
  campaign_name: 'Revue T4',
  campaign_status: 'active',
  end_date: '2026-12-15',
  stage: 'user',
  acting_as: null,
  on_behalf_of: null,
  on_behalf_of_name: null,
  rights_count: 1,
}

describe('User dashboard', () => {
  it('shows the total of the holder’s rights and every part of it, which add up', async () => {
    renderAsUser()
    await waitFor(() => expect(screen.getByTestId('counter-Droits')).toHaveTextContent('6'), { timeout: 10_000 })
    const parts = { 'En attente': '1', Validés: '1', Refusés: '2', 'En traitement': '1', Traités: '1' }
    for (const [label, value] of Object.entries(parts)) expect(screen.getByTestId(`counter-${label}`)).toHaveTextContent(value)
    expect(Object.keys(parts).reduce((total, label) => total + Number(screen.getByTestId(`counter-${label}`).textContent), 0)).toBe(6)
  })

  it('agrees the deadline’s count in the singular and the plural', async () => {
    renderAsUser()
    const notes = await screen.findByRole('list', { name: 'Informations' }, { timeout: 10_000 })
    await waitFor(() => expect(notes).toHaveTextContent('(campagne « Revue T4 », 1 droit en attente).'))
    expect(notes).toHaveTextContent('15 décembre 2026')
  })

  it('writes several pending rights in the plural', async () => {
    stubs.fetchReviewDeadline.mockResolvedValue({ campaign_id: 'c1', campaign_name: 'Revue T4', end_date: '2026-12-15', pending_count: 3 })
    renderAsUser()
    const notes = await screen.findByRole('list', { name: 'Informations' }, { timeout: 10_000 })
    await waitFor(() => expect(notes).toHaveTextContent('(campagne « Revue T4 », 3 droits en attente).'))
  })

  it('tells a holder who is a delegate or a fallback reviewer what waits for them beside their own rights', async () => {
    stubs.fetchReviewQueueSummary.mockResolvedValue([
      OWN_LINE,
      { ...OWN_LINE, stage: 'manager', acting_as: 'delegate', on_behalf_of: 'u-marc', on_behalf_of_name: 'Marc Petit', rights_count: 2 },
      { ...OWN_LINE, stage: 'manager', acting_as: 'fallback', rights_count: 1 },
    ])
    renderAsUser()
    const notes = await screen.findByRole('list', { name: 'Informations' }, { timeout: 10_000 })
    await waitFor(() => expect(notes).toHaveTextContent('3 droits qui vous sont confiés attendent aussi votre décision (délégation ou relecteur de secours), dans Mes revues.'))
  })

  it('says nothing of confided rights when none is', async () => {
    renderAsUser()
    const notes = await screen.findByRole('list', { name: 'Informations' }, { timeout: 10_000 })
    await waitFor(() => expect(notes).toHaveTextContent('1 droit en attente'))
    expect(notes).not.toHaveTextContent('confié')
  })
})
