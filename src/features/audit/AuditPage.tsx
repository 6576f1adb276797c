import { useEffect, useState, type ReactNode } from 'react'
import { ChevronLeft, ChevronRight, Download, Filter, Search } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Dialog } from '@/components/ui/Dialog'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { Table, TableBody, TableCell, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import { TextInput } from '@/components/ui/TextInput'
import { downloadCsv, toCsv } from '@/lib/csv'
import { formatDateTime } from '@/lib/dates'
import { fetchAllAuditEvents, useAuditCount, useAuditFilterOptions, useAuditPage, useLiveAudit } from './api'
import {
  actionLabel,
  AUDIT_CSV_HEADER,
  AUDIT_PAGE_SIZE,
  auditCsvRow,
  auditFileName,
  auditUserLabel,
  detailsText,
  EMPTY_AUDIT_FILTERS,
  ipText,
  pageCount,
  pageRangeText,
  userOptionLabel,
  type AuditFilterOptions,
  type AuditFilters,
} from './model'

const selectClasses =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 shadow-sm focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500'

/** How long the search box waits after the last key before asking the server. */
const SEARCH_DELAY_MS = 300

function Select({ id, label, value, onChange, children }: { id: string; label: string; value: string; onChange: (value: string) => void; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-gray-700">
        {label}
      </label>
      <select id={id} className={selectClasses} value={value} onChange={(event) => onChange(event.target.value)}>
        {children}
      </select>
    </div>
  )
}

function UserOptions({ options }: { options: AuditFilterOptions | undefined }) {
  return (
    <>
      <option value="">Tous les utilisateurs</option>
      {options?.users.map((user) => (
        <option key={user.user_id} value={user.user_id}>
          {userOptionLabel(user)}
        </option>
      ))}
    </>
  )
}

function ActionOptions({ options }: { options: AuditFilterOptions | undefined }) {
  return (
    <>
      <option value="">Toutes les actions</option>
      {options?.actions.map((action) => (
        <option key={action} value={action}>
          {actionLabel(action)}
        </option>
      ))}
    </>
  )
}

/** SPEC §2 audit page: filters run on the server, 100 events per page, newest first; Filtres and Export work. */
export function AuditPage({ title }: { title: string }) {
  const [filters, setFilters] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS)
  const [searchText, setSearchText] = useState('')
  const [page, setPage] = useState(0)
  const [dialogOpen, setDialogOpen] = useState(false)
  const [draft, setDraft] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS)
  const [exporting, setExporting] = useState<number | null>(null)
  const [exportError, setExportError] = useState<string | null>(null)

  useLiveAudit()
  const events = useAuditPage(filters, page)
  const count = useAuditCount(filters)
  const options = useAuditFilterOptions()

  const applyFilters = (next: AuditFilters) => {
    setFilters(next)
    setPage(0)
  }

  useEffect(() => {
    if (searchText === filters.search) return
    const timer = setTimeout(() => {
      setFilters((current) => ({ ...current, search: searchText }))
      setPage(0)
    }, SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [searchText, filters.search])

  async function exportCsv() {
    setExportError(null)
    setExporting(0)
    try {
      const all = await fetchAllAuditEvents(filters, setExporting)
      downloadCsv(auditFileName(), toCsv(AUDIT_CSV_HEADER, all.map(auditCsvRow)))
    } catch (error) {
      setExportError(error instanceof Error ? error.message : null)
    } finally {
      setExporting(null)
    }
  }

  const total = count.data ?? 0
  const pages = pageCount(total)
  const rows = events.data ?? []
  const hasNext = count.data !== undefined ? page + 1 < pages : rows.length === AUDIT_PAGE_SIZE

  return (
    <div>
      <PageHeader
        title={title}
        description="Journal des actions, du plus récent au plus ancien."
        actions={
          <>
            <Button
              variant="outline"
              leftIcon={<Filter aria-hidden="true" className="h-4 w-4" />}
              onClick={() => {
                setDraft({ ...filters, search: searchText })
                setDialogOpen(true)
              }}
            >
              Filtres
            </Button>
            <Button
              variant="outline"
              leftIcon={<Download aria-hidden="true" className="h-4 w-4" />}
              loading={exporting !== null}
              onClick={() => void exportCsv()}
            >
              {exporting !== null ? `Export en cours… (${exporting} événements)` : 'Exporter CSV'}
            </Button>
          </>
        }
      />

      <div className="mb-4 grid gap-4 md:grid-cols-3">
        <TextInput
          label="Recherche"
          type="search"
          placeholder="Utilisateur, action, ressource, détails…"
          icon={<Search className="h-4 w-4" />}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
        <Select id="audit-user" label="Utilisateur" value={filters.userId} onChange={(userId) => applyFilters({ ...filters, userId })}>
          <UserOptions options={options.data} />
        </Select>
        <Select id="audit-action" label="Action" value={filters.action} onChange={(action) => applyFilters({ ...filters, action })}>
          <ActionOptions options={options.data} />
        </Select>
      </div>

      {exportError !== null && <ErrorBox className="mb-4" title="L'export a échoué" message={exportError} />}

      <p className="mb-2 text-sm text-gray-700" aria-live="polite" data-testid="audit-count">
        {count.data === undefined ? 'Comptage…' : `${total} événement${total > 1 ? 's' : ''}`}
      </p>

      {events.isPending ? (
        <Spinner />
      ) : events.isError ? (
        <ErrorBox message={events.error.message} />
      ) : (
        <Card aria-busy={events.isFetching || undefined}>
          <Table caption="Journal d'audit">
            <TableHead>
              <tr>
                <TableHeaderCell>Date</TableHeaderCell>
                <TableHeaderCell>Utilisateur</TableHeaderCell>
                <TableHeaderCell>Action</TableHeaderCell>
                <TableHeaderCell>Type de ressource</TableHeaderCell>
                <TableHeaderCell>Identifiant</TableHeaderCell>
                <TableHeaderCell>Détails</TableHeaderCell>
                <TableHeaderCell>Adresse IP</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {rows.length === 0 ? (
                <TableEmptyRow colSpan={7} message="Aucun événement ne correspond aux filtres." />
              ) : (
                rows.map((event) => (
                  <TableRow key={event.id}>
                    <TableCell className="whitespace-nowrap">{formatDateTime(event.timestamp)}</TableCell>
                    <TableCell>
                      <p>{auditUserLabel(event)}</p>
                      {event.user_email && event.user_name && <p className="text-xs text-gray-500">{event.user_email}</p>}
                    </TableCell>
                    <TableCell>{actionLabel(event.action)}</TableCell>
                    <TableCell>{event.resource_type}</TableCell>
                    <TableCell className="max-w-40 break-all font-mono text-xs">{event.resource_id ?? '-'}</TableCell>
                    <TableCell>
                      <pre className="max-h-40 max-w-md overflow-auto whitespace-pre-wrap break-all rounded bg-gray-50 p-2 text-xs">
                        {detailsText(event.details)}
                      </pre>
                    </TableCell>
                    <TableCell>{ipText(event.ip_address)}</TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
          <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-2 border-t border-gray-100 px-4 py-3">
            <span className="text-sm text-gray-600">
              {count.data === undefined ? '' : pageRangeText(page, rows.length, total)} · Page {page + 1} sur {pages}
            </span>
            <div className="flex gap-2">
              <Button
                size="sm"
                variant="outline"
                leftIcon={<ChevronLeft aria-hidden="true" className="h-4 w-4" />}
                disabled={page === 0}
                onClick={() => setPage((current) => Math.max(0, current - 1))}
              >
                Précédent
              </Button>
              <Button
                size="sm"
                variant="outline"
                rightIcon={<ChevronRight aria-hidden="true" className="h-4 w-4" />}
                disabled={!hasNext || events.isPlaceholderData}
                onClick={() => setPage((current) => current + 1)}
              >
                Suivant
              </Button>
            </div>
          </nav>
        </Card>
      )}

      <Dialog
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        title="Filtres"
        footer={
          <>
            <Button variant="outline" onClick={() => setDraft(EMPTY_AUDIT_FILTERS)}>
              Réinitialiser
            </Button>
            <Button
              disabled={draft.from !== '' && draft.to !== '' && draft.from > draft.to}
              onClick={() => {
                setSearchText(draft.search)
                applyFilters(draft)
                setDialogOpen(false)
              }}
            >
              Appliquer
            </Button>
          </>
        }
      >
        <div className="space-y-4">
          <TextInput label="Recherche dans le journal" type="search" value={draft.search} onChange={(event) => setDraft({ ...draft, search: event.target.value })} />
          <Select id="audit-filter-user" label="Utilisateur du journal" value={draft.userId} onChange={(userId) => setDraft({ ...draft, userId })}>
            <UserOptions options={options.data} />
          </Select>
          <Select id="audit-filter-action" label="Action du journal" value={draft.action} onChange={(action) => setDraft({ ...draft, action })}>
            <ActionOptions options={options.data} />
          </Select>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextInput label="Date de début" type="date" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
            <TextInput label="Date de fin" type="date" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
          </div>
        </div>
      </Dialog>
    </div>
  )
}
