import { randomUUID } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { Secret, TOTP } from 'otpauth'
import { serviceClient } from './support/api'
import { DEMO_PASSWORD, fillAndSubmitLogin, launchBrowser, mainMenu, newContext, pathOf } from './support/browser'

// Two-factor sign-in in the browser. A new administrator signs in with their password and lands on the French
// enrolment page (QR code, the key to type, a code to confirm); once their app's code is accepted they reach the
// dashboard. Signed out, the next sign-in asks for the code again, refuses a wrong one in French, and lets them in
// with the right one. The journey brings its own administrator, so that the demo accounts' factors stay as seeded.

const RUN = randomUUID().slice(0, 8)
const EMAIL = `admin.mfa.${RUN}@example.com`

let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  context = await newContext(browser)
  page = await context.newPage()
  const service = serviceClient()
  const { data, error } = await service.auth.admin.createUser({ email: EMAIL, password: DEMO_PASSWORD, email_confirm: true })
  if (error) throw error
  const profile = await service.from('users').insert({ id: data.user.id, email: EMAIL, first_name: 'Hélène', last_name: `Vidal ${RUN}`, role: 'admin' })
  if (profile.error) throw profile.error
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
})

const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate()

describe('second factor', () => {
  let secret = ''

  it('enrols a new administrator at first sign-in, with the QR code and the key, then opens the app', async () => {
    await page.goto('/app/campaigns')
    await fillAndSubmitLogin(page, EMAIL)
    await page.waitForURL('**/verification')
    await page.getByRole('heading', { name: "Activer l'authentification à deux facteurs" }).waitFor()
    expect(await page.getByRole('img', { name: /QR code/ }).getAttribute('src')).toMatch(/^data:image\/svg\+xml/)
    secret = (await page.getByTestId('totp-secret').innerText()).trim()
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)

    await page.getByLabel('Code à 6 chiffres').fill('12')
    await page.getByRole('button', { name: 'Activer et se connecter' }).click()
    await page.getByText('Le code comporte 6 chiffres.').waitFor()
    await page.getByLabel('Code à 6 chiffres').fill(codeOf(secret))
    await page.getByRole('button', { name: 'Activer et se connecter' }).click()
    await mainMenu(page).waitFor()
    expect(pathOf(page)).toBe('/app/campaigns')
  })

  it('asks for the code at the next sign-in, refuses a wrong one and accepts the right one', async () => {
    await page.getByRole('button', { name: /Menu utilisateur/ }).click()
    await page.getByRole('menuitem', { name: 'Déconnexion' }).click()
    await page.waitForURL('**/login?logged_out=true')
    await fillAndSubmitLogin(page, EMAIL)
    await page.waitForURL('**/verification')
    await page.getByRole('heading', { name: 'Vérification en deux étapes' }).waitFor()
    const right = codeOf(secret)
    await page.getByLabel('Code à 6 chiffres').fill(String((Number(right) + 500_000) % 1_000_000).padStart(6, '0'))
    await page.getByRole('button', { name: 'Vérifier' }).click()
    await page.getByRole('alert').getByText(/Code incorrect/).waitFor()
    await page.getByLabel('Code à 6 chiffres').fill(codeOf(secret))
    await page.getByRole('button', { name: 'Vérifier' }).click()
    await mainMenu(page).waitFor()
  })

  it('sends the aal1 session back to the code from any page of the app', async () => {
    const fresh = await newContext(browser)
    const other = await fresh.newPage()
    await other.goto('/login')
    await fillAndSubmitLogin(other, EMAIL)
    await other.waitForURL('**/verification')
    await other.goto('/app/users')
    await other.waitForURL('**/verification')
    await fresh.close()
  })
})
