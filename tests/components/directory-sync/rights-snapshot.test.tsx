import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query'
import { RightsSnapshotButton } from '@/features/directory-sync/rights-snapshot/RightsSnapshotButton'
import type { SnapshotReport } from '@/features/directory-sync/rights-snapshot/format'
import type { SyncLine } from '@/features/directory-sync/parse'

// « Importer la liste des droits »: an application's complete list read in the browser, previewed by a dry run of
// import_rights_snapshot (what it adds, what it finds gone, the removals it settles), then applied. The RPC is stubbed
// with what Postgres answers.
const stubs = vi.hoisted(() => ({ snapshot: vi.fn<(application: string, rows: readonly SyncLine[], dryRun: boolean) => Promise<SnapshotReport>>() }))
vi.mock('@/features/directory-sync/rights-snapshot/api', () => ({
  useApplicationNames: () => ({ data: ['CRM Commercial', 'SAP Finance'] }),
  useSnapshotPreview: (application: string, rows: readonly SyncLine[] | null) =>
    useQuery({ queryKey: ['preview', application, rows], queryFn: () => stubs.snapshot(application, rows ?? [], true), enabled: application !== '' && rows !== null }),
  useApplySnapshot: () =>
    useMutation<SnapshotReport, Error, { application: string; rows: readonly SyncLine[] }>({ mutationFn: ({ application, rows }) => stubs.snapshot(application, rows, false) }),
}))

const report = (dryRun: boolean, overrides: Partial<SnapshotReport> = {}): SnapshotReport => ({
  success: true, dry_run: dryRun, application: 'SAP Finance', lines: 2, created: 1, present: 1, absent: 3, verified: 1, unverified: 0, errors: [], ...overrides,
})

function renderButton() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RightsSnapshotButton />
    </QueryClientProvider>,
  )
}

const csv = (text: string) => new File([text], 'droits.csv', { type: 'text/csv' })

beforeEach(() => stubs.snapshot.mockReset())

describe('Importer la liste des droits', () => {
  it('previews what the list adds and settles, then imports it for the chosen application', async () => {
    stubs.snapshot.mockImplementation(async (_application, _rows, dryRun) => report(dryRun))
    renderButton()
    await userEvent.click(screen.getByRole('button', { name: 'Importer la liste des droits' }))
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Application' }), 'SAP Finance')
    await userEvent.upload(screen.getByLabelText('Fichier CSV'), csv('E-mail;Rôle\nuser@example.com;Comptable\nmanager@example.com;Lecteur\n'))
    expect(await screen.findByText(/Import prévu pour « SAP Finance » : 1 droit ajouté, 1 déjà connu, 3 droits absents de la liste .* 1 suppression constatée, 0 suppression non constatée/)).toBeInTheDocument()
    expect(stubs.snapshot).toHaveBeenCalledWith('SAP Finance', [
      { line: 2, email: 'user@example.com', role_name: 'Comptable' },
      { line: 3, email: 'manager@example.com', role_name: 'Lecteur' },
    ], true)
    await userEvent.click(screen.getByRole('button', { name: 'Importer' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Import terminé pour « SAP Finance »')
    expect(stubs.snapshot).toHaveBeenLastCalledWith('SAP Finance', expect.any(Array), false)
  })

  it('lists the lines the database refuses and imports nothing', async () => {
    stubs.snapshot.mockResolvedValue(report(true, { success: false, errors: [{ line: 2, errors: ['utilisateur inconnu : x@y.fr'] }] }))
    renderButton()
    await userEvent.click(screen.getByRole('button', { name: 'Importer la liste des droits' }))
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Application' }), 'SAP Finance')
    await userEvent.upload(screen.getByLabelText('Fichier CSV'), csv('E-mail;Rôle\nx@y.fr;Comptable\n'))
    expect(await screen.findByText('Ligne 2')).toBeInTheDocument()
    expect(screen.getByText(/utilisateur inconnu : x@y.fr/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Importer' })).toBeDisabled()
  })

  it('refuses a file without the Rôle column before asking the server', async () => {
    renderButton()
    await userEvent.click(screen.getByRole('button', { name: 'Importer la liste des droits' }))
    await userEvent.upload(screen.getByLabelText('Fichier CSV'), csv('E-mail\nuser@example.com\n'))
    expect(await screen.findByText(/Colonne obligatoire absente : Rôle/)).toBeInTheDocument()
    expect(stubs.snapshot).not.toHaveBeenCalled()
  })
})
