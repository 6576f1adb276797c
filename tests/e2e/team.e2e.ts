import type { Browser } from 'playwright-core'
import { signedInClient } from './support/api'
import { launchBrowser, mainMenu, signedInSessions } from './support/browser'

// Read-only journeys: the figures are compared with what the API answers at the time, so they hold whatever other
// e2e files decided before.

interface TeamRow {
  full_name: string
  rights_count: number
  pending_count: number
  validated_count: number
  refused_count: number
  treatment_required_count: number
  treated_count: number
}

interface QueueRow {
  campaign_name: string | null
  rights_count: number
}

interface DashboardRow {
  team_size: number
  pending_count: number
  validated_count: number
  refused_count: number
}

let browser: Browser
const { as, closeAll } = signedInSessions(() => browser)

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
afterEach(async () => {
  await closeAll()
})

/** What the manager's own supabase-js session gets from an RPC. */
async function rpcAs<T>(email: string, name: 'manager_dashboard' | 'team_progress' | 'review_queue_summary'): Promise<T[]> {
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

describe('Figures that add up, each role’s work where they land', () => {
  it.each([1440, 375])('shows every part of each member’s rights beside their total on Équipe, at %i px', async (width) => {
    const manager = await as('manager@example.com')
    await manager.setViewportSize({ width, height: 900 })
    await manager.goto('/app/team')
    const team = await rpcAs<TeamRow>('manager@example.com', 'team_progress')
    const rows = manager.getByRole('table', { name: "Membres de l'équipe" }).locator('tbody tr')
    await rows.first().getByRole('button', { name: /^Voir les droits de / }).waitFor()
    expect(await rows.count()).toBe(team.length)
    for (const [index, member] of team.entries()) {
      // Droits, En attente, Validés, Refusés, En traitement, Traités: the figures in the order of the columns.
      const figures = (await rows.nth(index).locator('td.tabular-nums').allInnerTexts()).map(Number)
      expect(figures).toEqual([
        member.rights_count,
        member.pending_count,
        member.validated_count,
        member.refused_count,
        member.treatment_required_count,
        member.treated_count,
      ])
      const [total = 0, ...parts] = figures
      expect(parts.reduce((sum, part) => sum + part, 0)).toBe(total)
      // Every figure within the screen: none behind a sideways scroll on a phone.
      for (const cell of await rows.nth(index).locator('td.tabular-nums').all()) {
        const box = (await cell.boundingBox())!
        expect(box.x + box.width).toBeLessThanOrEqual(width)
      }
    }
  })

  it.each(['bpo@example.com', 'bpo.groupe@example.com', 'ra@example.com'])(
    'lands %s on their queue, which counts what the bell counts and leads to Mes revues',
    async (email) => {
      const reviewer = await as(email)
      const queue = await rpcAs<QueueRow>(email, 'review_queue_summary')
      const waiting = queue.reduce((sum, row) => sum + row.rights_count, 0)
      expect(waiting).toBeGreaterThan(0)
      const table = reviewer.getByRole('table', { name: 'Ma file de revue' })
      await table.locator('tbody tr').first().waitFor()
      expect(await table.locator('tbody tr').count()).toBe(queue.length)
      // The bell counts once its own query is back: wait for the name that carries the queue's total.
      await reviewer
        .getByRole('banner')
        .getByRole('link', { name: `Notifications : mes revues, ${waiting} ${waiting > 1 ? 'droits' : 'droit'} en attente de ma décision` })
        .waitFor()
      await reviewer.getByRole('link', { name: 'Traiter dans Mes revues' }).click()
      await reviewer.waitForURL('**/app/reviews')
    },
  )
})
