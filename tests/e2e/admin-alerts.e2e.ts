import type { Browser, BrowserContext, Page } from 'playwright-core'
import { signedInClient, type ApiClient } from './support/api'
import { launchBrowser, newContext, signIn } from './support/browser'

// The administrator's bell counts the campaigns left running past their end date. This journey's campaign covers an
// application of its own, without rights: started, it takes none of the rights other journeys review, and it is
// completed at the end so that no later journey finds it waiting.
const RUN = Date.now().toString(36)
const APPLICATION = `Alertes E2E ${RUN}`
const CAMPAIGN = `Revue échue E2E ${RUN}`
const RA_ID = '00000000-0000-4000-a000-000000000005'
const BPO_METIER_ID = '00000000-0000-4000-a000-000000000003'

let browser: Browser
let context: BrowserContext | undefined
let admin: ApiClient
let campaignId: string

/** A day counted from today in Paris, as the database compares end dates. */
function parisDay(offset: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
  const day = new Date(`${today}T12:00:00Z`)
  day.setUTCDate(day.getUTCDate() + offset)
  return day.toISOString().slice(0, 10)
}

/** The campaigns still active whose last day has passed, read from the campaigns themselves. */
async function overdueCampaigns(): Promise<number> {
  const { count, error } = await admin.from('campaigns').select('id', { count: 'exact', head: true }).eq('status', 'active').lt('end_date', parisDay(0))
  if (error) throw error
  return count ?? 0
}

const bellOf = (page: Page) => page.getByRole('banner').getByRole('link', { name: /^Notifications/ })

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signedInClient('admin@example.com')
  const application = await admin.rpc('create_application', {
    name: APPLICATION,
    description: 'Application du parcours des alertes',
    ra_id: RA_ID,
    bpo_metier_id: BPO_METIER_ID,
  })
  if (application.error) throw application.error
  const created = await admin
    .from('campaigns')
    .insert({ name: CAMPAIGN, application_id: (application.data as { id: string }).id, start_date: parisDay(-20), end_date: parisDay(-2) })
    .select('id')
    .single()
  if (created.error) throw created.error
  campaignId = created.data.id
  const started = await admin.from('campaigns').update({ status: 'active' }).eq('id', campaignId)
  if (started.error) throw started.error
})
afterAll(async () => {
  await admin?.from('campaigns').update({ status: 'completed' }).eq('id', campaignId).eq('status', 'active')
  await context?.close()
  await browser?.close()
})

describe('the bell of the administrator', () => {
  it('shows a campaign left running past its end date, leads to it, and lets it go once completed', async () => {
    context = await newContext(browser)
    const page = await context.newPage()
    // Straight from the second factor, without a reload: the live topics join with the verified session's token.
    await signIn(page, 'admin@example.com')
    await page.waitForURL(/\/app\/dashboard$/)

    const overdue = await overdueCampaigns()
    expect(overdue).toBeGreaterThanOrEqual(1)
    const counted = overdue === 1 ? '1 campagne échue encore active' : `${overdue} campagnes échues encore actives`
    const bell = bellOf(page)
    await expect.poll(() => bell.getAttribute('aria-label')).toMatch(new RegExp(`^Notifications : ${counted}(, |$)`))
    expect(Number(await bell.getByTestId('notifications-count').innerText())).toBeGreaterThanOrEqual(overdue)

    await bell.click()
    await page.waitForURL(/\/app\/campaigns$/)
    await page.getByRole('row').filter({ hasText: CAMPAIGN }).waitFor()

    // Completed elsewhere, it leaves the bell without a reload.
    const completed = await admin.from('campaigns').update({ status: 'completed' }).eq('id', campaignId)
    if (completed.error) throw completed.error
    const left = await overdueCampaigns()
    expect(left).toBe(overdue - 1)
    await expect
      .poll(() => bell.getAttribute('aria-label'), { timeout: 15_000 })
      .toMatch(left === 0 ? /^Notifications : (?!\d+ campagnes? échues?)/ : new RegExp(`^Notifications : ${left} campagnes? échues?`))
  })
})
