import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { MemoryRouter } from 'react-router-dom'
import { makeUser } from '../support/fake-auth'
import { makeCampaign } from '../support/campaigns'
import type { Role } from '@/domain/labels'
import type { Campaign } from '@/features/campaigns/model'

const stubs = vi.hoisted(() => ({ role: 'admin' as string }))

vi.mock('@/auth/auth-context', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/auth/auth-context')>()),
  useCurrentUser: () => makeUser(stubs.role as Role),
}))

const campaign = makeCampaign

const CAMPAIGNS: Campaign[] = [
  campaign({ id: 'draft-1', name: 'Brouillon 2027', status: 'draft' }),
  campaign({ id: 'active-1', name: 'Revue T4', status: 'active', rightsCount: 3, pendingCount: 2 }),
]

const idle = { mutate: vi.fn(), reset: vi.fn(), isPending: false, error: null }
vi.mock('@/features/campaigns/api', () => ({
  useCampaigns: () => useQuery({ queryKey: ['campaigns', 'list'], queryFn: async () => CAMPAIGNS }),
  useCampaignsPage: () => useQuery({ queryKey: ['campaigns', 'page'], queryFn: async () => ({ rows: CAMPAIGNS, total: CAMPAIGNS.length }) }),
  useCampaign: (id: string | null) =>
    useQuery({ queryKey: ['campaigns', 'one', id], queryFn: async () => CAMPAIGNS.find((c) => c.id === id) ?? null, enabled: id !== null }),
  // The burndown chart is tested on its own; here it stays loading.
  useCampaignBurndown: (id: string) => useQuery({ queryKey: ['campaigns', 'burndown', id], queryFn: () => new Promise<never>(() => {}) }),
  useApplicationOptions: () => ({ data: [], error: null }),
  useReviewerGaps: () => ({ data: [], error: null }),
  useSaveCampaign: () => idle,
  useSetCampaignStatus: () => idle,
  useDeleteCampaign: () => idle,
}))

const { CampaignsPage } = await import('@/features/campaigns/CampaignsPage')

function renderAt(search: string, role: Role = 'admin') {
  stubs.role = role
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const user = userEvent.setup()
  render(
    <MemoryRouter initialEntries={[`/app/campaigns${search}`]}>
      <QueryClientProvider client={client}>
        <CampaignsPage title="Campagnes" />
      </QueryClientProvider>
    </MemoryRouter>,
  )
  return user
}

const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement

describe("Links to a campaign (the admin dashboard's Détails)", () => {
  it("opens a draft's form for an administrator, and highlights its row", async () => {
    const user = renderAt('?campagne=draft-1')
    const form = await screen.findByRole('dialog', { name: 'Modifier la campagne' })
    expect(within(form).getByLabelText(/Nom/)).toHaveValue('Brouillon 2027')
    expect(rowOf('Brouillon 2027')).toHaveAttribute('aria-current', 'true')
    expect(rowOf('Revue T4')).not.toHaveAttribute('aria-current')

    // Closed, it stays closed; the row stays highlighted.
    await user.click(within(form).getByRole('button', { name: 'Annuler' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(rowOf('Brouillon 2027')).toHaveAttribute('aria-current', 'true')
  })

  it("opens a running campaign's export", async () => {
    renderAt('?campagne=active-1')
    const dialog = await screen.findByRole('dialog', { name: 'Export Excel' })
    expect(dialog).toHaveAccessibleDescription('Revue T4')
  })

  it('opens the export, never the form, for a role that may not edit', async () => {
    renderAt('?campagne=draft-1', 'manager')
    const dialog = await screen.findByRole('dialog', { name: 'Export Excel' })
    expect(dialog).toHaveAccessibleDescription('Brouillon 2027')
  })

  it('says so when the campaign does not exist', async () => {
    renderAt('?campagne=inconnue')
    expect(await screen.findByRole('alert')).toHaveTextContent('La campagne demandée est introuvable')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('opens nothing without a link', async () => {
    renderAt('')
    await screen.findByText('Revue T4')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
