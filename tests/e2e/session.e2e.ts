import type { Browser, BrowserContext, Page } from 'playwright-core'
import { enterDemoCode, fillAndSubmitLogin, launchBrowser, mainMenu, menuItems, newContext, pathOf, signIn } from './support/browser'

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

// SPEC §2's six demo accounts and SPEC §2's menu table.
const DEMO_MENUS = [
  ['user@example.com', 'Utilisateur', ['Tableau de bord', 'Mes revues']],
  ['manager@example.com', 'Manager', ['Tableau de bord', 'Mes revues', 'Équipe']],
  ['bpo@example.com', 'BPO Métier', ['Tableau de bord', 'Mes revues', 'Applications']],
  ['ra@example.com', "Responsable d'Application", ['Tableau de bord', 'Mes revues', 'Applications']],
  ['admin@example.com', 'Administrateur', ['Tableau de bord', 'Applications', 'Campagnes', 'Utilisateurs', 'Contrôles', "Envois d'e-mails"]],
  [
    'rssi@example.com',
    'RSSI',
    ['Tableau de bord', 'Applications', 'Campagnes', 'Utilisateurs', 'Contrôles', 'Conformité', 'Audit', "Envois d'e-mails"],
  ],
] as const

describe('sign-in and session', () => {
  it.each(DEMO_MENUS)('signs %s in and shows exactly the %s menu', async (email, roleLabel, menu) => {
    await signIn(page, email)
    await page.waitForURL('**/app/dashboard')
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor()
    expect(await menuItems(page)).toEqual(menu)
    const header = page.getByRole('banner')
    await header.getByText(email).waitFor()
    await header.getByText(roleLabel, { exact: true }).waitFor()
  })

  it('refuses a wrong password with the French message', async () => {
    await page.goto('/login')
    await fillAndSubmitLogin(page, 'manager@example.com', 'mauvais-mot-de-passe')
    await page.getByRole('alert').getByText('Identifiants invalides. Veuillez réessayer.').waitFor()
    expect(pathOf(page)).toBe('/login')
  })

  it('explains that Google sign-in is off rather than leaving for the API', async () => {
    await page.goto('/login')
    await page.getByRole('button', { name: 'Se connecter avec Google' }).click()
    await page.getByRole('alert').getByText("La connexion avec Google n'est pas activée pour cette application.").waitFor()
    expect(pathOf(page)).toBe('/login')
  })

  it('returns to the page asked for after sign-in', async () => {
    await page.goto('/app/audit')
    await page.waitForURL('**/login')
    await fillAndSubmitLogin(page, 'rssi@example.com')
    await page.waitForURL('**/verification')
    await enterDemoCode(page, 'rssi@example.com')
    await page.waitForURL('**/app/audit')
    await page.getByRole('heading', { name: 'Audit' }).waitFor()
  })

  it('sends a signed-in visitor away from /login', async () => {
    await signIn(page, 'user@example.com')
    await page.goto('/login')
    await page.waitForURL('**/app/dashboard')
  })

  it('tells a role opening a page outside its menu that access is refused', async () => {
    await signIn(page, 'user@example.com')
    await page.goto('/app/audit')
    await page.getByRole('heading', { name: 'Accès refusé' }).waitFor()
    expect(await menuItems(page)).toEqual(['Tableau de bord', 'Mes revues'])
  })

  it('logs out to /login?logged_out=true, and neither Back nor a reload restores the session', async () => {
    await signIn(page, 'manager@example.com', { remember: true })
    await page.getByRole('link', { name: 'Équipe' }).click()
    await page.waitForURL('**/app/team')

    await page.getByRole('button', { name: /Menu utilisateur/ }).click()
    await page.getByRole('menuitem', { name: 'Déconnexion' }).click()
    await page.waitForURL('**/login?logged_out=true')
    await page.getByText('Vous avez été déconnecté.').waitFor()

    await page.goBack()
    await page.waitForURL('**/login')
    expect(await mainMenu(page).count()).toBe(0)

    await page.reload()
    await page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor()
    expect(pathOf(page)).toMatch(/^\/login/)
    await page.goto('/app/dashboard')
    await page.waitForURL('**/login')
    expect(await mainMenu(page).count()).toBe(0)
  })

  it('keeps an unremembered session to its tab, and a remembered one across tabs', async () => {
    await signIn(page, 'user@example.com')
    const otherTab = await context.newPage()
    await otherTab.goto('/app/dashboard')
    await otherTab.waitForURL('**/login')
    await otherTab.close()

    const rememberedContext = await newContext(browser)
    const first = await rememberedContext.newPage()
    await signIn(first, 'user@example.com', { remember: true })
    const second = await rememberedContext.newPage()
    await second.goto('/app/dashboard')
    await mainMenu(second).waitFor()
    await rememberedContext.close()
  })

  it('signs out after five minutes of inactivity', async () => {
    await page.clock.install()
    await signIn(page, 'admin@example.com')
    await page.clock.fastForward('04:00')
    expect(pathOf(page)).toBe('/app/dashboard')
    await page.mouse.move(10, 10)
    await page.clock.fastForward('04:00')
    expect(pathOf(page)).toBe('/app/dashboard')
    await page.clock.fastForward('01:01')
    await page.waitForURL('**/login?logged_out=true&reason=inactivity')
    await page.getByText("Vous avez été déconnecté après 5 minutes d'inactivité.").waitFor()
  })
})
