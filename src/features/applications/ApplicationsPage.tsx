import { useState, type ReactNode } from 'react'
import { Plus } from 'lucide-react'
import { AdminListPage } from '@/components/admin-list/AdminListPage'
import { DeleteConfirmDialog } from '@/components/admin-list/DeleteConfirmDialog'
import { RowActions } from '@/components/admin-list/RowActions'
import { useLinkedRow } from '@/components/admin-list/use-linked-row'
import { useRowForm } from '@/components/admin-list/use-row-form'
import { Button } from '@/components/ui/Button'
import { TableCell } from '@/components/ui/Table'
import { formatDate } from '@/lib/dates'
import { usePagedList } from '@/lib/use-paged-list'
import { useApplication, useApplicationsPage, useDeleteApplication, useOwnerChoices, useSaveApplication, type ApplicationSort } from './api'
import { ApplicationFormDialog } from './ApplicationFormDialog'
import { APPLICATION_MESSAGES, applicationToForm, EMPTY_APPLICATION_FORM, personName, type ApplicationRow } from './model'

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
  const link = useLinkedRow(LINK_PARAM, applications.data?.rows)
  const linked = link.found(useApplication(link.linkedId), "L'application demandée est introuvable : elle a peut-être été supprimée.")
  const { form, create, edit, close } = useRowForm(link, linked.row, canManage)
  const [deleting, setDeleting] = useState<ApplicationRow | null>(null)
  const choices = useOwnerChoices(canManage && form.kind !== 'closed')
  const save = useSaveApplication()
  const remove = useDeleteApplication()

  return (
    <AdminListPage
      title={title}
      actions={
        canManage && (
          <>
            {importAction}
            <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={create}>
              Nouvelle application
            </Button>
          </>
        )
      }
      errors={[applications.error?.message, ...linked.errors]}
      list={list}
      search={{ label: 'Rechercher une application', help: 'Nom ou description' }}
      caption="Applications"
      columns={APPLICATION_COLUMNS}
      actionsHeader={canManage ? {} : null}
      page={applications.data}
      pending={applications.isPending}
      empty={{ none: 'Aucune application', noMatch: 'Aucune application ne correspond à la recherche' }}
      highlightedId={link.linkedId}
      listRef={link.listRef}
      pager={{ singular: 'application', several: 'applications' }}
      cells={(application) => (
        <>
          <TableCell className="font-medium">{application.name}</TableCell>
          <TableCell>{application.description || '-'}</TableCell>
          <TableCell>{personName(application.ra)}</TableCell>
          <TableCell>{personName(application.bpo_metier)}</TableCell>
          <TableCell>{personName(application.bpo_groupe)}</TableCell>
          <TableCell>{personName(application.rssi)}</TableCell>
          <TableCell>{formatDate(application.created_at)}</TableCell>
          {canManage && (
            <TableCell>
              <RowActions name={application.name} onEdit={() => edit(application)} onDelete={() => setDeleting(application)} />
            </TableCell>
          )}
        </>
      )}
    >
      {form.kind !== 'closed' && (
        <ApplicationFormDialog
          editingName={form.kind === 'edit' ? form.row.name : null}
          initialValues={form.kind === 'edit' ? applicationToForm(form.row) : EMPTY_APPLICATION_FORM}
          choices={choices.data}
          choicesError={choices.isError ? choices.error.message : null}
          onClose={close}
          onSubmit={async (input) => {
            await save.mutateAsync({ id: form.kind === 'edit' ? form.row.id : null, input })
            close()
          }}
        />
      )}
      <DeleteConfirmDialog
        target={deleting}
        title="Supprimer l'application"
        message={(application) => APPLICATION_MESSAGES.deleteConfirm(application.name)}
        removal={remove}
        onClose={() => setDeleting(null)}
      />
    </AdminListPage>
  )
}
