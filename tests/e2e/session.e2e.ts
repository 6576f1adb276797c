import { enterDemoCode, fillAndSubmitLogin, mainMenu, menuItems, newContext, pagePerTest, pathOf, signIn } from './support/browser'

const tab = pagePerTest()

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
    await signIn(tab.page, email)
    await tab.page.waitForURL('**/app/dashboard')
    await tab.page.getByRole('heading', { name: 'Tableau de bord' }).waitFor()
    expect(await menuItems(tab.page)).toEqual(menu)
    const header = tab.page.getByRole('banner')
    await header.getByText(email).waitFor()
    await header.getByText(roleLabel, { exact: true }).waitFor()
  })

  it('refuses a wrong password with the French message', async () => {
    await tab.page.goto('/login')
    await fillAndSubmitLogin(tab.page, 'manager@example.com', 'mauvais-mot-de-passe')
    await tab.page.getByRole('alert').getByText('Identifiants invalides. Veuillez réessayer.').waitFor()
    expect(pathOf(tab.page)).toBe('/login')
  })

  it('explains that Google sign-in is off rather than leaving for the API', async () => {
    await tab.page.goto('/login')
    await tab.page.getByRole('button', { name: 'Se connecter avec Google' }).click()
    await tab.page.getByRole('alert').getByText("La connexion avec Google n'est pas activée pour cette application.").waitFor()
    expect(pathOf(tab.page)).toBe('/login')
  })

  it('returns to the page asked for after sign-in', async () => {
    await tab.page.goto('/app/audit')
    await tab.page.waitForURL('**/login')
    await fillAndSubmitLogin(tab.page, 'rssi@example.com')
    await tab.page.waitForURL('**/verification')
    await enterDemoCode(tab.page, 'rssi@example.com')
    await tab.page.waitForURL('**/app/audit')
    await tab.page.getByRole('heading', { name: 'Audit' }).waitFor()
  })

  it('sends a signed-in visitor away from /login', async () => {
    await signIn(tab.page, 'user@example.com')
    await tab.page.goto('/login')
    await tab.page.waitForURL('**/app/dashboard')
  })

  it('tells a role opening a page outside its menu that access is refused', async () => {
    await signIn(tab.page, 'user@example.com')
    await tab.page.goto('/app/audit')
    await tab.page.getByRole('heading', { name: 'Accès refusé' }).waitFor()
    expect(await menuItems(tab.page)).toEqual(['Tableau de bord', 'Mes revues'])
  })

  it('logs out to /login?logged_out=true, and neither Back nor a reload restores the session', async () => {
    await signIn(tab.page, 'manager@example.com', { remember: true })
    await tab.page.getByRole('link', { name: 'Équipe' }).click()
    await tab.page.waitForURL('**/app/team')

    await tab.page.getByRole('button', { name: /Menu utilisateur/ }).click()
    await tab.page.getByRole('menuitem', { name: 'Déconnexion' }).click()
    await tab.page.waitForURL('**/login?logged_out=true')
    await tab.page.getByText('Vous avez été déconnecté.').waitFor()

    await tab.page.goBack()
    await tab.page.waitForURL('**/login')
    expect(await mainMenu(tab.page).count()).toBe(0)

    await tab.page.reload()
    await tab.page.getByRole('button', { name: 'Se connecter', exact: true }).waitFor()
    expect(pathOf(tab.page)).toMatch(/^\/login/)
    await tab.page.goto('/app/dashboard')
    await tab.page.waitForURL('**/login')
    expect(await mainMenu(tab.page).count()).toBe(0)
  })

  it('keeps an unremembered session to its tab, and a remembered one across tabs', async () => {
    await signIn(tab.page, 'user@example.com')
    const otherTab = await tab.context.newPage()
    await otherTab.goto('/app/dashboard')
    await otherTab.waitForURL('**/login')
    await otherTab.close()

    const rememberedContext = await newContext(tab.browser)
    const first = await rememberedContext.newPage()
    await signIn(first, 'user@example.com', { remember: true })
    const second = await rememberedContext.newPage()
    await second.goto('/app/dashboard')
    await mainMenu(second).waitFor()
    await rememberedContext.close()
  })

  it('signs out after five minutes of inactivity', async () => {
    await tab.page.clock.install()
    await signIn(tab.page, 'admin@example.com')
    await tab.page.clock.fastForward('04:00')
    expect(pathOf(tab.page)).toBe('/app/dashboard')
    await tab.page.mouse.move(10, 10)
    await tab.page.clock.fastForward('04:00')
    expect(pathOf(tab.page)).toBe('/app/dashboard')
    await tab.page.clock.fastForward('01:01')
    await tab.page.waitForURL('**/login?logged_out=true&reason=inactivity')
    await tab.page.getByText("Vous avez été déconnecté après 5 minutes d'inactivité.").waitFor()
  })
})
