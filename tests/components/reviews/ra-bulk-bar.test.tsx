import { screen, waitFor, within } from '@testing-library/react'
import { useInfiniteQuery } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import { makeQueueItem } from '../support/queue-items'
import type { DecisionInput, QueueItem } from '@/features/reviews/model'

const stubs = vi.hoisted(() => ({ decide: vi.fn<(input: DecisionInput) => Promise<void>>() }))

// The RA's queue as rpc('review_queue') gives it: refused rights, which the RA closes (treated) or flags
// (treatment_required); one already flagged can only be closed.
function raItem(id: string, overrides: Partial<QueueItem> = {}): QueueItem {
  return makeQueueItem(id, {
    holder_id: 'h-lucas',
    holder_name: 'Lucas Bonnet',
    holder_email: 'lucas.bonnet@example.com',
    application_id: 'a-sap',
    application_name: 'SAP Finance',
    status: 'refused_manager',
    campaign_name: 'Revue T4',
    stage: 'ra',
    approve_status: 'treated',
    refuse_status: 'treatment_required',
    suggests_refusal: false,
    recommendation: null,
    ...overrides,
  })
}

const QUEUE = [raItem('r1'), raItem('r2', { status: 'treatment_required', refuse_status: null })]

// The api neighbours are stubbed (their real hooks kept where they only compute): the screen is tested on what
// Postgres would answer, and a decision goes through the real mutation to a stubbed call.
vi.mock('@/features/reviews/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/reviews/api')>()
  return {
    ...actual,
    useReviewQueue: () => ({ items: QUEUE, isPending: false, error: null, complete: true }),
    useReviewQueueCount: () => ({ data: QUEUE.length }),
    useDecideRights: () => actual.useDecideRights(stubs.decide),
  }
})
vi.mock('@/features/profile/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/profile/api')>()
  return {
    ...actual,
    useDecisionHistory: (userId: string, scope: Parameters<typeof actual.decisionHistoryQuery>[1]) =>
      useInfiniteQuery({ ...actual.decisionHistoryQuery(userId, scope), queryFn: async () => [] }),
  }
})

function renderAsRa() {
  return renderApp({ path: '/app/reviews', gateway: createFakeGateway({ sessionUser: makeUser('ra') }) })
}

beforeEach(() => {
  stubs.decide.mockReset().mockResolvedValue(undefined)
})

describe("The RA's bulk bar", () => {
  it('uses the words of the row actions, before anything is selected', async () => {
    renderAsRa()
    const bar = await screen.findByRole('region', { name: 'Décision groupée' }, { timeout: 10_000 })
    expect(within(bar).getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Traitement requis pour la sélection',
      'Marquer traité pour la sélection',
    ])
    expect(screen.queryByRole('button', { name: /Valider|Refuser/ })).not.toBeInTheDocument()
    const table = screen.getByRole('table', { name: 'Droits en attente de ma décision' })
    expect(within(table).getByRole('button', { name: 'Traitement requis SAP Finance — Rôle r1 (Lucas Bonnet)' })).toHaveTextContent('Traitement requis')
    expect(within(table).getByRole('button', { name: 'Marquer traité SAP Finance — Rôle r1 (Lucas Bonnet)' })).toHaveTextContent('Marquer traité')
  })

  it('marks the selection treated, and agrees the counts in the singular', async () => {
    const { user } = renderAsRa()
    await user.click(await screen.findByRole('checkbox', { name: 'Sélectionner SAP Finance — Rôle r2 (Lucas Bonnet)' }, { timeout: 10_000 }))
    const bar = screen.getByRole('region', { name: 'Décision groupée' })
    expect(bar).toHaveTextContent('1 droit sélectionné.')
    // A right already flagged cannot be flagged again: only Marquer traité applies to it.
    expect(within(bar).getByRole('button', { name: 'Traitement requis pour la sélection' })).toBeDisabled()
    await user.click(within(bar).getByRole('button', { name: 'Marquer traité pour la sélection' }))
    await waitFor(() => expect(within(bar).getByRole('status')).toHaveTextContent('1 décision enregistrée.'))
    expect(stubs.decide).toHaveBeenCalledWith({ rightId: 'r2', status: 'treated', comment: '' })
  })
})
