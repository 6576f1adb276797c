import { mkdir } from 'node:fs/promises'
import axe, { type AxeResults } from 'axe-core'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser, newContext, signIn } from './support/browser'
import { serviceClient, signedInClient } from './support/api'

// The RSSI dashboard's trends and a running campaign's burndown, drawn by a chart library
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

describe('RSSI dashboard trends', () => {
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
    // One point per campaign of its data table, the campaigns of the period (Mois): at least the running quarter, never
    // the annual review closed in 2025 (other journeys sharing the backend may have closed campaigns of their own).
    await trend.getByText('Voir les données').click()
    const trendRows = trend.getByRole('table').getByRole('row')
    const points = (await trendRows.count()) - 1
    expect(points).toBeGreaterThanOrEqual(1)
    expect(await trendRows.allTextContents()).not.toContainEqual(expect.stringContaining('Revue annuelle 2025'))
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

  it('follows the period buttons: one bar and one row per day of the chosen window', async () => {
    await open('rssi@example.com', '/app/dashboard')
    await page.getByRole('heading', { name: 'Campagnes actives' }).waitFor()
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    const decisions = page.getByRole('figure', { name: /^(\d[\d\u202f]* décisions? |Aucune décision )sur la période/ })
    await decisions.scrollIntoViewIfNeeded()
    await decisions.locator('svg.recharts-surface').first().waitFor()
    await decisions.getByText('Voir les données').click()
    const days = () => decisions.getByRole('table').getByRole('row').count()
    // Mois: from the same day last month to today, both included.
    expect(await days()).toBeGreaterThanOrEqual(29)
    await page.getByRole('group', { name: 'Période' }).getByRole('button', { name: 'Semaine' }).click()
    await expect.poll(days).toBe(1 + 8)
    expect(await page.getByText(/^Sur la période \(du .* au .*\) : validations et refus de chaque jour/).textContent()).toContain(
      (await page.getByTestId('period-dates').textContent())?.toLowerCase(),
    )
    await page.getByRole('group', { name: 'Période' }).getByRole('button', { name: 'Trimestre' }).click()
    await expect.poll(days).toBeGreaterThanOrEqual(1 + 90)
  })

  it('keeps the chart library off a dashboard that draws nothing', async () => {
    await open('admin@example.com', '/app/dashboard')
    await page.locator('main h1').waitFor()
    await page.waitForLoadState('networkidle')
    expect(chartScripts()).toEqual([])
  })
})

describe('Running campaign burndown', () => {
  it.each([1440, 375])('draws decisions per day against the deadline under Campagnes, at %i px', async (width) => {
    await open('admin@example.com', '/app/campaigns', width, 900)
    const figure = page.getByRole('figure', { name: /^Revue T4 2026 — comptes standard : / })
    await figure.waitFor({ state: 'attached' })
    // Drawn without being scrolled to: below the fold on a phone, it is no empty frame in a capture or a printout.
    if (width === 375) {
      expect((await figure.boundingBox())?.y).toBeGreaterThan(900)
      await figure.locator('svg.recharts-surface').first().waitFor()
      expect(await page.evaluate(() => window.scrollY)).toBe(0)
    }
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

describe('The bell of admin and rssi', () => {
  it.each(['admin@example.com', 'rssi@example.com'])('gives %s a bell that leads to what waits', async (email) => {
    await open(email, '/app/dashboard')
    const bell = page.getByRole('banner').getByRole('link', { name: /^Notifications : / })
    await bell.waitFor()
    await bell.click()
    await page.waitForURL(/\/app\/(campaigns|notifications)$/)
  })
})

describe('RSSI dashboard trends under an application filter', () => {
  interface Trends {
    campaigns: { name: string; validation_rate: number | null; at_risk_items: number; total_items: number }[]
    days: { day: string; approved: number; refused: number }[]
    stages: { decided: number; waiting: number }[]
  }
  const TABLES = {
    campaigns: 'Évolution de la conformité par campagne',
    stages: 'Avancement des campagnes en cours par étape',
    days: 'Décisions par jour sur la période',
  } as const

  /** What each table shows of the trends: the figures, not the dates' wording, which other tests check. */
  const shown = (trends: Trends) => ({
    campaigns: trends.campaigns.map((point) => [
      point.name,
      point.validation_rate === null ? '-' : `${point.validation_rate}%`,
      String(point.at_risk_items),
      String(point.total_items),
    ]),
    stages: trends.stages.map((stage) => [String(stage.decided), String(stage.waiting)]),
    days: trends.days.map((day) => [String(day.approved), String(day.refused)]),
  })

  /** The same, read from the three tables behind « Voir les données ». */
  async function tablesOnScreen() {
    const read = (caption: string) =>
      page
        .getByRole('table', { name: caption })
        .evaluate((table: HTMLTableElement) => [...(table.tBodies[0]?.rows ?? [])].map((row) => [...row.cells].map((cell) => cell.textContent?.trim() ?? '')))
    const [campaigns, stages, days] = await Promise.all([read(TABLES.campaigns), read(TABLES.stages), read(TABLES.days)])
    return {
      campaigns: campaigns.map(([name, , rate, atRisk, total]) => [name, rate, atRisk, total]),
      stages: stages.map(([, decided, waiting]) => [decided, waiting]),
      days: days.map(([, approved, refused]) => [approved, refused]),
    }
  }

  /** aaaa-mm-jj of an instant in Paris, the time zone the dashboard counts its days in. */
  const parisDay = (instant: string) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant))

  it('shows the chosen application’s decisions, compliance and stages in the trend tables, as Postgres counts them', async () => {
    const rssi = await signedInClient('rssi@example.com')
    const trendsOf = async (args: { p_from?: string; p_to?: string; p_application_id?: string }) => {
      const { data, error } = await rssi.rpc('rssi_trends', args)
      if (error) throw error
      return data as unknown as Trends
    }

    await open('rssi@example.com', '/app/dashboard')
    const request = page.waitForRequest((candidate) => candidate.url().includes('/rpc/rssi_trends'))
    await page.getByRole('heading', { name: 'Campagnes actives' }).waitFor()
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    // The period's window as the dashboard asks for it (Mois), every application.
    const asked = (await request).postDataJSON() as { p_from?: string; p_to?: string; p_application_id?: string }
    expect(asked.p_application_id).toBeUndefined()
    if (!asked.p_from || !asked.p_to) throw new Error('Mois asks for a window with both ends')
    const period = { p_from: asked.p_from, p_to: asked.p_to }
    const everything = shown(await trendsOf(period))

    // An application that decided something in the window and whose figures differ from everyone's in every table, so
    // that a dashboard ignoring the filter in any of them is caught.
    const { data: applications, error } = await rssi.from('applications').select('id, name').order('name')
    if (error) throw error
    let target: { id: string; name: string; trends: Trends } | undefined
    for (const application of applications) {
      const trends = await trendsOf({ ...period, p_application_id: application.id })
      const figures = shown(trends)
      const decided = trends.days.some((day) => day.approved + day.refused > 0)
      const differs = (Object.keys(TABLES) as (keyof typeof TABLES)[]).every((table) => JSON.stringify(figures[table]) !== JSON.stringify(everything[table]))
      if (decided && differs) {
        target = { ...application, trends }
        break
      }
    }
    if (!target) throw new Error('No application with decisions in the period and figures of its own')

    // Its decisions of the window, recounted from the decisions themselves: the day-by-day figures are that application's.
    const { data: decisions, error: decisionsError } = await serviceClient()
      .from('right_decisions')
      .select('decided_at, decision')
      .eq('application_id', target.id)
      .not('right_id', 'is', null)
    if (decisionsError) throw decisionsError
    const perDay = new Map<string, { approved: number; refused: number }>()
    for (const decision of decisions) {
      const day = parisDay(decision.decided_at)
      if (day < period.p_from || day > period.p_to) continue
      const counts = perDay.get(day) ?? { approved: 0, refused: 0 }
      if (decision.decision === 'approved') counts.approved += 1
      else counts.refused += 1
      perDay.set(day, counts)
    }
    expect(target.trends.days.filter((day) => day.approved + day.refused > 0)).toEqual(
      [...perDay].sort(([a], [b]) => a.localeCompare(b)).map(([day, counts]) => ({ day, ...counts })),
    )

    // Every application's figures first, in the three tables opened.
    for (const name of [/taux de conformité/, /par étape/, /^(\d[\d\u202f]* décisions? |Aucune décision )sur la période/]) {
      const figure = page.getByRole('figure', { name })
      await figure.scrollIntoViewIfNeeded()
      await figure.getByText('Voir les données').click()
    }
    await expect.poll(tablesOnScreen).toEqual(everything)

    await page.getByRole('button', { name: 'Filtres' }).click()
    const dialog = page.getByRole('dialog', { name: 'Filtres' })
    await dialog.getByLabel('Application').selectOption(target.id)
    await dialog.getByRole('button', { name: 'Appliquer' }).click()
    await page.getByRole('button', { name: 'Filtres (1)' }).waitFor()
    await expect.poll(tablesOnScreen).toEqual(shown(target.trends))
  })
})
