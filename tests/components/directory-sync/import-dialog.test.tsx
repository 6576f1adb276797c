import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { MemoryRouter } from 'react-router-dom'

// The neighbours stubbed here are the supabase-js client and the directory-sync function (fetch), so the feature's
// api.ts runs for real. The RPCs are tested in tests/db/directory-sync.test.ts, the function in tests/api.
const backend = vi.hoisted(() => ({ rpc: vi.fn(), fetch: vi.fn() }))

vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    rpc: (name: string, args: unknown) => backend.rpc(name, args),
    auth: { getSession: () => Promise.resolve({ data: { session: { access_token: 'jeton-admin' } } }) },
  }),
}))

const { SyncImportDialog } = await import('@/features/directory-sync/SyncImportDialog')
const { DIRECTORY_FORMAT, APPLICATIONS_FORMAT } = await import('@/features/directory-sync/formats')

const HEADER = 'E-mail;Prénom;Nom;Poste;Département;E-mail du manager;Rôle'

function report(overrides: Record<string, unknown> = {}) {
  return { success: true, dry_run: true, complete: false, lines: 2, created: 2, updated: 0, moved: 0, reactivated: 0, leaving: 0, unchanged: 0, errors: [], ...overrides }
}

beforeEach(() => {
  backend.rpc.mockReset()
  backend.fetch.mockReset()
  vi.stubGlobal('fetch', backend.fetch)
})
afterEach(() => vi.unstubAllGlobals())

function renderDialog(format = DIRECTORY_FORMAT) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  const user = userEvent.setup()
  render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <SyncImportDialog format={format} onClose={() => {}} />
      </QueryClientProvider>
    </MemoryRouter>,
  )
  return user
}

const file = (text: string) => new File([text], 'annuaire.csv', { type: 'text/csv' })
const dialog = (name = "Import de l'annuaire") => screen.getByRole('dialog', { name })
const importButton = () => within(dialog()).getByRole('button', { name: /^Importer/ })

describe("Import de l'annuaire", () => {
  it("lists every bad line, the browser's and the database's, and keeps the import disabled", async () => {
    backend.rpc.mockResolvedValue({
      data: report({ success: false, errors: [{ line: 3, errors: ['la chaîne des managers forme une boucle : b@x.fr → a@x.fr → b@x.fr'] }] }),
      error: null,
    })
    const user = renderDialog()
    await user.upload(
      within(dialog()).getByLabelText('Fichier CSV'),
      file([HEADER, 'a@x.fr;Anne;A;;;b@x.fr;', 'b@x.fr;Bob;B;;;a@x.fr;', '=cmd|calc;Eve;E;;;;'].join('\n')),
    )
    const list = await within(dialog()).findByRole('list', { name: /Lignes en erreur/ })
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2))
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Ligne 3 : la chaîne des managers forme une boucle : b@x.fr → a@x.fr → b@x.fr',
      'Ligne 4 : formule interdite dans « E-mail » : une cellule ne peut pas commencer par =, +, - ou @',
    ])
    // The hostile line never reaches the database.
    expect(backend.rpc).toHaveBeenCalledWith('import_directory', {
      p_rows: [
        { line: 2, email: 'a@x.fr', first_name: 'Anne', last_name: 'A', manager_email: 'b@x.fr' },
        { line: 3, email: 'b@x.fr', first_name: 'Bob', last_name: 'B', manager_email: 'a@x.fr' },
      ],
      p_complete: false,
      p_dry_run: true,
    })
    expect(importButton()).toBeDisabled()
    expect(backend.fetch).not.toHaveBeenCalled()
  })

  it('says how many people an « Import complet » deactivates before anything is applied, then applies it in one call', async () => {
    backend.rpc.mockImplementation((_name: string, args: { p_complete: boolean }) =>
      Promise.resolve({ data: report(args.p_complete ? { complete: true, leaving: 3 } : {}), error: null }),
    )
    backend.fetch.mockImplementation((_url: string, init: RequestInit) =>
      Promise.resolve(
        JSON.parse(init.body as string).action === 'invite'
          ? Response.json({ invited: ['c@x.fr', 'd@x.fr'], already: [], banned: [], unbanned: [], failures: [] })
          : Response.json({ report: report({ dry_run: false, complete: true, leaving: 3, invite: ['c@x.fr', 'd@x.fr'] }), invited: [], already: [], banned: ['z@x.fr'], unbanned: [], failures: [] }),
      ),
    )
    const user = renderDialog()
    await user.upload(within(dialog()).getByLabelText('Fichier CSV'), file([HEADER, 'c@x.fr;Céline;C;;;;', 'd@x.fr;Dan;D;;;c@x.fr;Manager'].join('\r\n')))
    await within(dialog()).findByText('Annuaire : 2 créations, 0 mise à jour, 0 changement de manager, 0 ligne inchangée.')
    await user.click(within(dialog()).getByRole('checkbox', { name: /Import complet/ }))
    expect(await within(dialog()).findByText("Import complet : 3 personnes quitteront l'annuaire (désactivées).")).toBeInTheDocument()

    await waitFor(() => expect(importButton()).toBeEnabled())
    await user.click(importButton())
    await within(dialog()).findByText('Import terminé : 2 personnes créées, 0 mise à jour, 3 personnes désactivées, 2 invitations programmées.')
    // One call applies the file; the newcomers' invitations follow in their own call.
    expect(backend.fetch).toHaveBeenCalledTimes(2)
    const [url, init] = backend.fetch.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/.netlify/functions/directory-sync')
    expect(init.headers).toMatchObject({ Authorization: 'Bearer jeton-admin' })
    expect(JSON.parse(init.body as string)).toMatchObject({ action: 'import_directory', complete: true, rows: [{ line: 2, email: 'c@x.fr' }, { line: 3, role: 'Manager' }] })
    expect(JSON.parse((backend.fetch.mock.calls[1] as [string, RequestInit])[1].body as string)).toEqual({ action: 'invite', emails: ['c@x.fr', 'd@x.fr'] })
  })

  it("refuses a file from another tool whole, naming its columns and the expected ones, and asks the database nothing", async () => {
    const user = renderDialog()
    await user.upload(within(dialog()).getByLabelText('Fichier CSV'), file('Matricule;Code\n0042;Compta'))
    expect(await within(dialog()).findByText(/^Colonnes inconnues : « Matricule », « Code »\. Colonnes obligatoires absentes : E-mail, Prénom, Nom\./)).toBeInTheDocument()
    expect(backend.rpc).not.toHaveBeenCalled()
  })
})

describe('Import des applications', () => {
  it('previews and applies through the RPC, without the function', async () => {
    backend.rpc.mockImplementation((_name: string, args: { p_dry_run: boolean }) =>
      Promise.resolve({ data: report({ dry_run: args.p_dry_run, created: 1, updated: 1, lines: 2 }), error: null }),
    )
    const user = renderDialog(APPLICATIONS_FORMAT)
    await user.upload(
      within(dialog('Import des applications')).getByLabelText('Fichier CSV'),
      file(['Nom;Description;E-mail du RA;E-mail du BPO Métier', 'Paie;RH;ra@x.fr;bpo@x.fr', 'SAP;ERP;ra@x.fr;bpo@x.fr'].join('\n')),
    )
    await waitFor(() => expect(within(dialog('Import des applications')).getByRole('button', { name: /^Importer/ })).toBeEnabled())
    await user.click(within(dialog('Import des applications')).getByRole('button', { name: /^Importer/ }))
    await within(dialog('Import des applications')).findByText('Import terminé : 1 application créée, 1 mise à jour.')
    expect(backend.rpc).toHaveBeenLastCalledWith('import_applications', { p_rows: expect.any(Array), p_dry_run: false })
    expect(backend.fetch).not.toHaveBeenCalled()
  })
})
