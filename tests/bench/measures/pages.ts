/** Measure 5: the RSSI's audit page (first page of events) and compliance page, opened directly, until rendered. */
import type { Browser } from 'playwright-core'
import { loadAndTime, newContext, signIn, type PageCondition } from '../support/browser'
import { median, repeat, round } from '../support/stats'

/** The table with this caption has its body (it appears once its data has arrived; an empty table has one row too). */
const tableRows = (caption: string): PageCondition => [
  (arg: string) => {
    const table = [...document.querySelectorAll('table')].find((candidate) => candidate.caption?.textContent?.trim() === arg)
    return table !== undefined && table.querySelector('tbody tr') !== null
  },
  caption,
]

const PAGES: { name: string; path: string; rendered: Record<string, PageCondition> }[] = [
  { name: 'audit', path: '/app/audit', rendered: { events: tableRows("Journal d'audit") } },
  {
    name: 'compliance',
    path: '/app/compliance',
    rendered: { rules: tableRows('Règles de contrôle'), applications: tableRows('Conformité par application') },
  },
]

export interface PageTiming {
  name: string
  path: string
  medianMs: number
  samplesMs: number[]
}

export async function measureRssiPages(browser: Browser, appUrl: string, runs = 3): Promise<PageTiming[]> {
  const context = await newContext(browser, appUrl)
  try {
    const page = await context.newPage()
    await signIn(page, 'rssi@example.com')
    await page.close()
    const results: PageTiming[] = []
    for (const { name, path, rendered } of PAGES) {
      const samples = await repeat(runs, async () => {
        const { page: loaded, marks } = await loadAndTime(context, path, rendered)
        await loaded.close()
        return Math.max(...Object.values(marks))
      })
      results.push({ name, path, medianMs: round(median(samples)), samplesMs: samples.map((value) => round(value)) })
    }
    return results
  } finally {
    await context.close()
  }
}
