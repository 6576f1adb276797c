import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Badge } from '@/components/ui/Badge'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { Pager } from '@/components/ui/Pager'
import { Spinner } from '@/components/ui/Spinner'
import { StatusBadge } from '@/components/ui/StatusBadge'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { lastUseText } from '@/lib/dates'
import { accountTypeLabel } from '@/domain/labels'
import type { PageSize } from '@/lib/paging'
import { rssiRiskListQuery } from '../api'
import { ignoredFiltersText, RISK_BASIS, type DashboardFilters, type Risk, type RiskConflict, type RiskRight } from '../model'

function Holder({ name, email, active }: { name: string; email: string; active: boolean }) {
  return (
    <>
      <span className="font-medium">{name}</span>
      {!active && (
        <Badge tone="red" className="ml-2">
          Désactivé
        </Badge>
      )}
      <span className="block text-xs text-gray-600">{email}</span>
    </>
  )
}

function RightsTable({ caption, rows }: { caption: string; rows: readonly RiskRight[] }) {
  return (
    <Table caption={caption}>
      <TableHead>
        <tr>
          <TableHeaderCell>Utilisateur</TableHeaderCell>
          <TableHeaderCell>Application</TableHeaderCell>
          <TableHeaderCell>Rôle</TableHeaderCell>
          <TableHeaderCell>Type de compte</TableHeaderCell>
          <TableHeaderCell>Statut</TableHeaderCell>
          <TableHeaderCell>Dernière utilisation</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {rows.length === 0 ? (
          <TableEmptyRow colSpan={6} message="Aucun droit." />
        ) : (
          rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell>
                <Holder name={row.user_name} email={row.user_email} active={row.user_active} />
              </TableCell>
              <TableCell>{row.application_name}</TableCell>
              <TableCell>{row.role_name}</TableCell>
              <TableCell>{accountTypeLabel(row.account_type)}</TableCell>
              <TableCell>
                <StatusBadge status={row.status} />
              </TableCell>
              <TableCell>{lastUseText(row.last_used_at)}</TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  )
}

function ConflictsTable({ caption, rows }: { caption: string; rows: readonly RiskConflict[] }) {
  return (
    <Table caption={caption}>
      <TableHead>
        <tr>
          <TableHeaderCell>Utilisateur</TableHeaderCell>
          <TableHeaderCell>Règle</TableHeaderCell>
          <TableHeaderCell>Droits en conflit</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {rows.length === 0 ? (
          <TableEmptyRow colSpan={3} message="Aucune violation." />
        ) : (
          rows.map((row) => (
            <TableRow key={`${row.rule_id}/${row.user_id}`}>
              <TableCell>
                <Holder name={row.user_name} email={row.user_email} active={row.user_active} />
              </TableCell>
              <TableCell>{row.rule_name}</TableCell>
              <TableCell>
                <ul>
                  {row.rights.map((right) => (
                    <li key={right.id}>
                      « {right.role_name} » sur {right.application_name}
                    </li>
                  ))}
                </ul>
              </TableCell>
            </TableRow>
          ))
        )}
      </TableBody>
    </Table>
  )
}

interface RiskListDialogProps {
  risk: Risk
  /** The dashboard's filters, which the list applies as the count does. */
  filters: DashboardFilters
  onClose: () => void
}

/** What a risk of the RSSI dashboard counts, page by page: as many entries as the figure on its tile. */
export function RiskListDialog({ risk, filters, onClose }: RiskListDialogProps) {
  const [page, setPage] = useState(0)
  const [size, setSize] = useState<PageSize>(25)
  const list = useQuery(rssiRiskListQuery(filters, risk.key, { page, size }))
  const data = list.data
  const ignored = ignoredFiltersText(data?.ignored_filters ?? risk.ignored_filters)
  const conflicts = risk.key === 'incompatible_roles'
  return (
    <Dialog open onClose={onClose} title={risk.label} description={RISK_BASIS[risk.key]} size="lg">
      {ignored && <p className="mb-3 text-sm text-gray-600">{ignored}</p>}
      {list.isPending ? (
        <div className="flex justify-center p-8">
          <Spinner />
        </div>
      ) : list.isError ? (
        <ErrorBox message={list.error.message} />
      ) : (
        data && (
          <div aria-busy={list.isFetching || undefined}>
            {data.key === 'incompatible_roles' ? (
              <ConflictsTable caption={risk.label} rows={data.rows} />
            ) : (
              <RightsTable caption={risk.label} rows={data.rows} />
            )}
          </div>
        )
      )}
      <Pager
        page={page}
        size={size}
        total={data?.total}
        singular={conflicts ? 'violation' : 'droit'}
        several={conflicts ? 'violations' : 'droits'}
        onPage={setPage}
        onSize={(next) => {
          setSize(next)
          setPage(0)
        }}
      />
    </Dialog>
  )
}
