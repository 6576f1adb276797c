import { render, screen, within } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import type { AdminCampaign } from '@/features/dashboards/components/AdminDashboard'

// The admin dashboard's Campagnes tab says a campaign's figures in the campaign list's words: the review rate, the rights
// reviewed, and for a closed campaign those Terminer sent to the RA undecided. The counters are not the subject here.
vi.mock('@/features/dashboards/api', () => {
  const loaded = <T,>(data: T) => ({ isPending: false, error: null, data })
  return {
    useAdminCounters: () => loaded({ active_campaigns: 1, draft_campaigns: 1, completed_campaigns: 1, archived_campaigns: 0, users: 9, applications: 5 }),
    useDirectoryUsers: () => loaded([]),
    useApplicationSummaries: () => loaded([]),
  }
})

const { AdminDashboard } = await import('@/features/dashboards/components/AdminDashboard')

const campaigns: AdminCampaign[] = [
  { id: 'c', name: 'Revue annuelle 2025', status: 'completed', endDate: '2025-11-15', progress: 18, rightsCount: 17, reviewedCount: 3, undecidedCount: 14 },
  { id: 'a', name: 'Revue T4 2026', status: 'active', endDate: '2026-12-15', progress: 27, rightsCount: 11, reviewedCount: 3, undecidedCount: 0 },
  { id: 'd', name: 'Revue 2027', status: 'draft', endDate: '2027-02-12', progress: 0, rightsCount: 2, reviewedCount: 0, undecidedCount: 0 },
]

function renderDashboard() {
  render(
    <MemoryRouter>
      <AdminDashboard
        title="Tableau de bord"
        campaigns={{ isPending: false, error: null, data: campaigns }}
        campaignHref={(id) => `/app/campaigns?campagne=${id}`}
        onImport={() => {}}
        onCreateCampaign={() => {}}
      />
    </MemoryRouter>,
  )
  const table = screen.getByRole('table', { name: 'Campagnes' })
  return (name: string) => within(table).getByRole('row', { name: new RegExp(name) })
}

describe('Admin dashboard, Campagnes', () => {
  it('gives a closed campaign its review rate and the rights left undecided at its closure, never 100 %', () => {
    const rowOf = renderDashboard()
    const closed = rowOf('Revue annuelle 2025')
    expect(within(closed).getByRole('progressbar', { name: 'Progression de Revue annuelle 2025' })).toHaveAttribute('aria-valuenow', '18')
    expect(within(closed).getByText('3 droits revus sur 17')).toBeInTheDocument()
    expect(within(closed).getByText('14 non décidés à la clôture (transmis au RA)')).toBeInTheDocument()
  })

  it('shows a running campaign’s progress so far, and a draft’s rights, with nothing left at a closure', () => {
    const rowOf = renderDashboard()
    const running = rowOf('Revue T4 2026')
    expect(within(running).getByRole('progressbar', { name: 'Progression de Revue T4 2026' })).toHaveAttribute('aria-valuenow', '27')
    expect(within(running).getByText('3 droits revus sur 11')).toBeInTheDocument()
    expect(within(running).queryByText(/non décidé/)).toBeNull()
    expect(within(rowOf('Revue 2027')).getByText('2 droits')).toBeInTheDocument()
  })
})
