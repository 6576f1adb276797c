import { useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router-dom'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ConfirmDialog } from '@/components/ui/ConfirmDialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { formatDate } from '@/lib/dates'
import { totalText } from '@/lib/paging'
import { useApplications, useDeleteApplication, useOwnerChoices, useSaveApplication } from './api'
import { ApplicationFormDialog } from './ApplicationFormDialog'
import { APPLICATION_MESSAGES, applicationToForm, EMPTY_APPLICATION_FORM, personName, type ApplicationRow } from './model'

type Editing = { kind: 'closed' } | { kind: 'create' } | { kind: 'edit'; application: ApplicationRow }

/** The query parameter of a link to one application (the admin dashboard's « Détails »): its row is shown, and edited by whoever may. */
const LINK_PARAM = 'application'

/** SPEC §2 Applications: everyone may read; only admin and rssi (`canManage`) see the actions. */
export function ApplicationsPage({ title, canManage }: { title: string; canManage: boolean }) {
  const applications = useApplications()
  const [chosen, setChosen] = useState<Editing>({ kind: 'closed' })
  const [searchParams] = useSearchParams()
  const linkedId = searchParams.get(LINK_PARAM)
  // The linked application's form opens once; closing it leaves its row highlighted and the link as it was.
  const [dismissedLink, setDismissedLink] = useState<string | null>(null)
  const linked = linkedId ? (applications.data?.find((application) => application.id === linkedId) ?? null) : null
  const editing: Editing =
    canManage && chosen.kind === 'closed' && linked && linkedId !== dismissedLink ? { kind: 'edit', application: linked } : chosen
  const listRef = useRef<HTMLDivElement>(null)
  const linkedShown = linked !== null
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
            <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={() => setChosen({ kind: 'create' })}>
              Nouvelle application
            </Button>
          )
        }
      />
      {applications.isError && <ErrorBox message={applications.error.message} className="mb-4" />}
      {linkedId && applications.data && !linked && (
        <ErrorBox message="L'application demandée est introuvable : elle a peut-être été supprimée." className="mb-4" />
      )}
      {applications.data && (
        <p className="mb-2 text-sm text-gray-600">{totalText(applications.data.length, 'application', 'applications')}</p>
      )}
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
                  <TableHeaderCell>Nom</TableHeaderCell>
                  <TableHeaderCell>Description</TableHeaderCell>
                  <TableHeaderCell>RA</TableHeaderCell>
                  <TableHeaderCell>BPO Métier</TableHeaderCell>
                  <TableHeaderCell>BPO Groupe</TableHeaderCell>
                  <TableHeaderCell>RSSI</TableHeaderCell>
                  <TableHeaderCell>Création</TableHeaderCell>
                  {canManage && <TableHeaderCell>Actions</TableHeaderCell>}
                </tr>
              </TableHead>
              <TableBody>
                {(applications.data ?? []).length === 0 && <TableEmptyRow colSpan={columns} message="Aucune application" />}
                {applications.data?.map((application) => (
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
