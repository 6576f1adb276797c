import { useEffect, useState } from 'react'
import type { PageRequest, PageSize, SortDirection } from './paging'

/** How long the search box waits after the last key before asking the server. */
export const SEARCH_DELAY_MS = 300

/**
 * The state of a list paged, searched and sorted on the server: the request to send and what the controls change.
 * The search box's text reaches the request once typing pauses; any change but the page goes back to the first page,
 * since the page the reader was on means nothing in another order or another search.
 */
export function usePagedList<Sort extends string>(initial: { sort: Sort; direction?: SortDirection; size?: PageSize }) {
  const [request, setRequest] = useState<PageRequest<Sort>>({
    page: 0,
    size: initial.size ?? 50,
    sort: initial.sort,
    direction: initial.direction ?? 'asc',
    search: '',
  })
  const [searchText, setSearchText] = useState('')

  useEffect(() => {
    if (searchText === request.search) return
    const timer = setTimeout(() => setRequest((current) => ({ ...current, search: searchText, page: 0 })), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [searchText, request.search])

  return {
    request,
    searchText,
    setSearchText,
    setPage: (page: number) => setRequest((current) => ({ ...current, page })),
    setSize: (size: PageSize) => setRequest((current) => ({ ...current, size, page: 0 })),
    /** A click on a column's header: sorts on it ascending, or reverses it if it is already the sort. */
    toggleSort: (sort: Sort) =>
      setRequest((current) => ({
        ...current,
        sort,
        direction: current.sort === sort && current.direction === 'asc' ? 'desc' : 'asc',
        page: 0,
      })),
  }
}
