import { gzipSync } from 'node:zlib'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser, newContext, pathOf } from './support/browser'

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
  page = await context.newPage()
})
afterEach(async () => {
  await context?.close()
})

describe('public site', () => {
  it('serves the home page with its call to action leading to /login', async () => {
    await page.goto('/')
    await page.getByRole('heading', { level: 1 }).waitFor()
    expect(await page.getByRole('link', { name: 'Accéder à mon espace' }).getAttribute('href')).toBe('/login')
    expect(await page.title()).toBe('Accueil — Recertif')
  })

  it.each(['/faq', '/contact', '/legal', '/privacy', '/500'])('serves %s', async (path) => {
    const response = await page.goto(path)
    expect(response?.status()).toBe(200)
    await page.getByRole('heading', { level: 1 }).waitFor()
    await page.getByRole('contentinfo').waitFor()
  })

  it('gives unknown paths the 404 page, with links to / and /contact', async () => {
    await page.goto('/nulle-part')
    await page.getByRole('heading', { name: 'Page non trouvée' }).waitFor()
    const main = page.getByRole('main')
    expect(await main.getByRole('link', { name: "Retour à l'accueil" }).getAttribute('href')).toBe('/')
    expect(await main.getByRole('link', { name: 'Nous contacter' }).getAttribute('href')).toBe('/contact')
  })

  it('checks the login form in French before calling the server', async () => {
    await page.goto('/login')
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
    await page.getByText("L'adresse e-mail est obligatoire.").waitFor()
    await page.getByText('Le mot de passe est obligatoire.').waitFor()
    await page.getByLabel('Adresse e-mail').fill('pas-une-adresse')
    await page.getByLabel('Mot de passe').fill('x')
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click()
    await page.getByText('Veuillez saisir une adresse e-mail valide.').waitFor()
    expect(pathOf(page)).toBe('/login')
  })

  it('fills the form from a demo account', async () => {
    await page.goto('/login')
    await page.getByRole('button', { name: /bpo@example.com/ }).click()
    expect(await page.getByLabel('Adresse e-mail').inputValue()).toBe('bpo@example.com')
    expect(await page.getByLabel('Mot de passe').inputValue()).toBe('Demo1234!')
  })

  it('sends an unauthenticated visitor of /app to /login', async () => {
    await page.goto('/app/campaigns')
    await page.waitForURL('**/login')
  })

  it.each(['/', '/login'])('keeps the JavaScript of %s within 100 KB gzip', async (path) => {
    const scripts = new Map<string, number>()
    page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return
      scripts.set(response.url(), gzipSync(await response.body()).length)
    })
    await page.goto(path, { waitUntil: 'networkidle' })
    const total = [...scripts.values()].reduce((sum, size) => sum + size, 0)
    const names = [...scripts.keys()].map((url) => new URL(url).pathname.replace('/assets/', ''))
    console.info(`${path}: ${(total / 1024).toFixed(1)} KB gzip in ${names.join(', ')}`)
    expect(total).toBeLessThanOrEqual(100 * 1024)
  })
})
