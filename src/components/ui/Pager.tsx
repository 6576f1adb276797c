import { ChevronLeft, ChevronRight } from 'lucide-react'
import { useEffect, useId } from 'react'
import { PAGE_SIZES, pageText, type PageSize } from '@/lib/paging'
import { Button } from './Button'

interface PagerProps {
  page: number
  size: PageSize
  /** Rows of the whole (searched) list; undefined until the first answer. */
  total: number | undefined
  /** The noun of the list's rows, agreed with the total: « utilisateur », « utilisateurs ». */
  singular: string
  several: string
  onPage: (page: number) => void
  onSize: (size: PageSize) => void
}

/** Under a server-paged table: where the page stands in the list, its size and the way to the others. */
export function Pager({ page, size, total, singular, several, onPage, onSize }: PagerProps) {
  const sizeId = useId()
  const lastPage = total === undefined ? 0 : Math.max(0, Math.ceil(total / size) - 1)
  // The list shrank under the reader (the last row of the last page deleted): back to the page that is now the last.
  useEffect(() => {
    if (total !== undefined && page > lastPage) onPage(lastPage)
  }, [total, page, lastPage, onPage])
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 border-t border-gray-200 px-4 py-3 text-sm text-gray-700">
      {/* Announced when a search or a page changes what the list holds. */}
      <p role="status">{total === undefined ? '' : pageText({ page, size }, total, singular, several)}</p>
      <div className="flex items-center gap-3">
        <label htmlFor={sizeId}>Lignes par page</label>
        <select
          id={sizeId}
          value={size}
          onChange={(event) => onSize(Number(event.target.value) as PageSize)}
          className="rounded-md border border-gray-300 bg-white px-2 py-1 text-sm focus:border-primary-500 focus:outline-none focus:ring-2 focus:ring-primary-500"
        >
          {PAGE_SIZES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
        <Button variant="secondary" size="sm" aria-label="Page précédente" disabled={page === 0} onClick={() => onPage(page - 1)}>
          <ChevronLeft aria-hidden="true" className="h-4 w-4" />
        </Button>
        <Button variant="secondary" size="sm" aria-label="Page suivante" disabled={page >= lastPage} onClick={() => onPage(page + 1)}>
          <ChevronRight aria-hidden="true" className="h-4 w-4" />
        </Button>
      </div>
    </div>
  )
}
