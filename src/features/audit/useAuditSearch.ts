import { useEffect, useState } from 'react'
import { EMPTY_AUDIT_FILTERS, type AuditFilters } from './model'

/** How long the search box waits after the last key before asking the server. */
const SEARCH_DELAY_MS = 300

/**
 * The audit page's filters and page. The search box's text reaches the filters once typing pauses; any other
 * change of filter goes back to the first page at once.
 */
export function useAuditSearch() {
  const [filters, setFilters] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS)
  const [searchText, setSearchText] = useState('')
  const [page, setPage] = useState(0)

  useEffect(() => {
    if (searchText === filters.search) return
    const timer = setTimeout(() => {
      setFilters((current) => ({ ...current, search: searchText }))
      setPage(0)
    }, SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [searchText, filters.search])

  const applyFilters = (next: AuditFilters) => {
    setFilters(next)
    setPage(0)
  }

  return {
    filters,
    searchText,
    setSearchText,
    page,
    previousPage: () => setPage((current) => Math.max(0, current - 1)),
    nextPage: () => setPage((current) => current + 1),
    applyFilters,
    /** The filters dialog sets every filter, the search box's text included. */
    applyAll: (next: AuditFilters) => {
      setSearchText(next.search)
      applyFilters(next)
    },
  }
}
