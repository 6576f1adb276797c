import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDateTime } from '@/lib/dates'
import { roleLabel } from '@/lib/labels'
import { totalText } from '@/lib/paging'
import { useDeleteUser, useSaveUser, useUsers } from './api'
import { UserFormDialog } from './UserFormDialog'
import { EMPTY_USER_FORM, managerChoices, orDash, USER_MESSAGES, userFullName, userToForm, type UserRow } from './model'

type Editing = { kind: 'closed' } | { kind: 'create' } | { kind: 'edit'; user: UserRow }

/** The query parameter of a link to one person (the admin dashboard's « Détails »): their row is shown and edited. */
const LINK_PARAM = 'utilisateur'

/** SPEC §2 Users (admin and rssi): list, create, edit, delete. */
export function UsersPage({ title, currentUserId }: { title: string; currentUserId: string }) {
  const users = useUsers()
  const [chosen, setChosen] = useState<Editing>({ kind: 'closed' })
  const [deleting, setDeleting] = useState<UserRow | null>(null)
  const save = useSaveUser()
  const remove = useDeleteUser()
  const [searchParams] = useSearchParams()
  const linkedId = searchParams.get(LINK_PARAM)
  // The linked person's form opens once; closing it leaves their row highlighted and the link as it was.
  const [dismissedLink, setDismissedLink] = useState<string | null>(null)
  const linked = linkedId ? (users.data?.find((user) => user.id === linkedId) ?? null) : null
  const editing: Editing = chosen.kind === 'closed' && linked && linkedId !== dismissedLink ? { kind: 'edit', user: linked } : chosen
  const editingId = editing.kind === 'edit' ? editing.user.id : null
  const listRef = useRef<HTMLDivElement>(null)
  const linkedShown = linked !== null

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
          <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={() => setChosen({ kind: 'create' })}>
            Nouvel utilisateur
          </Button>
        }
      />
      {users.isError && <ErrorBox message={users.error.message} className="mb-4" />}
      {linkedId && users.data && !linked && (
        <ErrorBox message="L'utilisateur demandé est introuvable : il a peut-être été supprimé." className="mb-4" />
      )}
      {users.data && <p className="mb-2 text-sm text-gray-600">{totalText(users.data.length, 'utilisateur', 'utilisateurs')}</p>}
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
                  <TableHeaderCell>Nom</TableHeaderCell>
                  <TableHeaderCell>Email</TableHeaderCell>
                  <TableHeaderCell>Rôle</TableHeaderCell>
                  <TableHeaderCell>Poste</TableHeaderCell>
                  <TableHeaderCell>Département</TableHeaderCell>
                  <TableHeaderCell>Manager</TableHeaderCell>
                  <TableHeaderCell>Dernière connexion</TableHeaderCell>
                  <TableHeaderCell>Actions</TableHeaderCell>
                </tr>
              </TableHead>
              <TableBody>
                {(users.data ?? []).length === 0 && <TableEmptyRow colSpan={8} message="Aucun utilisateur" />}
                {users.data?.map((user) => (
                  <TableRow
                    key={user.id}
                    aria-current={user.id === linkedId ? 'true' : undefined}
                    className={user.id === linkedId ? 'bg-primary-50' : undefined}
                  >
                    <TableCell className="font-medium">{userFullName(user)}</TableCell>
                    <TableCell>{user.email}</TableCell>
                    <TableCell>
                      <Badge tone="blue">{roleLabel(user.role)}</Badge>
                    </TableCell>
                    <TableCell>{orDash(user.position)}</TableCell>
                    <TableCell>{orDash(user.department)}</TableCell>
                    <TableCell>{userFullName(user.manager)}</TableCell>
                    <TableCell>{formatDateTime(user.last_login, 'Jamais')}</TableCell>
                    <TableCell>
                      <div className="flex gap-1">
                        <Button variant="ghost" size="sm" aria-label={`Modifier ${userFullName(user)}`} onClick={() => setChosen({ kind: 'edit', user })}>
                          <Pencil aria-hidden="true" className="h-4 w-4" />
                        </Button>
                        {user.id !== currentUserId && (
                          <Button variant="ghost" size="sm" aria-label={`Supprimer ${userFullName(user)}`} onClick={() => setDeleting(user)}>
                            <Trash2 aria-hidden="true" className="h-4 w-4 text-red-600" />
                          </Button>
                        )}
                      </div>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </div>
      </Card>
      {editing.kind !== 'closed' && (
        <UserFormDialog
          editing={editing.kind === 'edit'}
          initialValues={editing.kind === 'edit' ? userToForm(editing.user) : EMPTY_USER_FORM}
          managers={managerChoices(users.data ?? [], editingId)}
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
