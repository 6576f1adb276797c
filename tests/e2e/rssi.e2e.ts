import { readFile } from 'node:fs/promises'
import { format, subMonths } from 'date-fns'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser, newContext, signIn } from './support/browser'
import { signedInClient } from './support/api'

let browser: Browser
let context: BrowserContext
let page: Page

const apiAs = signedInClient

interface DashboardJson {
  counters: { validation_rate: number | null; at_risk_rights: number; reviews_in_progress: number; reviews_completed: number }
  compliance_by_application: { application_id: string; application_name: string; total_rights: number }[]
}

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

const counter = (label: string) => page.getByTestId(`counter-${label}`)
const rateText = (rate: number | null) => (rate === null ? '-' : `${rate}%`)

describe('RSSI views', () => {
  it('shows the counters Postgres computes, filters them and exports every filtered right as CSV', async () => {
    const api = await apiAs('rssi@example.com')
    const all = await api.rpc('rssi_dashboard', {})
    expect(all.error).toBeNull()
    const expected = all.data as unknown as DashboardJson
    // Completed reviews are activity figures: they count within the window, by default Mois (the last month).
    const today = new Date()
    const windowed = await api.rpc('rssi_dashboard', { p_from: format(subMonths(today, 1), 'yyyy-MM-dd'), p_to: format(today, 'yyyy-MM-dd') })
    const expectedReviews = (windowed.data as unknown as DashboardJson).counters

    await signIn(page, 'rssi@example.com')
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor()
    expect(await page.getByRole('group', { name: 'Période' }).getByRole('button', { name: 'Mois' }).getAttribute('aria-pressed')).toBe('true')
    await counter('Taux de conformité').getByText(rateText(expected.counters.validation_rate), { exact: true }).waitFor()
    expect(await counter('Comptes à risque').innerText()).toBe(String(expected.counters.at_risk_rights))
    expect(await counter('Revues en cours').innerText()).toBe(String(expectedReviews.reviews_in_progress))
    expect(await counter('Revues complétées').innerText()).toBe(String(expectedReviews.reviews_completed))
    await page.getByRole('list', { name: 'Risques détectés' }).getByText('Comptes inactifs').waitFor()

    // Filter on the application with the most rights.
    const target = [...expected.compliance_by_application].sort((a, b) => b.total_rights - a.total_rights)[0]
    expect(target).toBeDefined()
    const filtered = await api.rpc('rssi_dashboard', { p_application_id: target!.application_id })
    const filteredRate = (filtered.data as unknown as DashboardJson).counters.validation_rate
    const filteredCount = await api.rpc('rssi_rights_count', { p_application_id: target!.application_id })
    expect(filteredCount.error).toBeNull()

    await page.getByRole('button', { name: 'Filtres' }).click()
    const dialog = page.getByRole('dialog', { name: 'Filtres' })
    await dialog.getByLabel('Application').selectOption(target!.application_id)
    await dialog.getByRole('button', { name: 'Appliquer' }).click()
    await page.getByRole('button', { name: 'Filtres (1)' }).waitFor()
    await counter('Taux de conformité').getByText(rateText(filteredRate), { exact: true }).waitFor()
    await page.getByRole('progressbar', { name: `Conformité ${target!.application_name}` }).waitFor()
    expect(await page.getByRole('progressbar', { name: /^Conformité / }).count()).toBe(1)

    await page.getByRole('button', { name: 'Semaine' }).click()
    await page.getByRole('button', { name: 'Semaine', pressed: true }).waitFor()

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exporter CSV' }).click()])
    expect(download.suggestedFilename()).toMatch(/^revue-droits-semaine-\d{4}-\d{2}-\d{2}\.csv$/)
    const bytes = await readFile((await download.path())!)
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = bytes.toString('utf8').slice(1).split('\r\n')
    expect(lines.pop()).toBe('')
    expect(lines[0]).toBe("Application;Utilisateur;Rôle;Statut;Date d'attribution;Dernière utilisation;Campagne")
    expect(lines).toHaveLength(Number(filteredCount.data) + 1)
    for (const line of lines.slice(1)) expect(line.startsWith(`${target!.application_name};`) || line.startsWith(`"${target!.application_name}`)).toBe(true)

    await page.getByRole('link', { name: 'Voir les campagnes' }).click()
    await page.waitForURL('**/app/campaigns')
  })

  it('pages through the audit trail 100 events at a time, filtered on the server', async () => {
    const api = await apiAs('rssi@example.com')
    let count = Number((await api.rpc('rssi_audit_count', {})).data)
    if (count <= 100) {
      // Audited changes of the rssi's own position, ending on the original value, so that there is a second page.
      const { data: me } = await api.from('users').select('id, position').eq('email', 'rssi@example.com').single()
      const original = me!.position
      const updates = 2 * Math.ceil((101 - count) / 2)
      for (let i = 0; i < updates; i++) {
        const { error } = await api.from('users').update({ position: i % 2 === 0 ? `${original ?? ''} (audit e2e)` : original }).eq('id', me!.id)
        expect(error).toBeNull()
      }
      count = Number((await api.rpc('rssi_audit_count', {})).data)
    }
    expect(count).toBeGreaterThan(100)

    await signIn(page, 'rssi@example.com')
    await page.getByRole('link', { name: 'Audit' }).click()
    await page.getByRole('heading', { name: 'Audit' }).waitFor()
    // Signing in is itself audited: count again once the page is open.
    const countText = page.getByTestId('audit-count')
    // The count is written the French way: « 1 234 événements » past a thousand.
    await countText.getByText(/^\d[\d\u202f]* événements$/).waitFor()
    count = Number((await api.rpc('rssi_audit_count', {})).data)
    await countText.getByText(`${count.toLocaleString('fr-FR')} événements`).waitFor()
    const rows = page.getByRole('table', { name: "Journal d'audit" }).locator('tbody tr')
    await rows.nth(99).waitFor()
    expect(await rows.count()).toBe(100)
    const firstOfPageOne = await rows.first().innerText()

    const pages = Math.ceil(count / 100)
    await page.getByRole('button', { name: 'Suivant' }).click()
    await page.getByText(`Page 2 sur ${pages}`).waitFor()
    await page.getByText(`Événements 101 à ${Math.min(200, count)} sur ${count}`).waitFor()
    // The pager moves at once while page 1's rows stay on screen, marked busy, until page 2 arrives.
    await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0)
    expect(await rows.first().innerText()).not.toBe(firstOfPageOne)
    await page.getByRole('button', { name: 'Précédent' }).click()
    await page.getByText(`Page 1 sur ${pages}`).waitFor()

    // A server-side filter: the action 'update'.
    const updates = Number((await api.rpc('rssi_audit_count', { p_action: 'update' })).data)
    await page.getByLabel('Action', { exact: true }).selectOption('update')
    await countText.getByText(new RegExp(`^${updates.toLocaleString('fr-FR')} événements?$`)).waitFor()
    // Each event reads as a sentence; its raw JSON opens on request.
    const signInRow = rows.filter({ hasText: "Connexion de l'utilisateur Claire Fournier" }).first()
    await signInRow.waitFor()
    const toggle = signInRow.getByRole('button', { name: 'Détails (JSON)' })
    await toggle.click()
    await signInRow.getByText('"last_login"', { exact: false }).waitFor()

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exporter CSV' }).click()])
    const text = (await readFile((await download.path())!)).toString('utf8')
    expect(text.startsWith('\uFEFFDate;Utilisateur;E-mail;Action;Événement;')).toBe(true)
    expect(text.split('\r\n')[0]!.endsWith(';Détails (JSON)')).toBe(true)
    expect(text).toContain(";Connexion de l'utilisateur Claire Fournier (Dernière connexion : ")
    expect(text.slice(1).split('\r\n').filter((line) => line.includes(';Modification;')).length).toBe(updates)
  })

  it('refuses the audit page and the RSSI data to another role', async () => {
    const admin = await apiAs('admin@example.com')
    const { error } = await admin.rpc('rssi_dashboard', {})
    expect(error?.code).toBe('42501')
    await signIn(page, 'admin@example.com')
    await page.goto('/app/audit')
    await page.getByRole('heading', { name: 'Accès refusé' }).waitFor()
  })
})
