import { throwApiError, type ApiFailure } from './api-error'
import { countText } from '@/domain/plural'

/** The most rows the API returns for one read (PostgREST's max-rows on hosted Supabase and on the local server). */
export const API_PAGE_SIZE = 1000

type PageResult<T> = PromiseLike<{ data: T[] | null; error: ApiFailure | null }>

/**
 * Every row of an ordered read, page by page, since one read stops at 1000 rows. `page` must order on a unique key
 * so that pages neither overlap nor skip; an API error is thrown as the screens show it, unless `fail` says otherwise.
 */
export async function readAllPages<T>(
  page: (from: number, to: number) => PageResult<T>,
  fail: (error: ApiFailure) => never = throwApiError,
): Promise<T[]> {
  const rows: T[] = []
  for (let from = 0; ; from += API_PAGE_SIZE) {
    const { data, error } = await page(from, from + API_PAGE_SIZE - 1)
    if (error) fail(error)
    rows.push(...(data ?? []))
    if ((data ?? []).length < API_PAGE_SIZE) return rows
  }
}

/** A list's total in French, « 1 500 utilisateurs », so that a long list read in full says how long it is. */
export const totalText = countText

/** The page sizes a server-paged list offers. */
export const PAGE_SIZES = [25, 50, 100] as const
export type PageSize = (typeof PAGE_SIZES)[number]
export type SortDirection = 'asc' | 'desc'

/** One page of a list paged, searched and sorted on the server; `page` counts from 0. */
export interface PageRequest<Sort extends string> {
  page: number
  size: PageSize
  sort: Sort
  direction: SortDirection
  /** As typed; blank for no search. */
  search: string
}

/** The rows of one page and how many rows the whole (searched) list has. */
export interface Page<T> {
  rows: T[]
  total: number
}

/** The inclusive row range of a page, as `.range()` takes it. */
export function pageRange(request: Pick<PageRequest<string>, 'page' | 'size'>): [number, number] {
  const from = request.page * request.size
  return [from, from + request.size - 1]
}

/** What a page read needs of a supabase-js query: a filter, an order and a range, each giving the query back. */
interface PageableQuery<Self> {
  or(filters: string): Self
  order(column: string, options?: { ascending?: boolean; nullsFirst?: boolean }): Self
  range(from: number, to: number): Self
}

/**
 * A list read narrowed to the request's page: the rows where every word of the search is in one of `columns.search`,
 * ordered on the sort's `columns.sort` with empty cells last whichever the direction, so that the filled ones lead,
 * then on the id, so that pages neither overlap nor skip.
 */
export function narrowToPage<Query extends PageableQuery<Query>>(
  query: Query,
  request: PageRequest<string>,
  columns: { search: readonly string[]; sort: readonly string[] },
): Query {
  const search = searchFilter(request.search, columns.search)
  let narrowed = search ? query.or(search) : query
  for (const column of columns.sort) narrowed = narrowed.order(column, { ascending: request.direction === 'asc', nullsFirst: false })
  return narrowed.order('id').range(...pageRange(request))
}

/**
 * A word of a search as a quoted ILIKE value of a PostgREST logic tree. The user's `%`, `_` and `\` are escaped so that
 * they match themselves; `*` cannot be (PostgREST turns every `*` of a pattern into `%`), so it matches any one
 * character, itself included. The quotes keep `,`, `(` and `)` from ending the value.
 */
function ilikeValue(word: string): string {
  const pattern = `%${word.replace(/[\\%_]/g, (char) => `\\${char}`).replaceAll('*', '_')}%`
  return `"${pattern.replace(/["\\]/g, (char) => `\\${char}`)}"`
}

/**
 * The `.or()` filter that keeps the rows where every word of `search` appears in one of `columns` (case-insensitive),
 * or null for a blank search. Each word on its own, so that « jean dupont » finds Jean Dupont.
 */
export function searchFilter(search: string, columns: readonly string[]): string | null {
  const words = search.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return null
  const anyColumn = (word: string) => columns.map((column) => `${column}.ilike.${ilikeValue(word)}`).join(',')
  if (words.length === 1) return anyColumn(words[0]!)
  return `and(${words.map((word) => `or(${anyColumn(word)})`).join(',')})`
}

const numberFr = new Intl.NumberFormat('fr-FR')

/** Where a page stands in its list: « 1–50 sur 10 000 utilisateurs », or « 0 utilisateur » when there is none. */
export function pageText(request: Pick<PageRequest<string>, 'page' | 'size'>, total: number, singular: string, several: string): string {
  if (total === 0) return countText(0, singular, several)
  const [from, to] = pageRange(request)
  return `${numberFr.format(from + 1)}–${numberFr.format(Math.min(to + 1, total))} sur ${countText(total, singular, several)}`
}
