import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { Pager } from '@/components/ui/Pager'
import { SearchField } from '@/components/ui/SearchField'
import { SortableHeaderCell, Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate } from '@/lib/dates'
import { usePagedList } from '@/lib/use-paged-list'
import { useApplication, useApplicationsPage, useDeleteApplication, useOwnerChoices, useSaveApplication, type ApplicationSort } from './api'
import { ApplicationFormDialog } from './ApplicationFormDialog'
import { APPLICATION_MESSAGES, applicationToForm, EMPTY_APPLICATION_FORM, personName, type ApplicationRow } from './model'

type Editing = { kind: 'closed' } | { kind: 'create' } | { kind: 'edit'; application: ApplicationRow }

/** The query parameter of a link to one application (the admin dashboard's « Détails »): its row is shown, and edited by whoever may. */
const LINK_PARAM = 'application'

/** The columns, each sorting the list on itself. */
const APPLICATION_COLUMNS: [ApplicationSort, string][] = [
  ['name', 'Nom'],
  ['description', 'Description'],
  ['ra', 'RA'],
  ['bpo_metier', 'BPO Métier'],
  ['bpo_groupe', 'BPO Groupe'],
  ['rssi', 'RSSI'],
  ['created_at', 'Création'],
]

/** SPEC §2 Applications: everyone may read; only admin and rssi (`canManage`) see the actions. */
export function ApplicationsPage({
  title,
  canManage,
  importAction,
}: {
  title: string
  canManage: boolean
  /** The applications import's button (src/features/directory-sync, composed by the route). */
  importAction?: ReactNode
}) {
  const list = usePagedList<ApplicationSort>({ sort: 'name' })
  const applications = useApplicationsPage(list.request)
  const [chosen, setChosen] = useState<Editing>({ kind: 'closed' })
  const [searchParams] = useSearchParams()
  const linkedId = searchParams.get(LINK_PARAM)
  // The linked application's form opens once; closing it leaves its row highlighted and the link as it was.
  const [dismissedLink, setDismissedLink] = useState<string | null>(null)
  // The linked application is read on its own: it may be on any page of the list.
  const linkedApplication = useApplication(linkedId)
  const linked = linkedId ? (linkedApplication.data ?? null) : null
  const editing: Editing =
    canManage && chosen.kind === 'closed' && linked && linkedId !== dismissedLink ? { kind: 'edit', application: linked } : chosen
  const listRef = useRef<HTMLDivElement>(null)
  const linkedShown = applications.data?.rows.some((application) => application.id === linkedId) ?? false
  const [deleting, setDeleting] = useState<ApplicationRow | null>(null)
  const choices = useOwnerChoices(canManage && editing.kind !== 'closed')
  const save = useSaveApplication()
  const remove = useDeleteApplication()
  const columns = canManage ? 8 : 7

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
          canManage && (
            <>
              {importAction}
              <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={() => setChosen({ kind: 'create' })}>
                Nouvelle application
              </Button>
            </>
          )
        }
      />
      {applications.isError && <ErrorBox message={applications.error.message} className="mb-4" />}
      {linkedApplication.isError && <ErrorBox message={linkedApplication.error.message} className="mb-4" />}
      {linkedId && linkedApplication.data === null && (
        <ErrorBox message="L'application demandée est introuvable : elle a peut-être été supprimée." className="mb-4" />
      )}
      <SearchField
        label="Rechercher une application"
        help="Nom ou description"
        value={list.searchText}
        onChange={list.setSearchText}
        className="mb-4 max-w-md"
      />
      <Card>
        <div ref={listRef}>
          {applications.isPending ? (
            <div className="flex justify-center p-8">
              <Spinner />
            </div>
          ) : (
            <Table caption="Applications">
              <TableHead>
                <tr>
                  {APPLICATION_COLUMNS.map(([column, label]) => (
                    <SortableHeaderCell key={column} label={label} column={column} sort={list.request.sort} direction={list.request.direction} onSort={list.toggleSort} />
                  ))}
                  {canManage && <TableHeaderCell>Actions</TableHeaderCell>}
                </tr>
              </TableHead>
              <TableBody>
                {applications.data?.rows.length === 0 && (
                  <TableEmptyRow colSpan={columns} message={list.request.search.trim() ? 'Aucune application ne correspond à la recherche' : 'Aucune application'} />
                )}
                {applications.data?.rows.map((application) => (
                  <TableRow
                    key={application.id}
                    aria-current={application.id === linkedId ? 'true' : undefined}
                    className={application.id === linkedId ? 'bg-primary-50' : undefined}
                  >
                    <TableCell className="font-medium">{application.name}</TableCell>
                    <TableCell>{application.description || '-'}</TableCell>
                    <TableCell>{personName(application.ra)}</TableCell>
                    <TableCell>{personName(application.bpo_metier)}</TableCell>
                    <TableCell>{personName(application.bpo_groupe)}</TableCell>
                    <TableCell>{personName(application.rssi)}</TableCell>
                    <TableCell>{formatDate(application.created_at)}</TableCell>
                    {canManage && (
                      <TableCell>
                        <div className="flex gap-1">
                          <Button
                            variant="ghost"
                            size="sm"
                            aria-label={`Modifier ${application.name}`}
                            onClick={() => setChosen({ kind: 'edit', application })}
                          >
                            <Pencil aria-hidden="true" className="h-4 w-4" />
                          </Button>
                          <Button variant="ghost" size="sm" aria-label={`Supprimer ${application.name}`} onClick={() => setDeleting(application)}>
                            <Trash2 aria-hidden="true" className="h-4 w-4 text-red-600" />
                          </Button>
                        </div>
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </div>
        <Pager
          page={list.request.page}
          size={list.request.size}
          total={applications.data?.total}
          singular="application"
          several="applications"
          onPage={list.setPage}
          onSize={list.setSize}
        />
      </Card>
      {editing.kind !== 'closed' && (
        <ApplicationFormDialog
          editingName={editing.kind === 'edit' ? editing.application.name : null}
          initialValues={editing.kind === 'edit' ? applicationToForm(editing.application) : EMPTY_APPLICATION_FORM}
          choices={choices.data}
          choicesError={choices.isError ? choices.error.message : null}
          onClose={closeForm}
          onSubmit={async (input) => {
            await save.mutateAsync({ id: editing.kind === 'edit' ? editing.application.id : null, input })
            closeForm()
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Supprimer l'application"
        message={deleting ? APPLICATION_MESSAGES.deleteConfirm(deleting.name) : ''}
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
