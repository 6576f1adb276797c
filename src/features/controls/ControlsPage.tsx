import { useState } from 'react'
import { Pencil, Plus, Power, Trash2 } from 'lucide-react'
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
import { usePagedList } from '@/lib/use-paged-list'
import { useApplicationChoices, useControlRulesPage, useDeleteControlRule, useLiveControlRules, useSaveControlRule, useToggleControlRule, type ControlRuleSort } from './api'
import { ControlRuleFormDialog } from './ControlRuleFormDialog'
import {
  CONTROL_MESSAGES,
  controlRuleToForm,
  EMPTY_CONTROL_RULE_FORM,
  formatParameters,
  scopeLabel,
  statusLabel,
  type ControlRuleRow,
} from './model'

type Editing = { kind: 'closed' } | { kind: 'create' } | { kind: 'edit'; rule: ControlRuleRow }

/** The columns, each sorting the list on itself. */
const RULE_COLUMNS: [ControlRuleSort, string][] = [
  ['name', 'Nom'],
  ['description', 'Description'],
  ['global', 'Portée'],
  ['application', 'Application'],
  ['parameters', 'Paramètres'],
  ['enabled', 'Statut'],
]

/** SPEC §2 Contrôles (admin and rssi): list, create, edit, toggle, delete control rules. */
export function ControlsPage({ title }: { title: string }) {
  useLiveControlRules()
  // Newest first until a column is chosen, as the rules were always listed.
  const list = usePagedList<ControlRuleSort>({ sort: 'created_at', direction: 'desc' })
  const rules = useControlRulesPage(list.request)
  const [editing, setEditing] = useState<Editing>({ kind: 'closed' })
  const [deleting, setDeleting] = useState<ControlRuleRow | null>(null)
  const applications = useApplicationChoices(editing.kind !== 'closed')
  const save = useSaveControlRule()
  const toggle = useToggleControlRule()
  const remove = useDeleteControlRule()

  const closeDelete = () => {
    setDeleting(null)
    remove.reset()
  }

  return (
    <div>
      <PageHeader
        title={title}
        actions={
          <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={() => setEditing({ kind: 'create' })}>
            Nouvelle règle
          </Button>
        }
      />
      {rules.isError && <ErrorBox message={rules.error.message} className="mb-4" />}
      {toggle.isError && <ErrorBox message={toggle.error.message} className="mb-4" />}
      <SearchField
        label="Rechercher une règle"
        help="Nom ou description"
        value={list.searchText}
        onChange={list.setSearchText}
        className="mb-4 max-w-md"
      />
      <Card>
        {rules.isPending ? (
          <div className="flex justify-center p-8">
            <Spinner />
          </div>
        ) : (
          <Table caption="Règles de contrôle">
            <TableHead>
              <tr>
                {RULE_COLUMNS.map(([column, label]) => (
                  <SortableHeaderCell key={column} label={label} column={column} sort={list.request.sort} direction={list.request.direction} onSort={list.toggleSort} />
                ))}
                <TableHeaderCell>Actions</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {rules.data?.rows.length === 0 && (
                <TableEmptyRow colSpan={7} message={list.request.search.trim() ? 'Aucune règle ne correspond à la recherche' : 'Aucune règle de contrôle'} />
              )}
              {rules.data?.rows.map((rule) => (
                <TableRow key={rule.id}>
                  <TableCell className="font-medium">{rule.name}</TableCell>
                  <TableCell>{rule.description || '-'}</TableCell>
                  <TableCell>
                    <Badge tone={rule.global ? 'blue' : 'grey'}>{scopeLabel(rule)}</Badge>
                  </TableCell>
                  <TableCell>{rule.application?.name ?? '-'}</TableCell>
                  <TableCell>
                    <pre className="max-w-xs overflow-x-auto whitespace-pre-wrap text-xs">{formatParameters(rule.parameters)}</pre>
                  </TableCell>
                  <TableCell>
                    <Badge tone={rule.enabled ? 'green' : 'grey'}>{statusLabel(rule)}</Badge>
                  </TableCell>
                  <TableCell>
                    <div className="flex gap-1">
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`${rule.enabled ? 'Désactiver' : 'Activer'} ${rule.name}`}
                        disabled={toggle.isPending}
                        onClick={() => toggle.mutate({ id: rule.id, enabled: !rule.enabled })}
                      >
                        <Power aria-hidden="true" className="h-4 w-4" />
                      </Button>
                      <Button variant="ghost" size="sm" aria-label={`Modifier ${rule.name}`} onClick={() => setEditing({ kind: 'edit', rule })}>
                        <Pencil aria-hidden="true" className="h-4 w-4" />
                      </Button>
                      <Button variant="ghost" size="sm" aria-label={`Supprimer ${rule.name}`} onClick={() => setDeleting(rule)}>
                        <Trash2 aria-hidden="true" className="h-4 w-4 text-red-600" />
                      </Button>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <Pager
          page={list.request.page}
          size={list.request.size}
          total={rules.data?.total}
          singular="règle de contrôle"
          several="règles de contrôle"
          onPage={list.setPage}
          onSize={list.setSize}
        />
      </Card>
      {editing.kind !== 'closed' && (
        <ControlRuleFormDialog
          editing={editing.kind === 'edit'}
          initialValues={editing.kind === 'edit' ? controlRuleToForm(editing.rule) : EMPTY_CONTROL_RULE_FORM}
          applications={applications.data}
          onClose={() => setEditing({ kind: 'closed' })}
          onSubmit={async (input) => {
            await save.mutateAsync({ id: editing.kind === 'edit' ? editing.rule.id : null, input })
            setEditing({ kind: 'closed' })
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Supprimer la règle"
        message={deleting ? CONTROL_MESSAGES.deleteConfirm(deleting.name) : ''}
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
