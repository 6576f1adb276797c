import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { MemoryRouter } from 'react-router-dom'
import type { ReactNode } from 'react'
import { makeUser } from '../support/fake-auth'
import type { Role } from '@/domain/labels'

// The first render loads the lazily imported parser, slow on a busy machine.

// The neighbour stubbed here is the supabase-js client, so the feature's api.ts (paging, the one RPC, the
// invalidation) runs for real. The RPC itself is tested in tests/db and end to end in tests/e2e/import.
const backend = vi.hoisted(() => ({
  role: 'admin' as string,
  tables: {} as Record<string, unknown[]>,
  reads: [] as { table: string; range?: [number, number] }[],
  rpc: vi.fn(),
}))

vi.mock('@/auth/auth-context', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/auth/auth-context')>()),
  useCurrentUser: () => makeUser(backend.role as Role),
}))

vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    from(table: string) {
      const read: { table: string; range?: [number, number] } = { table }
      backend.reads.push(read)
      const builder = {
        select: () => builder,
        order: () => builder,
        // The Campagnes page reads one page, then that page's figures: neither is filtered here.
        or: () => builder,
        in: () => builder,
        overrideTypes: () => builder,
        range: (from: number, to: number) => {
          read.range = [from, to]
          return builder
        },
        then(resolve: (value: unknown) => unknown) {
          const rows = backend.tables[table] ?? []
          return Promise.resolve({ data: read.range ? rows.slice(read.range[0], read.range[1] + 1) : rows, error: null }).then(resolve)
        },
      }
      return builder
    },
    rpc: (name: string, args: unknown) => backend.rpc(name, args),
  }),
}))

// Live refresh is tested in live-refresh.test.tsx; here the dashboard only needs to render.
vi.mock('@/lib/realtime', () => ({ useLiveInvalidation: () => {} }))

const download = vi.hoisted(() => vi.fn())
vi.mock('@/lib/csv', async (importOriginal) => ({ ...(await importOriginal<typeof import('@/lib/csv')>()), downloadCsv: download }))

const { ImportDialog } = await import('@/features/campaigns/import/ImportDialog')
const { CampaignsPage } = await import('@/features/campaigns/CampaignsPage')
const { AdminDashboardRoute } = await import('@/app/routes/app/dashboard/admin')

const HEADER = "E-mail;Application;Rôle;Type de compte;Date d'attribution;Dernière utilisation"

function campaignRow(id: string, name: string, status: string, applicationId: string | null = null) {
  return {
    id,
    name,
    description: null,
    application_id: applicationId,
    account_type: null,
    start_date: '2026-11-01',
    end_date: '2026-12-31',
    status,
    created_by: null,
    created_at: '2026-11-01T00:00:00Z',
    application: null,
    creator: null,
  }
}

beforeEach(() => {
  backend.role = 'admin'
  backend.reads = []
  // More people than one page of the API: the last of them must still be known.
  const people = Array.from({ length: 1200 }, (_, index) => ({ email: `personne${index}@example.com` }))
  backend.tables = {
    users: [...people, { email: 'User@Example.com' }],
    applications: [
      { id: 'app-sap', name: 'SAP Finance' },
      { id: 'app-git', name: 'GitLab' },
    ],
    campaigns: [
      campaignRow('draft-sap', 'Brouillon SAP', 'draft', 'app-sap'),
      campaignRow('active', 'Revue T4', 'active'),
      campaignRow('done', 'Revue 2025', 'completed'),
    ],
    campaign_progress: [],
  }
  backend.rpc.mockReset().mockImplementation(async (name: string) =>
    name === 'admin_dashboard' ? { data: [{ users: 1201, applications: 2 }], error: null } : { data: null, error: { message: 'inattendu' } },
  )
  download.mockReset()
})

function renderWith(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  const invalidate = vi.spyOn(client, 'invalidateQueries')
  const user = userEvent.setup()
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>{ui}</QueryClientProvider>
    </MemoryRouter>,
  )
  return { user, invalidate }
}

const csv = (...rows: string[]) => new File([[HEADER, ...rows].join('\r\n')], 'droits.csv', { type: 'text/csv' })
const dialog = () => screen.getByRole('dialog', { name: 'Import CSV des droits' })
const importButton = () => within(dialog()).getByRole('button', { name: /^Importer/ })

async function choose(user: ReturnType<typeof userEvent.setup>, file: File) {
  await user.upload(within(dialog()).getByLabelText('Fichier CSV'), file)
}

describe('Import dialog', () => {
  it('lists every bad line with its number and reason, keeps the import disabled and sends nothing', async () => {
    const { user } = renderWith(<ImportDialog onClose={() => {}} />)
    expect(importButton()).toBeDisabled()
    await choose(
      user,
      csv(
        'user@example.com;SAP Finance;Comptable;;15/03/2024;',
        'personne1199@example.com;SAP Finance;Comptable;;;',
        'inconnu@example.org;SAP Finance;Comptable;;;',
        'user@example.com;Oracle Paie;Comptable;;;',
        'user@example.com;GitLab;Dev;root;31/02/2024;',
        'USER@example.com;sap finance;COMPTABLE;;;',
        'user@example.com;GitLab;=cmd|\' /C calc\'!A0;;;',
      ),
    )
    const list = await within(dialog()).findByRole('list', { name: /Lignes en erreur/ })
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Ligne 4 : utilisateur inconnu : inconnu@example.org',
      'Ligne 5 : application inconnue : Oracle Paie',
      "Ligne 6 : type de compte inconnu : root ; date d'attribution invalide : 31/02/2024",
      'Ligne 7 : doublon de la ligne 2',
      'Ligne 8 : formule interdite dans « Rôle » : une cellule ne peut pas commencer par =, +, - ou @',
    ])
    expect(within(dialog()).getByText('droits.csv : 2 lignes valides, 5 lignes en erreur.')).toBeInTheDocument()
    expect(importButton()).toBeDisabled()
    expect(backend.rpc).not.toHaveBeenCalledWith('import_user_rights', expect.anything())
    // The directory was read past the API's 1000-row page.
    expect(backend.reads.filter((read) => read.table === 'users').map((read) => read.range)).toEqual([
      [0, 999],
      [1000, 1999],
    ])
  })

  it('refuses a file with a wrong header as a whole, in French', async () => {
    const { user } = renderWith(<ImportDialog onClose={() => {}} />)
    await choose(user, new File(['Nom;Appli\nJean;SAP'], 'faux.csv', { type: 'text/csv' }))
    const alert = await within(dialog()).findByRole('alert')
    expect(alert).toHaveTextContent('Fichier refusé')
    expect(alert).toHaveTextContent('Colonnes inconnues : « Nom », « Appli ».')
    expect(alert).toHaveTextContent('Colonnes obligatoires absentes : E-mail, Application, Rôle.')
    expect(importButton()).toBeDisabled()
  })

  it('imports a good file into the chosen campaign in one call, says how many, and refreshes the campaigns', async () => {
    backend.rpc.mockResolvedValue({ data: { success: true, imported: 2, errors: [] }, error: null })
    const { user, invalidate } = renderWith(<ImportDialog onClose={() => {}} />)
    const select = within(dialog()).getByLabelText('Campagne')
    await within(select).findByRole('option', { name: 'Revue T4 (Active)' })
    // A completed campaign takes no more rights: it is not offered.
    expect(within(select).getAllByRole('option').map((option) => option.textContent)).toEqual([
      'Aucune campagne (droits hors campagne)',
      'Brouillon SAP (Brouillon)',
      'Revue T4 (Active)',
    ])
    await user.selectOptions(select, 'active')
    await choose(user, csv('user@example.com;SAP Finance;Comptable;À privilèges;15/03/2024;Jamais', 'personne3@example.com;gitlab;Dev;;2024-01-02;01/10/2026'))
    await waitFor(() => expect(importButton()).toBeEnabled())
    expect(importButton()).toHaveTextContent('Importer 2 droits')
    await user.click(importButton())

    expect(backend.rpc).toHaveBeenCalledTimes(1)
    expect(backend.rpc).toHaveBeenCalledWith('import_user_rights', {
      campaign_id: 'active',
      rows: [
        { line: 2, email: 'user@example.com', application: 'SAP Finance', role_name: 'Comptable', account_type: 'privileged', granted_at: '2024-03-15', last_used_at: null, justification: null },
        { line: 3, email: 'personne3@example.com', application: 'GitLab', role_name: 'Dev', account_type: 'standard', granted_at: '2024-01-02', last_used_at: '2026-10-01', justification: null },
      ],
    })
    expect(await within(dialog()).findByText('2 droits importés dans la campagne « Revue T4 ».')).toBeInTheDocument()
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['campaigns'] })
    // The file is gone: the same lines cannot be sent twice by a second click.
    expect(importButton()).toBeDisabled()
  })

  it('says « 1 ligne », « 0 ligne » and « 1 droit » in the singular, from the preview to the report', async () => {
    backend.rpc.mockResolvedValue({ data: { success: true, imported: 1, errors: [] }, error: null })
    const { user } = renderWith(<ImportDialog onClose={() => {}} />)
    await choose(user, csv('user@example.com;SAP Finance;Comptable;;;'))
    await waitFor(() => expect(importButton()).toBeEnabled())
    expect(within(dialog()).getByText('droits.csv : 1 ligne valide, 0 ligne en erreur.')).toBeInTheDocument()
    expect(importButton()).toHaveTextContent(/^Importer 1 droit$/)
    await user.click(importButton())
    expect(await within(dialog()).findByText('1 droit importé hors campagne.')).toBeInTheDocument()
  })

  it('says « 0 ligne valide » and « 2 lignes en erreur » for a file with nothing to import', async () => {
    const { user } = renderWith(<ImportDialog onClose={() => {}} />)
    await choose(user, csv('inconnu@example.org;SAP Finance;Comptable;;;', 'user@example.com;Oracle Paie;Comptable;;;'))
    expect(await within(dialog()).findByText('droits.csv : 0 ligne valide, 2 lignes en erreur.')).toBeInTheDocument()
    expect(importButton()).toHaveTextContent('Importer')
    expect(importButton()).toBeDisabled()
  })

  it("checks the lines against the chosen campaign's scope", async () => {
    const { user } = renderWith(<ImportDialog onClose={() => {}} />)
    await choose(user, csv('user@example.com;GitLab;Dev;;;'))
    await waitFor(() => expect(importButton()).toBeEnabled())
    await user.selectOptions(within(dialog()).getByLabelText('Campagne'), 'draft-sap')
    const list = await within(dialog()).findByRole('list', { name: /Lignes en erreur/ })
    expect(list).toHaveTextContent('Ligne 2 : application hors du périmètre de la campagne : GitLab')
    expect(importButton()).toBeDisabled()
  })

  it("shows the server's per-line report when it refuses the import, and imports into no campaign by default", async () => {
    backend.rpc.mockResolvedValue({
      data: { success: false, imported: 0, errors: [{ line: 2, errors: ['ce droit existe déjà'] }] },
      error: null,
    })
    const { user, invalidate } = renderWith(<ImportDialog onClose={() => {}} />)
    await choose(user, csv('user@example.com;SAP Finance;Comptable;;;'))
    await waitFor(() => expect(importButton()).toBeEnabled())
    await user.click(importButton())
    expect(backend.rpc).toHaveBeenCalledWith('import_user_rights', { rows: [expect.objectContaining({ line: 2 })] })
    const alert = await within(dialog()).findByRole('alert')
    expect(alert).toHaveTextContent("Le serveur a refusé l'import : aucun droit n'a été importé.")
    expect(within(alert).getByRole('listitem')).toHaveTextContent('Ligne 2 : ce droit existe déjà')
    expect(invalidate).not.toHaveBeenCalled()
  })

  it("shows the server's refusal of the whole call", async () => {
    backend.rpc.mockResolvedValue({ data: null, error: { message: 'Seuls les administrateurs et le RSSI peuvent importer des droits.' } })
    const { user } = renderWith(<ImportDialog onClose={() => {}} />)
    await choose(user, csv('user@example.com;SAP Finance;Comptable;;;'))
    await waitFor(() => expect(importButton()).toBeEnabled())
    await user.click(importButton())
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('Seuls les administrateurs et le RSSI peuvent importer des droits.')
  })

  it('offers the template: the header and one example, ; separated, with a BOM', async () => {
    const { user } = renderWith(<ImportDialog onClose={() => {}} />)
    await user.click(within(dialog()).getByRole('button', { name: 'Télécharger le modèle' }))
    expect(download).toHaveBeenCalledWith('modele-import-droits.csv', expect.stringMatching(/^\uFEFFE-mail;Application;Rôle;Type de compte;/))
    const lines = (download.mock.calls[0]?.[1] as string).trimEnd().split('\r\n')
    expect(lines).toHaveLength(2)
  })
})

describe('Opening the import', () => {
  it('opens from the campaigns page for an administrator only', async () => {
    const { user } = renderWith(<CampaignsPage title="Campagnes" />)
    await user.click(await screen.findByRole('button', { name: 'Import CSV' }))
    expect(dialog()).toBeInTheDocument()
    // The footer's Fermer (the header's cross bears the same name).
    await user.click(within(dialog()).getAllByRole('button', { name: 'Fermer' }).at(-1)!)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('shows no import button to another role', async () => {
    backend.role = 'manager'
    renderWith(<CampaignsPage title="Campagnes" />)
    await screen.findByText('Revue T4')
    expect(screen.queryByRole('button', { name: 'Import CSV' })).toBeNull()
  })

  it("opens from the admin dashboard's Import CSV button", async () => {
    const { user } = renderWith(<AdminDashboardRoute />)
    await user.click(screen.getByRole('button', { name: 'Import CSV' }))
    // Its code loads when it opens (the admin's first page stays within its budget).
    expect(await screen.findByRole('dialog', { name: 'Import CSV des droits' })).toBeInTheDocument()
  })
})
