import { useState } from 'react'
import { Plus, Power } from 'lucide-react'
import { AdminListPage } from '@/components/admin-list/AdminListPage'
import { DeleteConfirmDialog } from '@/components/admin-list/DeleteConfirmDialog'
import { RowActions } from '@/components/admin-list/RowActions'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { TableCell } from '@/components/ui/Table'
import { usePagedList } from '@/lib/use-paged-list'
import { useApplicationChoices, useControlRulesPage, useDeleteControlRule, useLiveControlRules, useRulesReach, useSaveControlRule, useToggleControlRule, type ControlRuleSort } from './api'
import { ControlRuleFormDialog } from './ControlRuleFormDialog'
import { CONTROL_MESSAGES, controlRuleToForm, EMPTY_CONTROL_RULE_FORM, scopeLabel, statusLabel, type ControlRuleRow } from './model'
import { RuleSummary } from './RuleSummary'

type Editing = { kind: 'closed' } | { kind: 'create' } | { kind: 'edit'; rule: ControlRuleRow }

/** The columns, each sorting the list on itself. */
const RULE_COLUMNS: [ControlRuleSort, string][] = [
  ['name', 'Nom'],
  ['description', 'Description'],
  ['global', 'Portée'],
  ['application', 'Application'],
  ['parameters', 'Règle'],
  ['enabled', 'Statut'],
]

/** SPEC §2 Contrôles (admin and rssi): list, create, edit, toggle, delete control rules; each rule in words with its reach today. */
export function ControlRulesPage({ title }: { title: string }) {
  useLiveControlRules()
  // Newest first until a column is chosen, as the rules were always listed.
  const list = usePagedList<ControlRuleSort>({ sort: 'created_at', direction: 'desc' })
  const rules = useControlRulesPage(list.request)
  const reach = useRulesReach(rules.data?.rows.map((rule) => rule.id) ?? [])
  const [editing, setEditing] = useState<Editing>({ kind: 'closed' })
  const [deleting, setDeleting] = useState<ControlRuleRow | null>(null)
  const applications = useApplicationChoices(editing.kind !== 'closed')
  const save = useSaveControlRule()
  const toggle = useToggleControlRule()
  const remove = useDeleteControlRule()

  return (
    <AdminListPage
      title={title}
      actions={
        <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={() => setEditing({ kind: 'create' })}>
          Nouvelle règle
        </Button>
      }
      errors={[rules.error?.message, toggle.error?.message]}
      list={list}
      search={{ label: 'Rechercher une règle', help: 'Nom ou description' }}
      caption="Règles de contrôle"
      columns={RULE_COLUMNS}
      actionsHeader={{}}
      page={rules.data}
      pending={rules.isPending}
      empty={{ none: 'Aucune règle de contrôle', noMatch: 'Aucune règle ne correspond à la recherche' }}
      pager={{ singular: 'règle de contrôle', several: 'règles de contrôle' }}
      cells={(rule) => (
        <>
          <TableCell className="font-medium">{rule.name}</TableCell>
          <TableCell>{rule.description || '-'}</TableCell>
          <TableCell>
            <Badge tone={rule.global ? 'blue' : 'grey'}>{scopeLabel(rule)}</Badge>
          </TableCell>
          <TableCell>{rule.application?.name ?? '-'}</TableCell>
          <TableCell>
            <RuleSummary rule={rule} reach={reach.data?.[rule.id]} failed={reach.isError} />
          </TableCell>
          <TableCell>
            <Badge tone={rule.enabled ? 'green' : 'grey'}>{statusLabel(rule)}</Badge>
          </TableCell>
          <TableCell>
            <RowActions
              name={rule.name}
              onEdit={() => setEditing({ kind: 'edit', rule })}
              onDelete={() => setDeleting(rule)}
              before={
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`${rule.enabled ? 'Désactiver' : 'Activer'} ${rule.name}`}
                  disabled={toggle.isPending}
                  onClick={() => toggle.mutate({ id: rule.id, enabled: !rule.enabled })}
                >
                  <Power aria-hidden="true" className="h-4 w-4" />
                </Button>
              }
            />
          </TableCell>
        </>
      )}
    >
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
      <DeleteConfirmDialog
        target={deleting}
        title="Supprimer la règle"
        message={(rule) => CONTROL_MESSAGES.deleteConfirm(rule.name)}
        removal={remove}
        onClose={() => setDeleting(null)}
      />
    </AdminListPage>
  )
}
