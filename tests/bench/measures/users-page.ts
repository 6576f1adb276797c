/**
 * The Users page at the organisation's size: the first rows of /app/users reached from the menu by an
 * administrator (as Mes revues is timed: the list's own cost, the app already loaded) and a search typed into it, each
 * until its rows are on screen; the page opened directly is timed for information.
 */
import type { Browser, Page } from 'playwright-core'
import type { Api } from '../support/api'
import { clickAndTime, loadAndTime, newContext, recordRequests, signIn, type PageCondition, type RequestTiming } from '../support/browser'
import { median, repeat, round } from '../support/stats'

export interface UsersPageResult {
  people: number
  /** The menu link's click to the first rows of the table. */
  firstRowsMs: number
  firstRowsSamplesMs: number[]
  /** Navigation start of /app/users opened directly (the app loaded, the session restored) to its first rows. */
  directLoadMs: number
  /** The search's request leaving the browser (typing has paused) to its rows on screen. */
  searchMs: number
  searchSamplesMs: number[]
  search: string
  searchTotal: string
  /** The requests of the last menu-link run, from the click: where the first rows' time goes. */
  waterfall: RequestTiming[]
}

/** The users table has a body row with an e-mail cell (a first page, not the spinner nor the empty row). */
const firstRows: PageCondition = [
  (caption: string) => {
    const table = [...document.querySelectorAll('table')].find((candidate) => candidate.caption?.textContent?.trim() === caption)
    return (table?.querySelectorAll('tbody tr td').length ?? 0) > 1
  },
  'Utilisateurs',
]

/**
 * Types `search` into the page's search box and returns the milliseconds from the search's request leaving the
 * browser (the box waits for typing to pause before asking) to its first row on screen, and the pager's text then.
 */
async function timeSearch(page: Page, search: string): Promise<{ ms: number; total: string }> {
  const box = page.getByRole('searchbox', { name: 'Rechercher un utilisateur' })
  await box.fill('')
  await page.evaluate(() => performance.clearResourceTimings())
  const shown = page.evaluate(
    (needle) =>
      new Promise<number>((resolve) => {
        const check = () => {
          const cell = document.querySelector('table tbody tr td')
          if (cell?.textContent?.toLowerCase().includes(needle)) {
            observer.disconnect()
            resolve(performance.now())
          }
        }
        const observer = new MutationObserver(check)
        observer.observe(document.body, { subtree: true, childList: true, characterData: true })
      }),
    search.toLowerCase(),
  )
  await box.fill(search)
  const shownAt = await shown
  const sentAt = await page.evaluate(() => {
    const reads = performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/rest/v1/users') && entry.name.includes('or='))
    return reads.at(-1)?.startTime ?? Number.NaN
  })
  return { ms: shownAt - sentAt, total: (await page.getByRole('status').filter({ hasText: ' sur ' }).textContent()) ?? '' }
}

export async function measureUsersPage(browser: Browser, appUrl: string, service: Api, runs = 3): Promise<UsersPageResult> {
  const people = (await service.from('users').select('id', { count: 'exact', head: true })).count ?? 0
  // A last name from the middle of the directory, as an administrator would look someone up.
  const { data } = await service.from('users').select('last_name').order('email').range(Math.floor(people / 2), Math.floor(people / 2))
  const search = data?.[0]?.last_name
  if (!search) throw new Error('No one to search for in the directory')
  const context = await newContext(browser, appUrl)
  try {
    const page = await context.newPage()
    await signIn(page, 'admin@example.com')
    const searches: { ms: number; total: string }[] = []
    let waterfall: RequestTiming[] = []
    const firstRowsSamples = await repeat(runs, async (run) => {
      // A reload empties the query cache, so the list is fetched again.
      await page.goto('/app/dashboard')
      await page.getByRole('navigation', { name: 'Menu principal' }).waitFor()
      // The dashboard's own chunks and queries done, so that the click times the list alone.
      await page.waitForLoadState('networkidle')
      const requests = recordRequests(page)
      const marks = await clickAndTime(page, 'nav[aria-label="Menu principal"] a[href="/app/users"]', { firstRows })
      waterfall = requests()
      const searched = await timeSearch(page, search)
      // The warm-up run (-1) is left out, as repeat leaves it out of the click samples.
      if (run >= 0) searches.push(searched)
      return marks.firstRows!
    })
    await page.close()
    const directLoadSamples = await repeat(runs, async () => {
      const { page: loaded, marks } = await loadAndTime(context, '/app/users', { firstRows })
      await loaded.close()
      return marks.firstRows!
    })
    const searchSamples = searches.map((one) => one.ms)
    return {
      people,
      firstRowsMs: round(median(firstRowsSamples)),
      firstRowsSamplesMs: firstRowsSamples.map((value) => round(value)),
      directLoadMs: round(median(directLoadSamples)),
      searchMs: round(median(searchSamples)),
      searchSamplesMs: searchSamples.map((value) => round(value)),
      search,
      searchTotal: searches.at(-1)?.total ?? '',
      waterfall,
    }
  } finally {
    await context.close()
  }
}
