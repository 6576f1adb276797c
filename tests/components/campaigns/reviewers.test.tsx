// Relecteurs, an entry of a campaign row's menu (admin, rssi): who signed and who has not, the items without reviewer and the
// fallback reviewers who decide them, and reassigning an absent reviewer's items. The api answers what Postgres would;
// saving goes through real mutations to stubs.
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query'
import type { Campaign } from '@/features/campaigns/model'
import { makeCampaign } from '../support/campaigns'
import type { CampaignSignoff, ReassignInput, ReviewerGap } from '@/features/campaigns/reviewers-model'

const stubs = vi.hoisted(() => ({
  reassign: vi.fn<(input: ReassignInput) => Promise<void>>(),
  setFallback: vi.fn<(input: { campaignId: string; userIds: string[] }) => Promise<void>>(),
  gaps: [] as ReviewerGap[],
}))

const T4: Campaign = makeCampaign({
  id: 'a',
  name: 'Revue T4',
  status: 'active',
  createdAt: '2026-10-29T00:00:00Z',
  progress: 40,
  rightsCount: 10,
  reviewedCount: 4,
  pendingCount: 6,
})

const SIGNOFFS: CampaignSignoff[] = [
  { stage: 'manager', reviewer_id: 'm-marc', reviewer_name: 'Marc Dubois', reviewer_email: 'manager@example.com', items_count: 4, open_count: 0, waiting_count: 0, signed_at: '2026-11-20T10:00:00Z', ip_address: '203.0.113.7' },
  { stage: 'manager', reviewer_id: 'm-isabelle', reviewer_name: 'Isabelle Laurent', reviewer_email: 'isabelle.laurent@example.com', items_count: 3, open_count: 2, waiting_count: 1, signed_at: null, ip_address: null },
  { stage: 'manager', reviewer_id: null, reviewer_name: null, reviewer_email: null, items_count: 1, open_count: 1, waiting_count: 1, signed_at: null, ip_address: null },
]

vi.mock('@/features/campaigns/api', () => ({
  useCampaignSignoffs: () => ({ data: SIGNOFFS, error: null }),
  useReviewerGaps: () => ({ data: stubs.gaps, error: null }),
  useFallbackReviewers: () => ({ data: [{ id: 'u-claire', full_name: 'Claire Fournier', email: 'rssi@example.com' }], error: null }),
  useReviewerSearch: (search: string) => ({
    data: search.length >= 2 ? [{ id: 'u-thomas', full_name: 'Thomas Roux', email: 'thomas.roux@example.com' }] : [],
  }),
  useSetFallbackReviewers: () => useMutation({ mutationFn: (input: { campaignId: string; userIds: string[] }) => stubs.setFallback(input) }),
  useReassignItems: () => useMutation({ mutationFn: (input: ReassignInput) => stubs.reassign(input) }),
}))

const { useReviewersMenuItem } = await import('@/features/campaigns/ReassignDialog')

// The row's menu entry, as CampaignsTable puts it in « Autres actions ».
function MenuEntry() {
  const reviewers = useReviewersMenuItem(T4)
  return (
    <>
      <button type="button" onClick={reviewers.item.onSelect}>
        {reviewers.item.label}
      </button>
      {reviewers.dialog}
    </>
  )
}

async function openReviewers() {
  const user = userEvent.setup()
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MenuEntry />
    </QueryClientProvider>,
  )
  await user.click(screen.getByRole('button', { name: 'Relecteurs' }))
  return { user, dialog: screen.getByRole('dialog', { name: 'Relecteurs de Revue T4' }) }
}

beforeEach(() => {
  stubs.reassign.mockReset().mockResolvedValue(undefined)
  stubs.setFallback.mockReset().mockResolvedValue(undefined)
  stubs.gaps = []
})

describe('Relecteurs of a campaign', () => {
  it('shows who signed, who has not, and the items without reviewer', async () => {
    const { dialog } = await openReviewers()
    const rows = within(within(dialog).getByRole('table', { name: 'Signatures des relecteurs' })).getAllByRole('row').slice(1)
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['Manager', 'Marc Dubois', '4', '0', '0', expect.stringMatching(/^Signé le 20 novembre 2026/)],
      // « À décider » is what her queue holds now; what is open beyond it has not reached her yet.
      ['Manager', 'Isabelle Laurent', '3', '1', '1', 'À décider'],
      ['Manager', 'Aucun relecteur désigné', '1', '1', '0', 'Aucun relecteur désigné : relecteurs de secours'],
    ])
    expect(within(dialog).getByText('Claire Fournier')).toBeInTheDocument()
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument()
  })

  it('says which stage has rights nobody may decide, and asks for a fallback reviewer', async () => {
    stubs.gaps = [
      { campaign_id: 'a', stage: 'bpo_groupe', items_count: 12 },
      { campaign_id: 'a', stage: 'ra', items_count: 1 },
    ]
    const { dialog } = await openReviewers()
    const alert = within(dialog).getByRole('alert')
    expect(alert).toHaveTextContent("12 droits à l'étape BPO Groupe n'ont aucun relecteur : désignez un relecteur de secours")
    expect(alert).toHaveTextContent("1 droit à l'étape Responsable d'application n'a aucun relecteur : désignez un relecteur de secours")
  })

  it('adds a fallback reviewer found on the server and saves the whole list', async () => {
    const { user, dialog } = await openReviewers()
    const save = within(dialog).getByRole('button', { name: 'Enregistrer les relecteurs de secours' })
    expect(save).toBeDisabled()
    await user.type(within(dialog).getByRole('combobox', { name: 'Ajouter un relecteur de secours' }), 'thomas')
    await user.click(await within(dialog).findByRole('option', { name: 'Thomas Roux (thomas.roux@example.com)' }))
    await user.click(save)
    await waitFor(() => expect(stubs.setFallback).toHaveBeenCalledWith({ campaignId: 'a', userIds: ['u-claire', 'u-thomas'] }))
  })

  it("reassigns an absent reviewer's items, and says in French what is missing first", async () => {
    const { user, dialog } = await openReviewers()
    await user.click(within(dialog).getByRole('button', { name: 'Réattribuer' }))
    expect(within(dialog).getByText('Choisissez le relecteur absent.')).toBeInTheDocument()
    await user.selectOptions(within(dialog).getByLabelText('Relecteur absent'), 'Isabelle Laurent')
    await user.type(within(dialog).getByRole('combobox', { name: 'Confier à' }), 'thomas')
    await user.click(await within(dialog).findByRole('option', { name: 'Thomas Roux (thomas.roux@example.com)' }))
    await user.type(within(dialog).getByLabelText('Motif'), 'Arrêt maladie')
    await user.type(within(dialog).getByLabelText('Date de fin'), '31/12/2999')
    await user.click(within(dialog).getByRole('button', { name: 'Réattribuer' }))
    await waitFor(() =>
      expect(stubs.reassign).toHaveBeenCalledWith({ campaignId: 'a', fromId: 'm-isabelle', toId: 'u-thomas', reason: 'Arrêt maladie', endsOn: '2999-12-31' }),
    )
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Les revues de Isabelle Laurent sont confiées à Thomas Roux (thomas.roux@example.com).')
  })
})
