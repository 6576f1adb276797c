/** Measure 1: from the login form's submit to the RSSI dashboard with its four counters showing figures. */
import type { Browser, Locator, Page } from 'playwright-core'
import { clickAndTime, fillLogin, fillSecondFactor, newContext, recordRequests, signIn, textMatches, type PageCondition, type RequestTiming } from '../support/browser'
import { median, repeat, round } from '../support/stats'

const counter = (label: string) => `[data-testid="counter-${label}"]`

export const RSSI_DASHBOARD_RENDERED: Record<string, PageCondition> = {
  rate: textMatches(counter('Taux de conformité'), '^(\\d+([.,]\\d+)?\\s?%|-)$'),
  atRisk: textMatches(counter('Comptes à risque'), '^\\d[\\d\\s\u202f]*$'),
  inProgress: textMatches(counter('Revues en cours'), '^\\d[\\d\\s\u202f]*$'),
  completed: textMatches(counter('Revues complétées'), '^\\d[\\d\\s\u202f]*$'),
}

export interface SignInResult {
  samplesMs: number[]
  medianMs: number
  /** The requests of the last sample, from the submit, for reading where the time goes. */
  waterfall: RequestTiming[]
}

export async function measureRssiSignIn(browser: Browser, appUrl: string, runs = 3): Promise<SignInResult> {
  let waterfall: RequestTiming[] = []
  const samples = await repeat(runs, async () => {
    const context = await newContext(browser, appUrl)
    try {
      const page = await context.newPage()
      await page.goto('/login')
      await fillLogin(page, 'rssi@example.com')
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
      // Timed from the last click the RSSI makes, the second factor's Vérifier, to the dashboard's figures.
      await fillSecondFactor(page, 'rssi@example.com')
      const requests = recordRequests(page)
      const marks = await clickAndTime(page, 'form button[type="submit"]', RSSI_DASHBOARD_RENDERED)
      waterfall = requests()
      return Math.max(...Object.values(marks))
    } finally {
      await context.close()
    }
  })
  return { samplesMs: samples.map((value) => round(value)), medianMs: round(median(samples)), waterfall }
}

const COUNTERS = ['Taux de conformité', 'Comptes à risque', 'Revues en cours', 'Revues complétées']

/**
 * The figures of the filtered dashboard are on screen: the Filtres button counts the applied filters, no busy block
 * holds the counters (the previous figures stay there, marked aria-busy, while the filtered ones load) and the
 * counters show numbers. The trends below have their own busy block: `withTrends` waits for it too.
 */
const filteredFigures = (filterCount: number, withTrends: boolean): PageCondition => [
  (arg: string) => {
    const [count, selectors, trends] = JSON.parse(arg) as [number, string[], boolean]
    if (![...document.querySelectorAll('button')].some((button) => button.innerText.trim() === `Filtres (${count})`)) return false
    const counters = selectors.map((selector) => document.querySelector<HTMLElement>(selector))
    const busy = [...document.querySelectorAll('[aria-busy="true"]')]
    if (busy.some((block) => trends || counters.some((counter) => counter !== null && block.contains(counter)))) return false
    return counters.every((counter) => counter !== null && /^(\d[\d\s\u202f]*([.,]\d+)?\s?%?|-)$/.test(counter.innerText.trim()))
  },
  JSON.stringify([filterCount, COUNTERS.map(counter), withTrends]),
]


export interface FilterResult {
  /** From Appliquer with the « Standard » account type chosen to its figures on screen (median). */
  accountTypeMs: number
  /** Then, from Appliquer with an application added to that filter to its figures on screen (median). */
  applicationMs: number
  /** The same two, until the trends are drawn as well (medians). */
  withTrendsMs: { accountType: number; application: number }
  application: string
  samples: { accountTypeMs: number; applicationMs: number }[]
  /** The slower of the two medians: what the budget reads. */
  medianMs: number
  waterfall: RequestTiming[]
}

/**
 * The RSSI, on a dashboard already showing its figures, opens Filtres, chooses a filter and clicks Appliquer;
 * timed until the filtered figures are on screen. Each sample is a new page, so that nothing is answered from the
 * app's cache: first the « Standard » account type, then the first application of the list on top of it.
 */
export async function measureRssiFilter(browser: Browser, appUrl: string, runs = 3): Promise<FilterResult> {
  let waterfall: RequestTiming[] = []
  let application = ''
  const applyFilter = async (page: Page, choose: (dialog: Locator) => Promise<void>, filterCount: number) => {
    await page.getByRole('button', { name: /^Filtres/ }).click()
    const dialog = page.getByRole('dialog', { name: 'Filtres' })
    await choose(dialog)
    // clickAndTime clicks from inside the page, by selector: the button is marked for it.
    await dialog.getByRole('button', { name: 'Appliquer', exact: true }).evaluate((button) => button.setAttribute('data-bench', 'apply'))
    return clickAndTime(page, '[data-bench="apply"]', { figures: filteredFigures(filterCount, false), withTrends: filteredFigures(filterCount, true) })
  }
  const samples = await repeat(runs, async () => {
    const context = await newContext(browser, appUrl)
    try {
      const page = await context.newPage()
      await signIn(page, 'rssi@example.com')
      await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null && /\d/.test(document.querySelector<HTMLElement>('[data-testid="counter-Revues en cours"]')?.innerText ?? ''), undefined, { timeout: 120_000 })
      const requests = recordRequests(page)
      const accountType = await applyFilter(page, (dialog) => dialog.getByLabel('Type de compte').selectOption('standard').then(() => undefined), 1)
      const byApplication = await applyFilter(
        page,
        async (dialog) => {
          const select = dialog.getByLabel('Application', { exact: true })
          // The first application in the list's order: the same one at every sample.
          const [value] = await select.selectOption({ index: 1 })
          application = (await select.locator(`option[value="${value}"]`).innerText()).trim()
        },
        2,
      )
      waterfall = requests()
      return { accountTypeMs: accountType.figures!, applicationMs: byApplication.figures!, accountTypeTrendsMs: accountType.withTrends!, applicationTrendsMs: byApplication.withTrends! }
    } finally {
      await context.close()
    }
  })
  const medianOf = (pick: (sample: (typeof samples)[number]) => number) => round(median(samples.map(pick)))
  const accountTypeMs = medianOf((sample) => sample.accountTypeMs)
  const applicationMs = medianOf((sample) => sample.applicationMs)
  return {
    accountTypeMs,
    applicationMs,
    withTrendsMs: { accountType: medianOf((sample) => sample.accountTypeTrendsMs), application: medianOf((sample) => sample.applicationTrendsMs) },
    application,
    samples: samples.map((sample) => ({ accountTypeMs: round(sample.accountTypeMs), applicationMs: round(sample.applicationMs) })),
    medianMs: Math.max(accountTypeMs, applicationMs),
    waterfall,
  }
}
