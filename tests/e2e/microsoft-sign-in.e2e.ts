// « Se connecter avec Microsoft » in the browser: the login page sends the person through the backend to this run's
// OpenID provider (oidc-provider, standing in for a Microsoft Entra tenant, configured as Supabase's azure provider),
// whose own login and consent pages are answered, and back to /auth/callback. A person of the directory lands in the
// app; someone unknown or deactivated is refused with the server's French reason. Set SCREENSHOTS_DIR to keep the
// login page at both widths.
import { mkdir } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { serviceClient } from './support/api'
import { launchBrowser, mainMenu, newContext, pathOf } from './support/browser'

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
beforeEach(async () => {
  context = await newContext(browser)
  // Nothing leaves 127.0.0.1: the provider's pages ask for a web font, which is refused here.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => route.abort())
  page = await context.newPage()
})
afterEach(async () => {
  await context?.close()
})

/** From /login, through the provider's login and consent pages as `email`, back to the app. */
async function signInWithMicrosoft(email: string) {
  await page.goto('/login')
  await page.getByRole('button', { name: 'Se connecter avec Microsoft' }).click()
  await page.getByPlaceholder('Enter any login').fill(email)
  await page.getByPlaceholder('and password').fill('not-checked-by-this-provider')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
}

describe('Se connecter avec Microsoft', () => {
  it('signs a person of the directory in and opens the dashboard', async () => {
    await signInWithMicrosoft('manager@example.com')
    await page.waitForURL('**/app/dashboard')
    await mainMenu(page).waitFor()
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor()
  })

  it("refuses someone the directory does not know, with the server's French reason", async () => {
    await signInWithMicrosoft('inconnu@ailleurs.example')
    await page.getByRole('heading', { name: 'Connexion impossible' }).waitFor()
    expect(pathOf(page)).toMatch(/^\/auth\/callback\?error=access_denied/)
    expect(await page.getByRole('alert').innerText()).toContain('La connexion avec Microsoft a été annulée ou refusée.')
    await page.getByText("Aucun compte Recertif n'existe pour inconnu@ailleurs.example").waitFor()
    await page.getByRole('link', { name: 'Retour à la connexion' }).click()
    await page.getByRole('form', { name: 'Connexion' }).waitFor()
  })

  it('refuses a person deactivated in the directory', async () => {
    const email = `parti.${randomUUID().slice(0, 8)}@example.com`
    const { error } = await serviceClient()
      .from('users')
      .insert({ id: randomUUID(), email, first_name: 'Paul', last_name: 'Parti', role: 'user', active: false })
    expect(error).toBeNull()
    await signInWithMicrosoft(email)
    await page.getByRole('heading', { name: 'Connexion impossible' }).waitFor()
    await page.getByText(`Le compte Recertif de ${email} est désactivé.`).waitFor()
    expect(await mainMenu(page).count()).toBe(0)
  })

  it('shows the Microsoft button under Google, as wide, at 1440 and 375 px', async () => {
    for (const [width, height] of [
      [1440, 900],
      [375, 800],
    ] as const) {
      await page.setViewportSize({ width, height })
      await page.goto('/login')
      const google = await page.getByRole('button', { name: 'Se connecter avec Google' }).boundingBox()
      const microsoft = await page.getByRole('button', { name: 'Se connecter avec Microsoft' }).boundingBox()
      expect(microsoft!.y).toBeGreaterThan(google!.y + google!.height)
      expect(microsoft!.width).toBe(google!.width)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      if (SCREENSHOTS_DIR) {
        await mkdir(SCREENSHOTS_DIR, { recursive: true })
        await page.screenshot({ path: `${SCREENSHOTS_DIR}/login-${width}.png`, fullPage: true })
      }
    }
  })
})
