import { useState, type ReactNode } from 'react'
import { Plus } from 'lucide-react'
import { AdminListPage } from '@/components/admin-list/AdminListPage'
import { DeleteConfirmDialog } from '@/components/admin-list/DeleteConfirmDialog'
import { RowActions } from '@/components/admin-list/RowActions'
import { useLinkedRow } from '@/components/admin-list/use-linked-row'
import { useRowForm } from '@/components/admin-list/use-row-form'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { TableCell } from '@/components/ui/Table'
import { cn } from '@/lib/cn'
import { formatDateTime } from '@/lib/dates'
import { roleLabel } from '@/domain/labels'
import { usePagedList } from '@/lib/use-paged-list'
import { useDeleteUser, useSaveUser, useUser, useUsersPage, type AccountFilter, type UserSort } from './api'
import { SecondFactorResetAction } from './SecondFactorResetAction'
import { UserFormDialog } from './UserFormDialog'
import { currentManager, EMPTY_USER_FORM, mayHoldSecondFactor, orDash, USER_MESSAGES, userFullName, userToForm, type UserRow } from './model'

// The actions stay in view at the table's right edge when its eight columns are wider than the screen.
const STICKY_ACTIONS = 'sticky right-0 shadow-[inset_1px_0_0_rgb(229_231_235)]'

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
  canResetSecondFactor = false,
}: {
  title: string
  currentUserId: string
  /** The directory import's button (src/features/directory-sync, composed by the route). */
  importAction?: ReactNode
  /** More actions on a person's row: deactivate, reactivate, invite. */
  rowActions?: (user: UserRow) => ReactNode
  /** Whether the reader may reset another person's second factor: administrators only. */
  canResetSecondFactor?: boolean
}) {
  const list = usePagedList<UserSort>({ sort: 'name' })
  const [accounts, setAccounts] = useState<AccountFilter>('all')
  const users = useUsersPage(list.request, accounts)
  const [deleting, setDeleting] = useState<UserRow | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const save = useSaveUser()
  const remove = useDeleteUser()
  const link = useLinkedRow(LINK_PARAM, users.data?.rows)
  const linked = link.found(useUser(link.linkedId), "L'utilisateur demandé est introuvable : il a peut-être été supprimé.")
  const { form, create, edit, close } = useRowForm(link, linked.row)
  const editingId = form.kind === 'edit' ? form.row.id : null

  return (
    <AdminListPage
      title={title}
      actions={
        <>
          {importAction}
          <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={create}>
            Nouvel utilisateur
          </Button>
        </>
      }
      errors={[users.error?.message, ...linked.errors]}
      notice={notice}
      list={list}
      search={{ label: 'Rechercher un utilisateur', help: 'Nom, prénom, e-mail, poste ou département' }}
      filters={
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
      }
      caption="Utilisateurs"
      columns={USER_COLUMNS}
      actionsHeader={{ className: cn(STICKY_ACTIONS, 'bg-gray-50') }}
      page={users.data}
      pending={users.isPending}
      empty={{ none: 'Aucun utilisateur', noMatch: 'Aucun utilisateur ne correspond à la recherche' }}
      highlightedId={link.linkedId}
      listRef={link.listRef}
      pager={{ singular: 'utilisateur', several: 'utilisateurs' }}
      cells={(user) => (
        <>
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
          <TableCell className={cn(STICKY_ACTIONS, user.id === link.linkedId ? 'bg-primary-50' : 'bg-white')}>
            <RowActions
              name={userFullName(user)}
              onEdit={() => edit(user)}
              onDelete={user.id !== currentUserId ? () => setDeleting(user) : undefined}
              after={
                <>
                  {rowActions?.(user)}
                  {canResetSecondFactor && user.id !== currentUserId && mayHoldSecondFactor(user.role) && (
                    <SecondFactorResetAction person={{ id: user.id, name: userFullName(user) }} onDone={setNotice} />
                  )}
                </>
              }
            />
          </TableCell>
        </>
      )}
    >
      {form.kind !== 'closed' && (
        <UserFormDialog
          editing={form.kind === 'edit'}
          initialValues={form.kind === 'edit' ? userToForm(form.row) : EMPTY_USER_FORM}
          editingId={editingId}
          initialManager={form.kind === 'edit' ? currentManager(form.row) : null}
          roleLocked={editingId !== null && editingId === currentUserId}
          onClose={close}
          onSubmit={async (input) => {
            await save.mutateAsync({ id: editingId, input })
            close()
          }}
        />
      )}
      <DeleteConfirmDialog
        target={deleting}
        title="Supprimer l'utilisateur"
        message={(user) => USER_MESSAGES.deleteConfirm(userFullName(user))}
        removal={remove}
        onClose={() => setDeleting(null)}
      />
    </AdminListPage>
  )
}
