import { useState } from 'react'
import { Download, Filter, Search } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { TextInput } from '@/components/ui/TextInput'
import { countText } from '@/domain/plural'
import { useAuditCount, useAuditFilterOptions, useAuditPage, useLiveAudit } from './api'
import { ActionOptions, FilterSelect, UserOptions } from './AuditFilterFields'
import { AuditFiltersDialog } from './AuditFiltersDialog'
import { AuditSealCard } from './AuditSealCard'
import { AuditTable } from './AuditTable'
import { AUDIT_PAGE_SIZE, pageCount } from './model'
import { useAuditExport } from './useAuditExport'
import { NO_NAMES } from './sentence'
import { useAuditSearch } from './useAuditSearch'

/** SPEC §2 audit page: filters run on the server, 100 events per page, newest first; Filtres and Export work. */
export function AuditPage({ title }: { title: string }) {
  const search = useAuditSearch()
  const { filters, page } = search
  const exporter = useAuditExport()
  const [dialogOpen, setDialogOpen] = useState(false)

  useLiveAudit()
  const events = useAuditPage(filters, page)
  const count = useAuditCount(filters)
  const options = useAuditFilterOptions()

  const total = count.data ?? 0
  const pages = pageCount(total)
  const rows = events.data?.events ?? []
  const hasNext = count.data !== undefined ? page + 1 < pages : rows.length === AUDIT_PAGE_SIZE
  const exporting = exporter.fetched !== null

  return (
    <div>
      <PageHeader
        title={title}
        description="Journal des actions, du plus récent au plus ancien."
        actions={
          <>
            <Button variant="outline" leftIcon={<Filter aria-hidden="true" className="h-4 w-4" />} onClick={() => setDialogOpen(true)}>
              Filtres
            </Button>
            <Button
              variant="outline"
              leftIcon={<Download aria-hidden="true" className="h-4 w-4" />}
              loading={exporting}
              onClick={() => void exporter.exportCsv(filters)}
            >
              {exporter.fetched !== null ? `Export en cours… (${countText(exporter.fetched, 'événement', 'événements')})` : 'Exporter CSV'}
            </Button>
          </>
        }
      />

      <AuditSealCard />

      <div className="mb-4 grid gap-4 md:grid-cols-3">
        <TextInput
          label="Recherche"
          type="search"
          placeholder="Utilisateur, action, ressource, détails…"
          icon={<Search className="h-4 w-4" />}
          value={search.searchText}
          onChange={(event) => search.setSearchText(event.target.value)}
        />
        <FilterSelect id="audit-user" label="Utilisateur" value={filters.userId} onChange={(userId) => search.applyFilters({ ...filters, userId })}>
          <UserOptions options={options.data} />
        </FilterSelect>
        <FilterSelect id="audit-action" label="Action" value={filters.action} onChange={(action) => search.applyFilters({ ...filters, action })}>
          <ActionOptions options={options.data} />
        </FilterSelect>
      </div>

      {exporter.error !== null && <ErrorBox className="mb-4" title="L'export a échoué" message={exporter.error} />}

      <p className="mb-2 text-sm text-gray-700" aria-live="polite" data-testid="audit-count">
        {count.data === undefined ? 'Comptage…' : countText(total, 'événement', 'événements')}
      </p>

      {events.isPending ? (
        <Spinner />
      ) : events.isError ? (
        <ErrorBox message={events.error.message} />
      ) : (
        <AuditTable
          rows={rows}
          names={events.data?.names ?? NO_NAMES}
          fetching={events.isFetching}
          page={page}
          pages={pages}
          total={count.data}
          canGoNext={hasNext && !events.isPlaceholderData}
          onPrevious={search.previousPage}
          onNext={search.nextPage}
        />
      )}

      {dialogOpen && (
        <AuditFiltersDialog
          initial={{ ...filters, search: search.searchText }}
          options={options.data}
          onClose={() => setDialogOpen(false)}
          onApply={(next) => {
            search.applyAll(next)
            setDialogOpen(false)
          }}
        />
      )}
    </div>
  )
}
