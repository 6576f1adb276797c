import { throwApiError, type ApiFailure } from './api-error'
import { countText } from './plural'

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
