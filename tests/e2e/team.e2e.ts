import type { Browser, BrowserContext, Page } from 'playwright-core'
import { signedInClient } from './support/api'
import { launchBrowser, mainMenu, newContext, signIn } from './support/browser'

// Read-only journeys: the figures are compared with what the API answers at the time, so they hold whatever other
// e2e files decided before.

interface TeamRow {
  full_name: string
  rights_count: number
}

interface DashboardRow {
  team_size: number
  pending_count: number
  validated_count: number
  refused_count: number
}

let browser: Browser
const contexts: BrowserContext[] = []

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
})

async function as(email: string): Promise<Page> {
  const context = await newContext(browser)
  contexts.push(context)
  const page = await context.newPage()
  await signIn(page, email)
  return page
}

/** What the manager's own supabase-js session gets from an RPC. */
async function rpcAs<T>(email: string, name: 'manager_dashboard' | 'team_progress'): Promise<T[]> {
  const client = await signedInClient(email)
  const { data, error } = await client.rpc(name, {})
  if (error) throw error
  return data as unknown as T[]
}

describe('team', () => {
  it("shows the manager the team's counters as the API computes them, the team, and a member's rights", async () => {
    const manager = await as('manager@example.com')
    await manager.getByRole('heading', { name: 'Tableau de bord' }).waitFor()
    const [expected] = await rpcAs<DashboardRow>('manager@example.com', 'manager_dashboard')
    expect(expected?.team_size).toBe(5)
    const counter = (label: string) => manager.getByTestId(`counter-${label}`)
    await counter('Équipe').getByText(String(expected?.team_size), { exact: true }).waitFor()
    expect(await counter('En attente').innerText()).toBe(String(expected?.pending_count))
    expect(await counter('Validés').innerText()).toBe(String(expected?.validated_count))
    expect(await counter('Refusés').innerText()).toBe(String(expected?.refused_count))
    await manager.getByRole('table', { name: "État d'avancement de l'équipe" }).getByRole('button', { name: 'Voir les droits de Julie Martin' }).waitFor()

    const team = await rpcAs<TeamRow>('manager@example.com', 'team_progress')
    await mainMenu(manager).getByRole('link', { name: 'Équipe' }).click()
    await manager.waitForURL('**/app/team')
    const table = manager.getByRole('table', { name: "Membres de l'équipe" })
    await table.waitFor()
    const names = await table.getByRole('button', { name: /^Voir les droits de / }).allInnerTexts()
    expect(names).toEqual(team.map((member) => member.full_name))
    expect(names).toEqual(['Lucas Bonnet', 'Emma Girard', 'Julie Martin', 'Paul Mercier', 'Thomas Roux'])

    const julie = team.find((member) => member.full_name === 'Julie Martin')
    await table.getByRole('button', { name: 'Voir les droits de Julie Martin' }).click()
    const dialog = manager.getByRole('dialog', { name: 'Droits de Julie Martin' })
    const rights = dialog.getByRole('table', { name: 'Droits de Julie Martin' })
    await rights.getByRole('row').filter({ hasText: 'Comptable' }).filter({ hasText: 'SAP Finance' }).waitFor()
    expect(await rights.getByRole('row').count()).toBe((julie?.rights_count ?? 0) + 1)
    await manager.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
  })

  it("shows the user their identity, role, manager and decision history", async () => {
    const user = await as('user@example.com')
    await user.goto('/app/profile')
    await user.getByRole('heading', { name: 'Profil' }).waitFor()
    const identity = user.getByRole('region', { name: 'Identité' })
    await identity.getByText('Julie Martin', { exact: true }).waitFor()
    const field = (label: string) => identity.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]').innerText()
    expect(await field('E-mail')).toBe('user@example.com')
    expect(await field('Poste')).toBe('Comptable')
    expect(await field('Département')).toBe('Finance')
    expect(await field('Rôle')).toBe('Utilisateur')
    expect(await field('Manager')).toBe('Marc Dubois')
    expect(await field('Dernière connexion')).toMatch(/\d{4} à \d{2}:\d{2}$/)

    const history = user.getByRole('table', { name: 'Historique des décisions' })
    const own = history.getByRole('row').filter({ hasText: 'Toujours nécessaire' })
    await own.waitFor()
    expect(await own.innerText()).toContain("Validé par l'utilisateur")
    await history.getByRole('row').filter({ hasText: 'Validé par le manager' }).filter({ hasText: 'Marc Dubois' }).first().waitFor()
    await user.getByRole('table', { name: 'Mes droits' }).getByRole('row').filter({ hasText: 'GitLab' }).waitFor()
  })
})
