import { mkdir } from 'node:fs/promises'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { inject, onTestFinished } from 'vitest'
import { CHROMIUM, launchBrowser, newContext, signIn } from './support/browser'
import { signedInClient } from './support/api'

// The Campagnes table at the two widths people use, its row menu, and the file and date
// fields in French in a browser that speaks English. Set SCREENSHOTS_DIR to keep screenshots of Campagnes and of the
// RSSI dashboard at both widths.
const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR

let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
afterEach(async () => {
  await context?.close()
})

async function screenshot(name: string) {
  if (!SCREENSHOTS_DIR) return
  await mkdir(SCREENSHOTS_DIR, { recursive: true })
  await page.screenshot({ path: `${SCREENSHOTS_DIR}/${name}.png`, fullPage: true })
}

async function openCampaigns(width: number, height: number) {
  context = await newContext(browser)
  page = await context.newPage()
  // Signed in at the desktop width, where the main menu signIn waits for is in view.
  await signIn(page, 'admin@example.com')
  await page.setViewportSize({ width, height })
  await page.goto('/app/campaigns')
  await page.getByRole('table', { name: 'Campagnes' }).getByRole('row').nth(1).waitFor()
}

describe('Campagnes table', () => {
  it('keeps each row to one action in view and a menu, on one or two lines at 1440 px', async () => {
    // A recurring campaign with a long name, whose recurrence lines sit under its status, is among the rows.
    const admin = await signedInClient('admin@example.com')
    const { data: recurring, error } = await admin
      .from('campaigns')
      .insert({ name: `Revue trimestrielle ${Date.now().toString(36)}`, description: 'Comptes à privilèges et comptes de service', start_date: '2027-03-01', end_date: '2027-03-31', recurrence: 'quarterly' })
      .select('id')
      .single()
    if (error) throw error
    onTestFinished(async () => {
      await admin.from('campaigns').delete().eq('id', recurring.id)
    })
    await openCampaigns(1440, 900)
    await screenshot('campagnes-1440')
    const rows = page.getByRole('table', { name: 'Campagnes' }).locator('tbody tr')
    const count = await rows.count()
    expect(count).toBeGreaterThan(1)
    for (let index = 0; index < count; index++) {
      const row = rows.nth(index)
      const name = (await row.locator('td').first().locator('p').first().innerText()).trim()
      // At most a name on two lines, its description's line and the cells' padding (81 px); the old stacked buttons
      // made rows of 150 px.
      const { height } = (await row.boundingBox())!
      expect(height, name).toBeLessThanOrEqual(84)
      // The name on one or two lines.
      const nameBox = await row.locator('td').first().locator('p').first().evaluate((element) => ({
        height: element.getBoundingClientRect().height,
        line: parseFloat(getComputedStyle(element).lineHeight),
      }))
      expect(nameBox.height, name).toBeLessThanOrEqual(nameBox.line * 2)
      // One menu per row, and at most one other button beside it.
      const buttons = row.getByRole('button')
      expect(await row.getByRole('button', { name: `Autres actions pour ${name}` }).count(), name).toBe(1)
      expect(await buttons.count(), name).toBeLessThanOrEqual(2)
    }
    // The table fits: no sideways scrolling at this width.
    const region = page.getByRole('region', { name: 'Campagnes' })
    expect(await region.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)
  })

  it('opens a row menu from the keyboard, unclipped by the table, and Escape gives focus back to its button', async () => {
    await openCampaigns(1440, 900)
    const rows = page.getByRole('table', { name: 'Campagnes' }).locator('tbody tr')
    // The last row: a menu placed inside the table's scrolling region would be cut off there.
    const last = rows.last()
    const button = last.getByRole('button', { name: /^Autres actions pour / })
    await button.focus()
    await page.keyboard.press('Enter')
    const menu = page.getByRole('menu')
    await menu.waitFor()
    expect(await button.getAttribute('aria-expanded')).toBe('true')
    const first = menu.getByRole('menuitem').first()
    expect(await first.evaluate((element) => element === document.activeElement)).toBe(true)
    // What is drawn at each item's centre is that item: nothing clips or covers the menu.
    for (const item of await menu.getByRole('menuitem').all()) {
      const box = (await item.boundingBox())!
      const hit = await item.evaluate((element, point) => element.contains(document.elementFromPoint(point.x, point.y)), {
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
      })
      expect(hit, await item.innerText()).toBe(true)
    }
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('Escape')
    await menu.waitFor({ state: 'detached' })
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true)
    expect(await button.getAttribute('aria-expanded')).toBe('false')
  })

  it('shows each campaign as a card at 375 px, its actions within the screen', async () => {
    await openCampaigns(375, 800)
    await screenshot('campagnes-375')
    const region = page.getByRole('region', { name: 'Campagnes' })
    expect(await region.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true)
    const rows = page.getByRole('table', { name: 'Campagnes' }).locator('tbody tr')
    for (let index = 0; index < (await rows.count()); index++) {
      const row = rows.nth(index)
      expect(await row.evaluate((element) => getComputedStyle(element).display)).toBe('block')
      // Each value led by its column's name (drawn before the cell, so not in its text).
      const labels = await row.locator('td[data-label]').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content))
      expect(labels).toEqual(['"Application"', '"Type de compte"', '"Période"', '"Statut"'])
      for (const action of await row.getByRole('button').all()) {
        const box = (await action.boundingBox())!
        expect(box.x).toBeGreaterThanOrEqual(0)
        expect(box.x + box.width).toBeLessThanOrEqual(375)
      }
    }
  })

  it('takes screenshots of the RSSI dashboard at 1440 and 375 px', async () => {
    if (!SCREENSHOTS_DIR) return
    for (const [width, height] of [
      [1440, 900],
      [375, 800],
    ] as const) {
      context = await newContext(browser)
      page = await context.newPage()
      await signIn(page, 'rssi@example.com')
      await page.setViewportSize({ width, height })
      await page.getByTestId('counter-Décisions').waitFor()
      await page.waitForFunction(() => document.querySelector('.animate-spin') === null)
      await screenshot(`rssi-${width}`)
      await context.close()
    }
  })
})

describe('Files and dates in French in an English browser', () => {
  let english: Browser

  beforeAll(async () => {
    english = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--lang=en-US'] })
  })
  afterAll(async () => {
    await english?.close()
  })

  /** No native date field (mm/dd/yyyy in English), and every native file field hidden behind our French one. */
  async function expectOnlyFrenchControls(scope: string) {
    expect(await page.locator(`${scope} input[type="date"]`).count(), scope).toBe(0)
    for (const input of await page.locator(`${scope} input[type="file"]`).all()) {
      const box = await input.boundingBox()
      expect(box === null || (box.width <= 1 && box.height <= 1), `${scope}: a native file field is visible`).toBe(true)
    }
    const text = await page.locator(scope).innerText()
    expect(text).not.toMatch(/Choose File|No file chosen|mm\/dd\/yyyy|Browse/)
  }

  it('types and shows dates as jj/mm/aaaa and files with « Choisir un fichier », whatever the browser language', async () => {
    context = await english.newContext({ baseURL: inject('appUrl'), locale: 'en-US' })
    page = await context.newPage()
    expect(await page.evaluate(() => navigator.language)).toBe('en-US')
    await signIn(page, 'admin@example.com')
    await page.goto('/app/campaigns')

    await page.getByRole('button', { name: 'Nouvelle campagne' }).click()
    const form = page.getByRole('dialog', { name: 'Nouvelle campagne' })
    await expectOnlyFrenchControls('dialog[open]')
    const start = form.getByRole('textbox', { name: 'Date de début', exact: true })
    expect(await start.getAttribute('placeholder')).toBe('jj/mm/aaaa')
    await start.fill('31/02/2027')
    await start.press('Tab')
    await form.getByText("La date « 31/02/2027 » n'existe pas : vérifiez le jour et le mois.").waitFor()
    await start.fill('1/2/2027')
    await start.press('Tab')
    expect(await start.inputValue()).toBe('01/02/2027')
    await page.keyboard.press('Escape')
    await form.waitFor({ state: 'detached' })

    await page.getByRole('button', { name: 'Import CSV' }).click()
    const importDialog = page.getByRole('dialog', { name: 'Import CSV des droits' })
    await importDialog.getByText('Choisir un fichier').waitFor()
    await importDialog.getByText('Aucun fichier choisi').waitFor()
    await expectOnlyFrenchControls('dialog[open]')
    // The field keeps its label, and the chosen file's name replaces « Aucun fichier choisi ».
    await importDialog.getByLabel('Fichier CSV').setInputFiles({ name: 'droits.csv', mimeType: 'text/csv', buffer: Buffer.from('E-mail;Application;Rôle\r\n', 'utf8') })
    await importDialog.getByText('droits.csv', { exact: true }).waitFor()
    await page.keyboard.press('Escape')
    await context.close()

    // The RSSI's filters: the dashboard's and the audit trail's.
    context = await english.newContext({ baseURL: inject('appUrl'), locale: 'en-US' })
    page = await context.newPage()
    await signIn(page, 'rssi@example.com')
    for (const path of ['/app/dashboard', '/app/audit']) {
      await page.goto(path)
      await page.getByRole('button', { name: /^Filtres/ }).click()
      const filters = page.getByRole('dialog', { name: 'Filtres' })
      await filters.waitFor()
      await expectOnlyFrenchControls('dialog[open]')
      expect(await filters.getByRole('textbox', { name: 'Date de début', exact: true }).getAttribute('placeholder'), path).toBe('jj/mm/aaaa')
      await page.keyboard.press('Escape')
      await filters.waitFor({ state: 'detached' })
    }
  })
})
