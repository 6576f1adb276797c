import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { inject } from 'vitest'
import { demoTotpCode } from '../../support/second-factor'

export const DEMO_PASSWORD = 'Demo1234!'
export const CHROMIUM = '/usr/bin/chromium'

// Debian's Chromium, never a downloaded one; the flags keep it quiet and offline apart from the app itself.
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}

export function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: inject('appUrl'), locale: 'fr-FR' })
}

export function mainMenu(page: Page) {
  return page.getByRole('navigation', { name: 'Menu principal' })
}

/** The path and query the page shows, for comparing with what a test expects. */
export function pathOf(page: Page): string {
  const url = new URL(page.url())
  return `${url.pathname}${url.search}`
}

export async function fillAndSubmitLogin(page: Page, email: string, password = DEMO_PASSWORD, options: { remember?: boolean } = {}) {
  await page.getByLabel('Adresse e-mail').fill(email)
  await page.getByLabel('Mot de passe').fill(password)
  if (options.remember) await page.getByRole('checkbox', { name: 'Se souvenir de moi' }).check()
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
}

/** On the second-factor page, types the current code of the demo account's authenticator and confirms. */
export async function enterDemoCode(page: Page, email: string) {
  const code = demoTotpCode(email)
  if (!code) throw new Error(`${email} has no demo second factor`)
  await page.getByLabel('Code à 6 chiffres').fill(code)
  await page.getByRole('button', { name: 'Vérifier' }).click()
}

/** Opens /login, signs in (with the demo second factor for the accounts that have one) and waits for the shell. */
export async function signIn(page: Page, email: string, options: { remember?: boolean } = {}) {
  await page.goto('/login')
  await fillAndSubmitLogin(page, email, DEMO_PASSWORD, options)
  if (demoTotpCode(email)) {
    await page.waitForURL('**/verification')
    await enterDemoCode(page, email)
  }
  await mainMenu(page).waitFor()
}

/** Texts of the links of the main menu, in order. */
export function menuItems(page: Page): Promise<string[]> {
  return mainMenu(page).getByRole('link').allInnerTexts().then((texts) => texts.map((text) => text.trim()))
}

/**
 * People signed in at once, each in a browser context of their own: `as(email, path?)` opens a page signed in as that
 * demo account (then goes to path), `closeAll()` closes every context opened so far. The browser is read when a page
 * is opened.
 */
export function signedInSessions(browser: () => Browser) {
  const contexts: BrowserContext[] = []
  return {
    async as(email: string, path?: string): Promise<Page> {
      const context = await newContext(browser())
      contexts.push(context)
      const page = await context.newPage()
      await signIn(page, email)
      if (path) await page.goto(path)
      return page
    },
    closeAll: () => Promise.all(contexts.splice(0).map((context) => context.close())).then(() => undefined),
  }
}

/**
 * One browser for the file and a fresh context and page for each test, through the file's hooks: `tab.page` is the
 * current test's page.
 */
export function pagePerTest(): { readonly browser: Browser; readonly context: BrowserContext; readonly page: Page } {
  let browser: Browser | undefined
  let context: BrowserContext | undefined
  let page: Page | undefined
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })
  beforeEach(async () => {
    context = await newContext(browser!)
    page = await context.newPage()
  })
  afterEach(async () => {
    await context?.close()
  })
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The browser is opened by the hooks of the test file.')
    return value
  }
  return {
    get browser() {
      return opened(browser)
    },
    get context() {
      return opened(context)
    },
    get page() {
      return opened(page)
    },
  }
}
