/** The most rows the API returns for one read (PostgREST's max-rows on hosted Supabase and on the local server). */
export const API_PAGE_SIZE = 1000

type PageResult<T> = PromiseLike<{ data: T[] | null; error: { message: string } | null }>

/**
 * Every row of an ordered read, page by page, since one read stops at 1000 rows. `page` must order on a unique key
 * so that pages neither overlap nor skip; `fail` turns an API error into the feature's own thrown error.
 */
export async function readAllPages<T>(
  page: (from: number, to: number) => PageResult<T>,
  fail: (error: { message: string }) => never,
): Promise<T[]> {
  const rows: T[] = []
  for (let from = 0; ; from += API_PAGE_SIZE) {
    const { data, error } = await page(from, from + API_PAGE_SIZE - 1)
    if (error) fail(error)
    rows.push(...(data ?? []))
    if ((data ?? []).length < API_PAGE_SIZE) return rows
  }
}
