import { mkdir } from 'node:fs/promises'
import axe, { type AxeResults } from 'axe-core'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser, newContext, signIn } from './support/browser'

// Issue 17, points 11 and 6: the RSSI dashboard's trends and a running campaign's burndown, drawn by a chart library
// fetched only when a chart comes into view, each with its sentence and its table; and the bell of admin and rssi.
// Set SCREENSHOTS_DIR to keep screenshots of the charts at 1440 and 375 px.
const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR

let browser: Browser
let context: BrowserContext
let page: Page
/** Paths of the scripts the page fetched. */
let scripts: string[]

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
afterEach(async () => {
  await context?.close()
})

async function open(email: string, path: string, width = 1440, height = 900) {
  context = await newContext(browser)
  page = await context.newPage()
  await signIn(page, email)
  await page.setViewportSize({ width, height })
  scripts = []
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
  })
  await page.goto(path)
}

async function screenshot(name: string) {
  if (!SCREENSHOTS_DIR) return
  await mkdir(SCREENSHOTS_DIR, { recursive: true })
  // From the top, so that the sticky header sits where a reader sees it.
  await page.evaluate(() => window.scrollTo(0, 0))
  await page.screenshot({ path: `${SCREENSHOTS_DIR}/${name}.png`, fullPage: true })
}

/** axe-core over the drawn charts, their sentences and their opened tables: the serious and critical violations. */
async function chartViolations(): Promise<string[]> {
  await page.addScriptTag({ content: axe.source })
  const results = (await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run({ include: [['main']] }, { resultTypes: ['violations'] }),
  )) as AxeResults
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)
}

/** The chart library's chunk, named by Vite after the first recharts module it holds or the file that imports it. */
const chartScripts = () => scripts.filter((path) => /ComposedChart|TrendCharts|BurndownChart/.test(path))

describe('RSSI dashboard trends (issue 17 §11)', () => {
  it.each([1440, 375])('draws compliance over the campaigns and completion per stage, with their text, at %i px', async (width) => {
    const trendCalls: string[] = []
    await open('rssi@example.com', '/app/dashboard', width, 900)
    page.on('request', (request) => {
      if (request.url().includes('/rpc/rssi_trends')) trendCalls.push(request.url())
    })
    await page.getByRole('heading', { name: 'Campagnes actives' }).waitFor()
    await page.waitForLoadState('networkidle')
    // Below the fold, neither the trends' query nor the chart library yet.
    expect(trendCalls).toEqual([])
    expect(chartScripts()).toEqual([])
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    const trend = page.getByRole('figure', { name: /taux de conformité/ })
    await trend.scrollIntoViewIfNeeded()
    await trend.locator('svg.recharts-surface').first().waitFor()
    expect(trendCalls).toHaveLength(1)
    expect(chartScripts().length).toBeGreaterThan(0)
    // One point per campaign of its data table: at least the completed annual review and the running quarter (other
    // journeys sharing the backend may have closed campaigns of their own before this one).
    await trend.getByText('Voir les données').click()
    const points = (await trend.getByRole('table').getByRole('row').count()) - 1
    expect(points).toBeGreaterThanOrEqual(2)
    expect(await trend.locator('.recharts-line-dot').count()).toBe(points)
    const stages = page.getByRole('figure', { name: /par étape/ })
    // Drawn once in view: below the trend's open table on a phone.
    await stages.scrollIntoViewIfNeeded()
    await stages.locator('svg.recharts-surface').first().waitFor()
    await stages.getByText('Voir les données').click()
    await expect.poll(() => page.getByRole('table', { name: 'Avancement des campagnes en cours par étape' }).getByRole('row').count()).toBe(5)
    expect(await chartViolations()).toEqual([])
    // Opened tables scroll in their own region: the page never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    await screenshot(`rssi-tendances-${width}`)
  })

  it('keeps the chart library off a dashboard that draws nothing', async () => {
    await open('admin@example.com', '/app/dashboard')
    await page.locator('main h1').waitFor()
    await page.waitForLoadState('networkidle')
    expect(chartScripts()).toEqual([])
  })
})

describe('Running campaign burndown (issue 17 §11)', () => {
  it.each([1440, 375])('draws decisions per day against the deadline under Campagnes, at %i px', async (width) => {
    await open('admin@example.com', '/app/campaigns', width, 900)
    const figure = page.getByRole('figure', { name: /^Revue T4 2026 — comptes standard : / })
    await figure.waitFor({ state: 'attached' })
    await figure.scrollIntoViewIfNeeded()
    await figure.locator('svg.recharts-surface').first().waitFor()
    expect(await figure.getAttribute('aria-labelledby')).toBeTruthy()
    expect(await page.getByRole('heading', { name: 'Avancement de la campagne en cours' }).isVisible()).toBe(true)
    await figure.getByText('Voir les données').click()
    expect(await chartViolations()).toEqual([])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    await screenshot(`campagne-avancement-${width}`)
  })
})

describe('The bell of admin and rssi (issue 17 §6)', () => {
  it.each(['admin@example.com', 'rssi@example.com'])('gives %s a bell that leads to what waits', async (email) => {
    await open(email, '/app/dashboard')
    const bell = page.getByRole('banner').getByRole('link', { name: /^Notifications : / })
    await bell.waitFor()
    await bell.click()
    await page.waitForURL(/\/app\/(campaigns|notifications)$/)
  })
})
