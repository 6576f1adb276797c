// The « Rapport de campagne » action on the Campagnes page: for admin and rssi, on completed and archived campaigns
// only; a refusal from the database is shown in French beside the button.
import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query'
import { MemoryRouter } from 'react-router-dom'
import { makeUser } from '../support/fake-auth'
import { makeCampaign } from '../support/campaigns'
import { ROLES, type Role } from '@/domain/labels'
import type { Campaign } from '@/features/campaigns/model'

const stubs = vi.hoisted(() => ({ role: 'admin' as string, fetchEvidencePack: vi.fn(), currentApiAccess: vi.fn() }))

vi.mock('@/auth/auth-context', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/auth/auth-context')>()),
  useCurrentUser: () => makeUser(stubs.role as Role),
}))

function campaign(id: string, name: string, status: Campaign['status']): Campaign {
  return makeCampaign({
    id,
    name,
    status,
    startDate: '2025-10-01',
    endDate: '2025-11-15',
    createdAt: '2025-09-30T00:00:00Z',
    progress: 100,
    rightsCount: 7,
    reviewedCount: 7,
  })
}

const CAMPAIGNS = [
  campaign('d', 'Brouillon 2027', 'draft'),
  campaign('a', 'Revue T4', 'active'),
  campaign('c', 'Revue annuelle 2025', 'completed'),
  campaign('x', 'Revue 2024', 'archived'),
]

vi.mock('@/features/campaigns/api/read-evidence-pack', () => ({ fetchEvidencePack: stubs.fetchEvidencePack }))
vi.mock('@/features/campaigns/api/api-access', () => ({ currentApiAccess: stubs.currentApiAccess }))
vi.mock('@/features/campaigns/api', () => ({
  useCampaigns: () => useQuery({ queryKey: ['campaigns', 'list'], queryFn: async () => CAMPAIGNS }),
  useCampaignsPage: () => useQuery({ queryKey: ['campaigns', 'page'], queryFn: async () => ({ rows: CAMPAIGNS, total: CAMPAIGNS.length }) }),
  useCampaign: (id: string | null) =>
    useQuery({ queryKey: ['campaigns', 'one', id], queryFn: async () => CAMPAIGNS.find((c) => c.id === id) ?? null, enabled: id !== null }),
  // The burndown chart is tested on its own; here it stays loading.
  useCampaignBurndown: (id: string) => useQuery({ queryKey: ['campaigns', 'burndown', id], queryFn: () => new Promise<never>(() => {}) }),
  useApplicationOptions: () => ({ data: [], error: null }),
  useReviewerGaps: () => ({ data: [], error: null }),
  useSaveCampaign: () => useMutation({ mutationFn: async () => undefined }),
  useSetCampaignStatus: () => useMutation({ mutationFn: async () => undefined }),
  useDeleteCampaign: () => useMutation({ mutationFn: async () => undefined }),
}))

const { CampaignsPage } = await import('@/features/campaigns/CampaignsPage')

async function renderPage(role: Role) {
  stubs.role = role
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <CampaignsPage title="Campagnes" />
      </QueryClientProvider>
    </MemoryRouter>,
  )
  await screen.findByText('Revue annuelle 2025')
}

const rowOf = (name: string) => screen.getByText(name).closest('tr') as HTMLElement
const packButton = (name: string) => within(rowOf(name)).queryByRole('button', { name: `Rapport de campagne de ${name}` })

beforeEach(() => {
  stubs.fetchEvidencePack.mockReset()
  stubs.currentApiAccess.mockReset()
})

describe('Rapport de campagne', () => {
  it.each(['admin', 'rssi'] as const)('is offered to %s on completed and archived campaigns only', async (role) => {
    await renderPage(role)
    expect(packButton('Revue annuelle 2025')).toBeInTheDocument()
    expect(packButton('Revue 2024')).toBeInTheDocument()
    expect(packButton('Revue T4')).toBeNull()
    expect(packButton('Brouillon 2027')).toBeNull()
  })

  it.each(ROLES.filter((role) => role !== 'admin' && role !== 'rssi'))('is hidden from %s', async (role) => {
    await renderPage(role)
    expect(screen.queryByRole('button', { name: /Rapport de campagne/ })).toBeNull()
  })

  it("asks for the campaign's pack and shows the database's refusal", async () => {
    stubs.fetchEvidencePack.mockRejectedValue(new Error('Seuls les administrateurs et le RSSI peuvent télécharger le rapport de campagne.'))
    await renderPage('admin')
    await userEvent.setup().click(packButton('Revue annuelle 2025')!)
    expect(await within(rowOf('Revue annuelle 2025')).findByRole('alert')).toHaveTextContent(
      'Seuls les administrateurs et le RSSI peuvent télécharger le rapport de campagne.',
    )
    expect(stubs.fetchEvidencePack).toHaveBeenCalledWith('c', expect.any(Function))
  })

  it('counts the lines read while it prepares, agreed with the number', async () => {
    const pending = { progress: (_fetched: number) => {}, fail: (_error: Error) => {} }
    stubs.fetchEvidencePack.mockImplementation(
      (_id: string, onProgress: (fetched: number) => void) =>
        new Promise((_resolve, reject) => {
          pending.progress = onProgress
          pending.fail = reject
        }),
    )
    await renderPage('admin')
    await userEvent.setup().click(packButton('Revue annuelle 2025')!)
    const status = await within(rowOf('Revue annuelle 2025')).findByRole('status')
    expect(status).toHaveTextContent('Préparation du rapport… 0 ligne lue')
    // One pack at a time: the button waits, busy, until this one is done.
    expect(packButton('Revue annuelle 2025')).toBeDisabled()
    expect(packButton('Revue annuelle 2025')).toHaveAttribute('aria-busy', 'true')
    act(() => pending.progress(1))
    expect(status).toHaveTextContent('Préparation du rapport… 1 ligne lue')
    act(() => pending.progress(1500))
    expect(status).toHaveTextContent(/^Préparation du rapport… 1\s500 lignes lues$/)
    await act(async () => pending.fail(new Error('Lecture interrompue.')))
    expect(await within(rowOf('Revue annuelle 2025')).findByRole('alert')).toHaveTextContent('Lecture interrompue.')
    expect(packButton('Revue annuelle 2025')).toBeEnabled()
    expect(packButton('Revue annuelle 2025')).not.toHaveAttribute('aria-busy')
  })

  it('has the worker read the pack as the signed-in user, and shows its count and the API’s French refusal', async () => {
    const ACCESS = { url: 'http://api.example', anonKey: 'anon', accessToken: 'jeton-de-julie' }
    stubs.currentApiAccess.mockResolvedValue(ACCESS)
    const requests: unknown[] = []
    const workers: FakeWorker[] = []
    class FakeWorker {
      onmessage: ((event: { data: unknown }) => void) | null = null
      onerror: (() => void) | null = null
      terminated = false
      constructor() {
        workers.push(this)
      }
      postMessage(request: unknown) {
        requests.push(request)
      }
      terminate() {
        this.terminated = true
      }
    }
    vi.stubGlobal('Worker', FakeWorker)
    try {
      await renderPage('admin')
      await userEvent.setup().click(packButton('Revue annuelle 2025')!)
      await vi.waitFor(() => expect(requests).toEqual([{ evidence: { campaignId: 'c', access: ACCESS } }]))
      const worker = workers[0]!
      act(() => worker.onmessage!({ data: { progress: 2000 } }))
      expect(within(rowOf('Revue annuelle 2025')).getByRole('status')).toHaveTextContent(/^Préparation du rapport… 2\s000 lignes lues$/)
      await act(async () => worker.onmessage!({ data: { ok: false, message: 'Campagne introuvable.' } }))
      expect(await within(rowOf('Revue annuelle 2025')).findByRole('alert')).toHaveTextContent('Campagne introuvable.')
      expect(worker.terminated).toBe(true)
      expect(stubs.fetchEvidencePack).not.toHaveBeenCalled()
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
