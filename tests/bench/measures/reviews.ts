/** Measure 2: Mes revues for a reviewer with a large queue: first rows on screen, then every item loaded. */
import type { Browser } from 'playwright-core'
import type { Api } from '../support/api'
import { clickAndTime, loadAndTime, newContext, recordRequests, signIn, type PageCondition, type RequestTiming } from '../support/browser'
import { median, repeat, round } from '../support/stats'

const ROWS_PER_PAGE = 50

const FIRST_ROWS: PageCondition = [
  () => {
    const table = [...document.querySelectorAll('table')].find((candidate) => candidate.caption?.textContent?.includes('Droits en attente de ma décision'))
    const box = table?.querySelector<HTMLElement>('tbody input[type="checkbox"]')
    return box !== undefined && box !== null && box.getClientRects().length > 0
  },
  '',
]

/** Every item is in the page: the pagination says so, or (one page) every row is there. */
function allLoaded(count: number): PageCondition {
  return [
    (arg: string) => {
      const [expected, perPage] = JSON.parse(arg) as [number, number]
      // The queue may arrive page by page; the spinner of the rest is gone once it is all there.
      if (document.body.innerText.includes('Chargement de la suite')) return false
      if (expected > perPage) {
        const nav = document.querySelector<HTMLElement>('nav[aria-label="Pagination des revues"]')
        // The total is written « 1 513 droits », grouped by a narrow no-break space (src/domain/plural.ts).
        return nav !== null && nav.innerText.replace(/\s/g, '').includes(`—${expected}droit`)
      }
      return document.querySelectorAll('tbody input[type="checkbox"]').length >= expected
    },
    JSON.stringify([count, ROWS_PER_PAGE]),
  ]
}

export interface ReviewsResult {
  email: string
  queueCount: number
  /** In-app navigation (menu link) from the dashboard: the list's own cost, the app already loaded. */
  navigation: { firstRowsMs: number; allLoadedMs: number; samples: { firstRowsMs: number; allLoadedMs: number }[] }
  /** Opening /app/reviews directly (reload): app start, session, then the list. */
  fullLoad: { firstRowsMs: number; allLoadedMs: number; samples: { firstRowsMs: number; allLoadedMs: number }[] }
  /** The requests of the last menu-link sample, from the click. */
  waterfall: RequestTiming[]
}

const summarize = (samples: { firstRowsMs: number; allLoadedMs: number }[]) => ({
  firstRowsMs: round(median(samples.map((sample) => sample.firstRowsMs))),
  allLoadedMs: round(median(samples.map((sample) => sample.allLoadedMs))),
  samples: samples.map((sample) => ({ firstRowsMs: round(sample.firstRowsMs), allLoadedMs: round(sample.allLoadedMs) })),
})

export async function measureReviews(browser: Browser, appUrl: string, email: string, queueCount: number, runs = 3): Promise<ReviewsResult> {
  const context = await newContext(browser, appUrl)
  try {
    const page = await context.newPage()
    await signIn(page, email)
    const conditions = { firstRowsMs: FIRST_ROWS, allLoadedMs: allLoaded(queueCount) }
    let waterfall: RequestTiming[] = []
    const navigation = await repeat(runs, async () => {
      // A reload empties the query cache, so the queue is fetched again.
      await page.goto('/app/dashboard')
      await page.getByRole('navigation', { name: 'Menu principal' }).waitFor()
      // The dashboard's own chunks and queries done, so that the click times the list alone.
      await page.waitForLoadState('networkidle')
      const requests = recordRequests(page)
      const marks = await clickAndTime(page, 'nav[aria-label="Menu principal"] a[href="/app/reviews"]', conditions)
      waterfall = requests()
      return { firstRowsMs: marks.firstRowsMs!, allLoadedMs: marks.allLoadedMs! }
    })
    await page.close()
    const fullLoad = await repeat(runs, async () => {
      const { page: loaded, marks } = await loadAndTime(context, '/app/reviews', conditions)
      await loaded.close()
      return { firstRowsMs: marks.firstRowsMs!, allLoadedMs: marks.allLoadedMs! }
    })
    return { email, queueCount, navigation: summarize(navigation), fullLoad: summarize(fullLoad), waterfall }
  } finally {
    await context.close()
  }
}

/** The queue's RPC alone, from Node (median of 3 after a warm-up): the server's share of the times above. */
export async function measureQueueRpc(manager: Api): Promise<{ first100Ms: number; first1000Ms: number; countMs: number }> {
  const timed = async (call: () => PromiseLike<{ error: { message: string } | null }>) => {
    const samples = await repeat(3, async () => {
      const started = performance.now()
      const { error } = await call()
      if (error) throw new Error(error.message)
      return performance.now() - started
    })
    return round(median(samples), 1)
  }
  return {
    first100Ms: await timed(() => manager.rpc('review_queue', { p_limit: 100 })),
    first1000Ms: await timed(() => manager.rpc('review_queue', { p_limit: 1000 })),
    countMs: await timed(() => manager.rpc('review_queue_count', {})),
  }
}
