import { screen, waitFor, within } from '@testing-library/react'
import { useInfiniteQuery, useMutation } from '@tanstack/react-query'
import { renderApp } from '../support/render-app'
import { createFakeGateway, makeUser } from '../support/fake-auth'
import type { DelegatedItem, DelegationInput, StageSignoff } from '@/features/reviews/delegation-model'
import type { DecisionInput } from '@/features/reviews/model'

// Mes revues for a manager who decides for an absent colleague, signs off a stage and delegates their own items. The
// api hooks answer what Postgres would; decisions, signatures and delegations go through real mutations to stubs.
const stubs = vi.hoisted(() => ({
  decide: vi.fn<(input: DecisionInput) => Promise<void>>(),
  signOff: vi.fn<(input: { campaignId: string; stage: string }) => Promise<void>>(),
  delegate: vi.fn<(input: DelegationInput) => Promise<void>>(),
  signoffs: [] as StageSignoff[],
}))

const delegated: DelegatedItem = {
  right_id: 'r-delegated',
  holder_id: 'h-emma',
  holder_name: 'Emma Girard',
  holder_email: 'emma.girard@example.com',
  application_id: 'a-crm',
  application_name: 'Salesforce CRM',
  role_name: 'Commercial',
  account_type: 'standard',
  justification: null,
  status: 'pending',
  last_used_at: null,
  campaign_id: 'c1',
  campaign_name: 'Revue T4',
  campaign_end_date: '2026-12-15',
  stage: 'manager',
  approve_status: 'validated_manager',
  refuse_status: 'refused_manager',
  on_behalf_of: 'm-isabelle',
  on_behalf_of_name: 'Isabelle Laurent',
  acting_as: 'delegate',
  ends_on: '2026-12-01',
}

vi.mock('@/features/reviews/api', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/features/reviews/api')>()
  return {
    ...actual,
    useReviewQueue: () => ({ items: [], isPending: false, error: null, complete: true }),
    useReviewQueueCount: () => ({ data: 0 }),
    useLoadedReviewQueue: () => [],
    useReviewConflicts: () => new Map(),
    useDecideRights: () => actual.useDecideRights(stubs.decide),
    useDelegatedQueue: () => ({ data: [delegated], error: null }),
    useMySignoffs: () => ({ data: stubs.signoffs, error: null }),
    useMyDelegations: () => ({ data: [], error: null }),
    useDelegateCandidates: (search: string) => ({
      data: search.length >= 2 ? [{ id: 'u-thomas', full_name: 'Thomas Roux', email: 'thomas.roux@example.com', role: 'user' }] : [],
    }),
    useSignOffStage: () => useMutation({ mutationFn: (input: { campaignId: string; stage: string }) => stubs.signOff(input) }),
    useDelegateItems: () => useMutation({ mutationFn: (input: DelegationInput) => stubs.delegate(input) }),
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

const statement = "Je certifie avoir revu l'ensemble des droits qui m'étaient confiés"

function renderAsManager() {
  return renderApp({ path: '/app/reviews', gateway: createFakeGateway({ sessionUser: makeUser('manager') }) })
}

beforeEach(() => {
  stubs.decide.mockReset().mockResolvedValue(undefined)
  stubs.signOff.mockReset().mockResolvedValue(undefined)
  stubs.delegate.mockReset().mockResolvedValue(undefined)
  stubs.signoffs = [{ campaign_id: 'c1', campaign_name: 'Revue T4', stage: 'manager', items_count: 3, open_count: 1, waiting_count: 1, upcoming_count: 0, signed_at: null }]
})

describe('Mes revues: delegation and sign-off', () => {
  it('shows a delegated right with the reviewer it is decided for, and decides it', async () => {
    const { user } = renderAsManager()
    const table = await screen.findByRole('table', { name: 'Droits qui me sont confiés' }, { timeout: 10_000 })
    expect(within(table).getByText('Pour le compte de Isabelle Laurent')).toBeInTheDocument()
    await user.click(within(table).getByRole('button', { name: 'Valider Commercial de Emma Girard sur Salesforce CRM' }))
    const dialog = screen.getByRole('dialog', { name: 'Revue du droit' })
    expect(within(dialog).getByText('Pour le compte de Isabelle Laurent')).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Valider' }))
    await waitFor(() => expect(stubs.decide).toHaveBeenCalledWith({ rightId: 'r-delegated', status: 'validated_manager', comment: '' }))
  })

  it('offers the sign-off only once nothing is left to decide', async () => {
    const first = renderAsManager()
    const waiting = await screen.findByRole('button', { name: `${statement} — Revue T4` }, { timeout: 10_000 })
    expect(waiting).toBeDisabled()
    expect(screen.getByText('3 droits confiés : 1 à décider maintenant')).toBeInTheDocument()
    first.unmount()

    stubs.signoffs = [{ ...stubs.signoffs[0]!, open_count: 0, waiting_count: 0 }]
    const { user } = renderAsManager()
    const ready = await screen.findByRole('button', { name: `${statement} — Revue T4` }, { timeout: 10_000 })
    expect(ready).toBeEnabled()
    await user.click(ready)
    // Nothing is signed until the attestation, which says what it attests, is confirmed.
    const dialog = screen.getByRole('dialog', { name: 'Attester la revue' })
    expect(dialog).toHaveTextContent(/Vous attestez avoir revu les 3 droits qui vous étaient confiés à l’étape Manager de la campagne « Revue T4/)
    expect(stubs.signOff).not.toHaveBeenCalled()
    await user.click(within(dialog).getByRole('button', { name: 'Signer l’attestation' }))
    await waitFor(() => expect(stubs.signOff).toHaveBeenCalledWith({ campaignId: 'c1', stage: 'manager' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Attester la revue' })).not.toBeInTheDocument())
  })

  it('delegates all items of a campaign to a person found on the server, with a reason and an end date', async () => {
    const { user } = renderAsManager()
    await user.click(await screen.findByRole('button', { name: 'Déléguer' }, { timeout: 10_000 }))
    const dialog = screen.getByRole('dialog', { name: 'Déléguer mes revues' })

    // Nothing is sent while the form is incomplete; the reason is said in French.
    await user.click(within(dialog).getByRole('button', { name: 'Déléguer' }))
    expect(within(dialog).getByText('Choisissez la personne à qui déléguer.')).toBeInTheDocument()

    await user.type(within(dialog).getByRole('combobox', { name: /Déléguer à/ }), 'thomas')
    await user.click(await within(dialog).findByRole('option', { name: 'Thomas Roux (thomas.roux@example.com)' }))
    await user.click(within(dialog).getByRole('button', { name: 'Déléguer' }))
    expect(within(dialog).getByText('Indiquez le motif de la délégation.')).toBeInTheDocument()
    await user.type(within(dialog).getByLabelText(/Motif/), 'Congés')
    await user.type(within(dialog).getByLabelText(/Date de fin/), '01/01/2999')
    await user.click(within(dialog).getByRole('button', { name: 'Déléguer' }))
    await waitFor(() =>
      expect(stubs.delegate).toHaveBeenCalledWith({ campaignId: 'c1', delegateId: 'u-thomas', reason: 'Congés', endsOn: '2999-01-01', rightIds: null }),
    )
    expect(stubs.delegate).toHaveBeenCalledTimes(1)
  })
})
