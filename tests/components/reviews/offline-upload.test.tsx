import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query'
import { AuthContext, type AuthContextValue } from '@/auth/auth-context'
import { stageFileColumns as exportColumns } from '@/domain/stage-files'
import { OfflineUpload } from '@/features/reviews/components/upload/OfflineUpload'
import type { ApplyResult, OfflineFile } from '@/features/reviews/offline-model'
import type { Role } from '@/domain/labels'
import { appendSheet, bookNew, writeWorkbook } from '@/lib/xlsx-writer'
import { makeUser } from '../support/fake-auth'

// « Importer un fichier rempli » on Mes revues: the reviewer's filled-in file is read (the real reader), checked by the
// database (a stub answering what apply_review_decisions would), previewed line by line, then applied all at once.
const stubs = vi.hoisted(() => ({
  check: vi.fn<(file: OfflineFile) => Promise<ApplyResult>>(),
  apply: vi.fn<(file: OfflineFile) => Promise<ApplyResult>>(),
}))

vi.mock('@/features/reviews/api', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/reviews/api')>()),
  useCheckOfflineFile: () => useMutation({ mutationFn: (file: OfflineFile) => stubs.check(file) }),
  useApplyOfflineFile: () => useMutation({ mutationFn: (file: OfflineFile) => stubs.apply(file) }),
}))

const RIGHT_A = '00000000-0000-4000-a000-00000000000a'
const RIGHT_B = '00000000-0000-4000-a000-00000000000b'

function filledManagerFile(): File {
  const row = (id: string, holder: string, decision: string, comment: string) => [id, holder, '', 'SAP Finance', 'Comptable', '', '', '', decision, comment, '']
  const workbook = bookNew()
  appendSheet(workbook, { rows: [exportColumns('manager'), row(RIGHT_A, 'Emma Girard', 'Validé', ''), row(RIGHT_B, 'Texte du fichier', 'Refusé', 'Parti'), row(RIGHT_A.replace('a', 'c'), 'Lucas', '', '')] }, 'Droits')
  return new File([writeWorkbook(workbook) as BlobPart], 'Revue_Manager.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' })
}

const verdict = (line: number, right_id: string, reason: string | null) => ({
  line,
  right_id,
  ok: reason === null,
  reason,
  holder_name: line === 2 ? 'Emma Girard' : 'Paul Martin',
  application_name: 'SAP Finance',
  role_name: 'Comptable',
})

function renderUpload(role: Role = 'manager') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  const user = userEvent.setup()
  render(
    <AuthContext.Provider value={{ status: 'authenticated', user: makeUser(role) } as AuthContextValue}>
      <QueryClientProvider client={queryClient}>
        <OfflineUpload />
      </QueryClientProvider>
    </AuthContext.Provider>,
  )
  return user
}

async function chooseFile(user: ReturnType<typeof userEvent.setup>, file: File) {
  await user.click(screen.getByRole('button', { name: 'Importer un fichier rempli' }))
  const dialog = screen.getByRole('dialog', { name: 'Importer un fichier rempli' })
  await user.upload(within(dialog).getByLabelText('Fichier rempli (.xlsx)'), file)
  return dialog
}

beforeEach(() => {
  stubs.check.mockReset()
  stubs.apply.mockReset()
})

it('previews each line as the database sees it, and refuses to apply a file with a refused line', async () => {
  stubs.check.mockResolvedValue({
    applied: false,
    count: 1,
    lines: [verdict(2, RIGHT_A, null), verdict(3, RIGHT_B, 'Ce droit ne fait pas partie de votre périmètre de revue.')],
  })
  const user = renderUpload()
  const dialog = await chooseFile(user, filledManagerFile())

  const table = await within(dialog).findByRole('table', { name: 'Décisions lues dans le fichier' })
  const rows = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))
  expect(rows).toEqual([
    ['2', 'Comptable', 'Emma Girard', 'SAP Finance', 'Validé', 'Applicable'],
    // The holder the right really has, not the text typed in the file.
    ['3', 'Comptable', 'Paul Martin', 'SAP Finance', 'Refusé', 'Ce droit ne fait pas partie de votre périmètre de revue.'],
  ])
  expect(stubs.check).toHaveBeenCalledWith(expect.objectContaining({ stage: 'manager', undecided: 1 }))
  expect(dialog).toHaveTextContent('Fichier Manager : 2 décisions lues, 1 applicable, 1 refusée, 1 droit laissé sans décision (ignoré).')
  expect(within(dialog).getByRole('alert')).toHaveTextContent("Le fichier s'applique en entier ou pas du tout")
  expect(within(dialog).getByRole('button', { name: 'Appliquer 1 décision' })).toBeDisabled()
  expect(stubs.apply).not.toHaveBeenCalled()
})

it('applies every decision of a file the database accepts, then says so', async () => {
  const lines = [verdict(2, RIGHT_A, null), verdict(3, RIGHT_B, null)]
  stubs.check.mockResolvedValue({ applied: false, count: 2, lines })
  stubs.apply.mockResolvedValue({ applied: true, count: 2, lines })
  const user = renderUpload()
  const dialog = await chooseFile(user, filledManagerFile())

  await user.click(await within(dialog).findByRole('button', { name: 'Appliquer 2 décisions' }))
  expect(await within(dialog).findByRole('status')).toHaveTextContent('2 décisions appliquées.')
  expect(stubs.apply).toHaveBeenCalledTimes(1)
  expect(stubs.apply.mock.calls[0]![0].lines.map((line) => [line.rightId, line.decision, line.comment])).toEqual([
    [RIGHT_A, 'approved', ''],
    [RIGHT_B, 'refused', 'Parti'],
  ])
  expect(within(dialog).queryByRole('button', { name: /^Appliquer/ })).not.toBeInTheDocument()
  expect(within(dialog).getAllByText('Appliquée')).toHaveLength(2)
})

it('says in French why a file cannot be used, and checks nothing', async () => {
  const user = renderUpload()
  const dialog = await chooseFile(user, new File(['ID du droit;Décision\n1;Validé\n'], 'decisions.xlsx'))
  expect(await within(dialog).findByRole('alert')).toHaveTextContent("Ce fichier n'est pas un classeur Excel (.xlsx) lisible.")
  expect(within(dialog).getByRole('button', { name: 'Appliquer 0 décision' })).toBeDisabled()
  await waitFor(() => expect(stubs.check).not.toHaveBeenCalled())
})

it("says so when the file is another stage's, and lists each line the database refuses", async () => {
  const reason = 'Le statut « Validé par le manager » ne peut pas être donné à votre étape de revue.'
  stubs.check.mockResolvedValue({ applied: false, count: 0, lines: [verdict(2, RIGHT_A, reason), verdict(3, RIGHT_B, reason)] })
  const user = renderUpload('bpo_metier')
  const dialog = await chooseFile(user, filledManagerFile())
  await within(dialog).findByRole('table', { name: 'Décisions lues dans le fichier' })
  expect(within(dialog).getAllByRole('alert')[0]).toHaveTextContent(
    "Ce fichier n'est pas celui de votre étapeC'est un fichier Manager ; vous décidez à l'étape BPO Métier.",
  )
  expect(within(dialog).getAllByText(reason)).toHaveLength(2)
  expect(within(dialog).getByRole('button', { name: 'Appliquer 0 décision' })).toBeDisabled()
})
