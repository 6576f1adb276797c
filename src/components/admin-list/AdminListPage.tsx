import { useEffect, useRef, type ReactNode, type RefObject } from 'react'
import { CheckCircle2 } from 'lucide-react'
import { Card } from '@/components/ui/Card'
import { ErrorBox } from '@/components/ui/ErrorBox'
import { PageHeader } from '@/components/ui/PageHeader'
import { Pager } from '@/components/ui/Pager'
import { SearchField } from '@/components/ui/SearchField'
import { Spinner } from '@/components/ui/Spinner'
import { SortableHeaderCell, Table, TableBody, TableEmptyRow, TableHead, TableHeaderCell, TableRow } from '@/components/ui/Table'
import type { usePagedList } from '@/lib/use-paged-list'

export interface AdminListPageProps<Row extends { id: string }, Sort extends string> {
  title: string
  /** The page's buttons (Nouvelle…, an import). */
  actions?: ReactNode
  /** Failures to show above the list, each in its box; a falsy entry shows nothing. */
  errors: readonly (string | null | undefined | false)[]
  /** What the last action did, said once above the list (role status). */
  notice?: string | null
  list: ReturnType<typeof usePagedList<Sort>>
  search: { label: string; help: string }
  /** Controls beside the search field (a filter), which then share its line. */
  filters?: ReactNode
  caption: string
  /** The sortable columns, in order: the sort key and its heading. */
  columns: readonly (readonly [Sort, string])[]
  /** The Actions column's heading, or null when the reader has no action on a row. */
  actionsHeader: { className?: string } | null
  /** The page of rows, undefined until the first answer. */
  page: { rows: readonly Row[]; total: number } | undefined
  pending: boolean
  empty: { none: string; noMatch: string }
  /** The row a link points to: highlighted and marked as current. */
  highlightedId?: string | null
  listRef?: RefObject<HTMLDivElement | null>
  /** The cells of one row, Actions included. */
  cells: (row: Row) => ReactNode
  pager: { singular: string; several: string }
  /** The dialogs the page opens (form, confirmation). */
  children?: ReactNode
}

/** An administration list (SPEC §2 Users, Applications, Contrôles): searched, sorted and paged on the server. */
export function AdminListPage<Row extends { id: string }, Sort extends string>({
  title,
  actions,
  errors,
  notice,
  list,
  search,
  filters,
  caption,
  columns,
  actionsHeader,
  page,
  pending,
  empty,
  highlightedId,
  listRef,
  cells,
  pager,
  children,
}: AdminListPageProps<Row, Sort>) {
  const searchField = (
    <SearchField
      label={search.label}
      help={search.help}
      value={list.searchText}
      onChange={list.setSearchText}
      className={filters ? 'w-full max-w-md' : 'mb-4 max-w-md'}
    />
  )
  const columnCount = columns.length + (actionsHeader ? 1 : 0)
  return (
    <div>
      <PageHeader title={title} actions={actions} />
      {errors.map((message, index) => message && <ErrorBox key={index} message={message} className="mb-4" />)}
      {notice && <Notice message={notice} />}
      {filters ? (
        <div className="mb-4 flex flex-wrap items-start gap-4">
          {searchField}
          {filters}
        </div>
      ) : (
        searchField
      )}
      <Card>
        <div ref={listRef}>
          {pending ? (
            <div className="flex justify-center p-8">
              <Spinner />
            </div>
          ) : (
            <Table caption={caption}>
              <TableHead>
                <tr>
                  {columns.map(([column, label]) => (
                    <SortableHeaderCell key={column} label={label} column={column} sort={list.request.sort} direction={list.request.direction} onSort={list.toggleSort} />
                  ))}
                  {actionsHeader && <TableHeaderCell className={actionsHeader.className}>Actions</TableHeaderCell>}
                </tr>
              </TableHead>
              <TableBody>
                {page?.rows.length === 0 && (
                  <TableEmptyRow colSpan={columnCount} message={list.request.search.trim() ? empty.noMatch : empty.none} />
                )}
                {page?.rows.map((row) => (
                  <TableRow
                    key={row.id}
                    aria-current={row.id === highlightedId ? 'true' : undefined}
                    className={row.id === highlightedId ? 'bg-primary-50' : undefined}
                  >
                    {cells(row)}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </div>
        <Pager
          page={list.request.page}
          size={list.request.size}
          total={page?.total}
          singular={pager.singular}
          several={pager.several}
          onPage={list.setPage}
          onSize={list.setSize}
        />
      </Card>
      {children}
    </div>
  )
}

/** What an action did, brought into view: the admin who acted may be scrolled far down the list. */
function Notice({ message }: { message: string }) {
  const ref = useRef<HTMLParagraphElement>(null)
  useEffect(() => ref.current?.scrollIntoView?.({ block: 'center' }), [message])
  return (
    <p ref={ref} role="status" className="mb-4 flex items-center gap-2 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900">
      <CheckCircle2 aria-hidden="true" className="h-4 w-4 shrink-0" />
      {message}
    </p>
  )
}
