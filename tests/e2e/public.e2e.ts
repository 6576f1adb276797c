import { gzipSync } from 'node:zlib'
import { pagePerTest, pathOf } from './support/browser'

const tab = pagePerTest()

describe('public site', () => {
  it('serves the home page with its call to action leading to /login', async () => {
    await tab.page.goto('/')
    await tab.page.getByRole('heading', { level: 1 }).waitFor()
    expect(await tab.page.getByRole('link', { name: 'Accéder à mon espace' }).getAttribute('href')).toBe('/login')
    expect(await tab.page.title()).toBe('Accueil — Recertif')
  })

  it.each(['/faq', '/contact', '/legal', '/privacy', '/500'])('serves %s', async (path) => {
    const response = await tab.page.goto(path)
    expect(response?.status()).toBe(200)
    await tab.page.getByRole('heading', { level: 1 }).waitFor()
    await tab.page.getByRole('contentinfo').waitFor()
  })

  it('gives unknown paths the 404 page, with links to / and /contact', async () => {
    await tab.page.goto('/nulle-part')
    await tab.page.getByRole('heading', { name: 'Page non trouvée' }).waitFor()
    const main = tab.page.getByRole('main')
    expect(await main.getByRole('link', { name: "Retour à l'accueil" }).getAttribute('href')).toBe('/')
    expect(await main.getByRole('link', { name: 'Nous contacter' }).getAttribute('href')).toBe('/contact')
  })

  it('checks the login form in French before calling the server', async () => {
    await tab.page.goto('/login')
    await tab.page.getByRole('button', { name: 'Se connecter', exact: true }).click()
    await tab.page.getByText("L'adresse e-mail est obligatoire.").waitFor()
    await tab.page.getByText('Le mot de passe est obligatoire.').waitFor()
    await tab.page.getByLabel('Adresse e-mail').fill('pas-une-adresse')
    await tab.page.getByLabel('Mot de passe').fill('x')
    await tab.page.getByRole('button', { name: 'Se connecter', exact: true }).click()
    await tab.page.getByText('Veuillez saisir une adresse e-mail valide.').waitFor()
    expect(pathOf(tab.page)).toBe('/login')
  })

  it('fills the form from a demo account', async () => {
    await tab.page.goto('/login')
    await tab.page.getByRole('button', { name: /bpo@example.com/ }).click()
    expect(await tab.page.getByLabel('Adresse e-mail').inputValue()).toBe('bpo@example.com')
    expect(await tab.page.getByLabel('Mot de passe').inputValue()).toBe('Demo1234!')
  })

  it('sends an unauthenticated visitor of /app to /login', async () => {
    await tab.page.goto('/app/campaigns')
    await tab.page.waitForURL('**/login')
  })

  it.each(['/', '/login'])('keeps the JavaScript of %s within 100 KB gzip', async (path) => {
    const scripts = new Map<string, number>()
    tab.page.on('response', async (response) => {
      if (response.request().resourceType() !== 'script') return
      scripts.set(response.url(), gzipSync(await response.body()).length)
    })
    await tab.page.goto(path, { waitUntil: 'networkidle' })
    const total = [...scripts.values()].reduce((sum, size) => sum + size, 0)
    const names = [...scripts.keys()].map((url) => new URL(url).pathname.replace('/assets/', ''))
    console.info(`${path}: ${(total / 1024).toFixed(1)} KB gzip in ${names.join(', ')}`)
    expect(total).toBeLessThanOrEqual(100 * 1024)
  })
})
