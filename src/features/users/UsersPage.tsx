import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { Pager } from '@/components/ui/Pager'
import { SearchField } from '@/components/ui/SearchField'
import { SortableHeaderCell, Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/dates'
import { roleLabel } from '@/domain/labels'
import { usePagedList } from '@/lib/use-paged-list'
import { useDeleteUser, useSaveUser, useUser, useUsersPage, type AccountFilter, type UserSort } from './api'
import { UserFormDialog } from './UserFormDialog'
import { currentManager, EMPTY_USER_FORM, orDash, USER_MESSAGES, userFullName, userToForm, type UserRow } from './model'

// The actions stay in view at the table's right edge when its eight columns are wider than the screen.
const STICKY_ACTIONS = 'sticky right-0 shadow-[inset_1px_0_0_rgb(229_231_235)]'

type Editing = { kind: 'closed' } | { kind: 'create' } | { kind: 'edit'; user: UserRow }

/** The query parameter of a link to one person (the admin dashboard's « Détails »): their row is shown and edited. */
const LINK_PARAM = 'utilisateur'

/** The columns, each sorting the list on itself. */
const USER_COLUMNS: [UserSort, string][] = [
  ['name', 'Nom'],
  ['email', 'Email'],
  ['role', 'Rôle'],
  ['position', 'Poste'],
  ['department', 'Département'],
  ['manager', 'Manager'],
  ['last_login', 'Dernière connexion'],
]

/** SPEC §2 Users (admin and rssi): list, create, edit, delete. */
export function UsersPage({
  title,
  currentUserId,
  importAction,
  rowActions,
}: {
  title: string
  currentUserId: string
  /** The directory import's button (src/features/directory-sync, composed by the route). */
  importAction?: ReactNode
  /** More actions on a person's row: deactivate, reactivate, invite. */
  rowActions?: (user: UserRow) => ReactNode
}) {
  const list = usePagedList<UserSort>({ sort: 'name' })
  const [accounts, setAccounts] = useState<AccountFilter>('all')
  const users = useUsersPage(list.request, accounts)
  const [chosen, setChosen] = useState<Editing>({ kind: 'closed' })
  const [deleting, setDeleting] = useState<UserRow | null>(null)
  const save = useSaveUser()
  const remove = useDeleteUser()
  const [searchParams] = useSearchParams()
  const linkedId = searchParams.get(LINK_PARAM)
  // The linked person's form opens once; closing it leaves their row highlighted and the link as it was.
  const [dismissedLink, setDismissedLink] = useState<string | null>(null)
  // The linked person is read on their own: they may be on any page of the list.
  const linkedUser = useUser(linkedId)
  const linked = linkedId ? (linkedUser.data ?? null) : null
  const editing: Editing = chosen.kind === 'closed' && linked && linkedId !== dismissedLink ? { kind: 'edit', user: linked } : chosen
  const editingId = editing.kind === 'edit' ? editing.user.id : null
  const listRef = useRef<HTMLDivElement>(null)
  const linkedShown = users.data?.rows.some((user) => user.id === linkedId) ?? false

  useEffect(() => {
    if (linkedShown) listRef.current?.querySelector('[aria-current="true"]')?.scrollIntoView?.({ block: 'center' })
  }, [linkedId, linkedShown])

  const closeForm = () => {
    setChosen({ kind: 'closed' })
    setDismissedLink(linkedId)
  }

  const closeDelete = () => {
    setDeleting(null)
    remove.reset()
  }

  return (
    <div>
      <PageHeader
        title={title}
        actions={
          <>
            {importAction}
            <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={() => setChosen({ kind: 'create' })}>
              Nouvel utilisateur
            </Button>
          </>
        }
      />
      {users.isError && <ErrorBox message={users.error.message} className="mb-4" />}
      {linkedUser.isError && <ErrorBox message={linkedUser.error.message} className="mb-4" />}
      {linkedId && linkedUser.data === null && (
        <ErrorBox message="L'utilisateur demandé est introuvable : il a peut-être été supprimé." className="mb-4" />
      )}
      <div className="mb-4 flex flex-wrap items-start gap-4">
        <SearchField
          label="Rechercher un utilisateur"
          help="Nom, prénom, e-mail, poste ou département"
          value={list.searchText}
          onChange={list.setSearchText}
          className="w-full max-w-md"
        />
        <label className="block text-sm font-medium text-gray-700">
          Comptes
          <select
            value={accounts}
            onChange={(event) => {
              setAccounts(event.target.value as AccountFilter)
              list.setPage(0)
            }}
            className="mt-1 block rounded-md border border-gray-300 px-3 py-2 text-sm"
          >
            <option value="all">Tous</option>
            <option value="active">Actifs</option>
            <option value="inactive">Désactivés</option>
          </select>
        </label>
      </div>
      <Card>
        <div ref={listRef}>
          {users.isPending ? (
            <div className="flex justify-center p-8">
              <Spinner />
            </div>
          ) : (
            <Table caption="Utilisateurs">
              <TableHead>
                <tr>
                  {USER_COLUMNS.map(([column, label]) => (
                    <SortableHeaderCell key={column} label={label} column={column} sort={list.request.sort} direction={list.request.direction} onSort={list.toggleSort} />
                  ))}
                  <TableHeaderCell className={cn(STICKY_ACTIONS, 'bg-gray-50')}>Actions</TableHeaderCell>
                </tr>
              </TableHead>
              <TableBody>
                {users.data?.rows.length === 0 && (
                  <TableEmptyRow colSpan={8} message={list.request.search.trim() ? 'Aucun utilisateur ne correspond à la recherche' : 'Aucun utilisateur'} />
                )}
                {users.data?.rows.map((user) => (
                  <TableRow
                    key={user.id}
                    aria-current={user.id === linkedId ? 'true' : undefined}
                    className={user.id === linkedId ? 'bg-primary-50' : undefined}
                  >
                    <TableCell className="font-medium">
                      {userFullName(user)}
                      {user.active === false && (
                        <Badge tone="grey" className="ml-2">
                          Désactivé
                        </Badge>
                      )}
                    </TableCell>
                    <TableCell className="break-all">{user.email}</TableCell>
                    <TableCell>
                      <Badge tone="blue">{roleLabel(user.role)}</Badge>
                    </TableCell>
                    <TableCell>{orDash(user.position)}</TableCell>
                    <TableCell>{orDash(user.department)}</TableCell>
                    <TableCell>{userFullName(user.manager)}</TableCell>
                    <TableCell className="whitespace-nowrap">{formatDateTime(user.last_login, 'Jamais')}</TableCell>
                    <TableCell className={cn(STICKY_ACTIONS, user.id === linkedId ? 'bg-primary-50' : 'bg-white')}>
                      <div className="flex gap-1">
                        <Button variant="ghost" size="sm" aria-label={`Modifier ${userFullName(user)}`} onClick={() => setChosen({ kind: 'edit', user })}>
                          <Pencil aria-hidden="true" className="h-4 w-4" />
                        </Button>
                        {user.id !== currentUserId && (
                          <Button variant="ghost" size="sm" aria-label={`Supprimer ${userFullName(user)}`} onClick={() => setDeleting(user)}>
                            <Trash2 aria-hidden="true" className="h-4 w-4 text-red-600" />
                          </Button>
                        )}
                        {rowActions?.(user)}
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </div>
        <Pager
          page={list.request.page}
          size={list.request.size}
          total={users.data?.total}
          singular="utilisateur"
          several="utilisateurs"
          onPage={list.setPage}
          onSize={list.setSize}
        />
      </Card>
      {editing.kind !== 'closed' && (
        <UserFormDialog
          editing={editing.kind === 'edit'}
          initialValues={editing.kind === 'edit' ? userToForm(editing.user) : EMPTY_USER_FORM}
          editingId={editingId}
          initialManager={editing.kind === 'edit' ? currentManager(editing.user) : null}
          roleLocked={editingId !== null && editingId === currentUserId}
          onClose={closeForm}
          onSubmit={async (input) => {
            await save.mutateAsync({ id: editingId, input })
            closeForm()
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Supprimer l'utilisateur"
        message={deleting ? USER_MESSAGES.deleteConfirm(userFullName(deleting)) : ''}
        pending={remove.isPending}
        error={remove.isError ? remove.error.message : null}
        onClose={closeDelete}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id, { onSuccess: closeDelete })
        }}
      />
    </div>
  )
}
