import { Plus, Upload } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { Pager } from '@/components/ui/Pager'
import { SearchField } from '@/components/ui/SearchField'
import { SortableHeaderCell, TableHeaderCell } from '@/components/ui/Table'
import type { CampaignSort } from './api'
import { CampaignDialogs } from './CampaignDialogs'
import { CampaignsTable } from './CampaignsTable'
import { useCampaignsPageState, useLinkedRowScroll } from './useCampaignsPageState'

/** The columns; all but Progression and Actions sort the list on themselves. */
const COLUMNS: [CampaignSort | null, string][] = [
  ['name', 'Nom'],
  ['application', 'Application'],
  ['account_type', 'Type de compte'],
  // Start above end; the column sorts on the start.
  ['start_date', 'Période'],
  ['status', 'Statut'],
  [null, 'Progression'],
  [null, 'Actions'],
]

export function CampaignsPage({ title }: { title: string }) {
  const state = useCampaignsPageState()
  const { admin, campaigns, list, open } = state
  const listRef = useLinkedRowScroll(state.linkedId, state.linkedShown)

  return (
    <>
      <PageHeader
        title={title}
        description="Campagnes de revue des droits d'accès"
        actions={
          admin ? (
            <>
              <Button variant="outline" leftIcon={<Upload aria-hidden="true" className="h-4 w-4" />} onClick={() => open({ kind: 'import' })}>
                Import CSV
              </Button>
              <Button leftIcon={<Plus aria-hidden="true" className="h-4 w-4" />} onClick={() => state.openForm(null)}>
                Nouvelle campagne
              </Button>
            </>
          ) : undefined
        }
      />
      {state.linkMissing && <ErrorBox message="La campagne demandée est introuvable : elle a peut-être été supprimée." className="mb-4" />}
      <SearchField label="Rechercher une campagne" help="Nom ou description" value={list.searchText} onChange={list.setSearchText} className="mb-4 max-w-md" />
      <Card>
        <div ref={listRef}>
          {campaigns.isPending ? (
            <Spinner className="py-10" />
          ) : campaigns.error ? (
            <ErrorBox message={campaigns.error.message} className="m-4" />
          ) : (
            <CampaignsTable
              campaigns={campaigns.data.rows}
              emptyMessage={list.request.search.trim() ? 'Aucune campagne ne correspond à la recherche.' : 'Aucune campagne.'}
              header={
                <tr>
                  {COLUMNS.map(([column, label]) =>
                    column ? (
                      <SortableHeaderCell key={column} label={label} column={column} sort={list.request.sort} direction={list.request.direction} onSort={list.toggleSort} />
                    ) : (
                      <TableHeaderCell key={label}>{label}</TableHeaderCell>
                    ),
                  )}
                </tr>
              }
              admin={admin}
              linkedId={state.linkedId}
              onExport={state.openExport}
              onTransition={(campaign) => open({ kind: 'transition', campaign })}
              onEdit={state.openForm}
              onDelete={(campaign) => open({ kind: 'delete', campaign })}
            />
          )}
        </div>
        <Pager
          page={list.request.page}
          size={list.request.size}
          total={campaigns.data?.total}
          singular="campagne"
          several="campagnes"
          onPage={list.setPage}
          onSize={list.setSize}
        />
      </Card>
      <CampaignDialogs state={state} />
    </>
  )
}
