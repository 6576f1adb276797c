import type { Browser, BrowserContext, Page } from 'playwright-core'
import { toCsv } from '../../src/lib/csv'
import { DEMO_PASSWORD, launchBrowser, newContext, signIn } from './support/browser'
import { serviceClient, signedInClient, type ApiClient } from './support/api'

// Issue 16's journey: an administrator imports a directory of 2,000 people with a manager tree, then a second file, in
// « Import complet » mode, that moves 10, adds 5 and leaves 3 out. The 3 can no longer sign in and their rights are the
// RSSI's first risk. The people are this run's own (their e-mails carry RUN); the second file also lists everyone else who is
// active, as an HR export would, so that nobody else leaves the shared backend's directory.
const RUN = Date.now().toString(36)
const HEADER = ['E-mail', 'Prénom', 'Nom', 'Poste', 'Département', 'E-mail du manager', 'Rôle']
const email = (index: number) => `dir.${RUN}.${String(index).padStart(4, '0')}@import.example.org`

interface Person {
  email: string
  first_name: string
  last_name: string
  position: string | null
  department: string | null
  manager_email: string | null
  role: string
}

/** 2,000 people: 20 department heads, each with about 100 people under 4 team managers. */
function firstDirectory(): Person[] {
  return Array.from({ length: 2000 }, (_, index) => {
    const head = index < 20
    const teamManager = index >= 20 && index < 100
    const manager = head ? null : teamManager ? email(index % 20) : email(20 + (index % 80))
    return {
      email: email(index),
      first_name: 'Agent',
      last_name: `Annuaire ${index}`,
      position: head ? 'Directeur' : teamManager ? 'Chef d’équipe' : 'Collaborateur',
      department: `Département ${index % 20}`,
      manager_email: manager,
      role: head || teamManager ? 'manager' : 'user',
    }
  })
}

const csvFile = (name: string, people: Person[]) => ({
  name,
  mimeType: 'text/csv',
  buffer: Buffer.from(toCsv(HEADER, people.map((p) => [p.email, p.first_name, p.last_name, p.position, p.department, p.manager_email, p.role])), 'utf8'),
})

let browser: Browser
let context: BrowserContext
let page: Page
let service: ApiClient
let admin: ApiClient
let rssi: ApiClient

/** Everyone active in the directory, as the second file must list them. */
async function activeDirectory(): Promise<Person[]> {
  const people: Person[] = []
  for (let from = 0; ; from += 1000) {
    const { data, error } = await service
      .from('users')
      .select('email, first_name, last_name, position, department, role, manager:manager_id(email)')
      .eq('active', true)
      .order('id')
      .range(from, from + 999)
    if (error) throw error
    const rows = data as unknown as (Omit<Person, 'manager_email'> & { manager: { email: string } | null })[]
    people.push(...rows.map(({ manager, ...person }) => ({ ...person, manager_email: manager?.email ?? null })))
    if (rows.length < 1000) return people
  }
}

async function deactivatedRisk(): Promise<{ key: string; label: string; count: number }> {
  const { data, error } = await rssi.rpc('rssi_dashboard', {})
  if (error) throw error
  return (data as unknown as { risks: { key: string; label: string; count: number }[] }).risks[0]!
}

async function importThroughDialog(file: ReturnType<typeof csvFile>, options: { complete: boolean; expect: RegExp }) {
  await page.goto('/app/users')
  await page.getByRole('button', { name: "Importer l'annuaire" }).click()
  const dialog = page.getByRole('dialog', { name: "Import de l'annuaire" })
  if (options.complete) await dialog.getByRole('checkbox', { name: /Import complet/ }).check()
  await dialog.getByLabel('Fichier CSV').setInputFiles(file)
  await dialog.getByText(options.expect).waitFor({ timeout: 60_000 })
  await dialog.getByRole('button', { name: /^Importer \d/ }).click()
  // A first import sends its 2,000 invitations a hundred at a time after the import itself.
  await dialog.getByText(/^Import terminé/).waitFor({ timeout: 420_000 })
  const outcome = await dialog.getByText(/^Import terminé/).innerText()
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'detached' })
  return outcome
}

beforeAll(async () => {
  browser = await launchBrowser()
  service = serviceClient()
  admin = await signedInClient('admin@example.com')
  rssi = await signedInClient('rssi@example.com')
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

describe('directory import', () => {
  const first = firstDirectory()
  const leavers = [first[1500]!, first[1501]!, first[1502]!]
  const added = Array.from({ length: 5 }, (_, index) => ({ ...first[0]!, email: email(2000 + index), last_name: `Nouveau ${index}`, manager_email: email(20), role: 'user' }))

  it('imports 2,000 people with their manager tree, then a complete file that moves 10, adds 5 and removes 3', { timeout: 600_000 }, async () => {
    await signIn(page, 'admin@example.com')
    // Bottom of the tree first: each manager comes after the people they manage.
    const created = await importThroughDialog(csvFile('annuaire.csv', [...first].reverse()), { complete: false, expect: /^Annuaire : 2\s000 créations/ })
    expect(created).toMatch(/2\s000 personnes créées.*2\s000 invitations envoyées/)
    const { data: tree } = await service.from('users').select('email, manager:manager_id(email)').in('email', [email(0), email(25), email(1999)])
    expect(Object.fromEntries((tree as unknown as { email: string; manager: { email: string } | null }[]).map((p) => [p.email, p.manager?.email ?? null]))).toEqual({
      [email(0)]: null,
      [email(25)]: email(5),
      [email(1999)]: email(20 + (1999 % 80)),
    })

    // The three who will leave have signed in once and hold rights.
    const { data: accounts } = await service.rpc('auth_account_ids', { p_emails: leavers.map((p) => p.email) })
    for (const account of accounts as { id: string }[]) {
      const { error } = await service.auth.admin.updateUserById(account.id, { password: DEMO_PASSWORD, email_confirm: true })
      if (error) throw error
    }
    expect((await (await signedInClient(leavers[0]!.email)).auth.getUser()).data.user?.email).toBe(leavers[0]!.email)
    const rights = await admin.rpc('import_user_rights', {
      rows: leavers.map((p, index) => ({ email: p.email, application: 'SAP Finance', role_name: `Départ ${RUN} ${index}` })),
    })
    expect(rights.error).toBeNull()
    const riskBefore = await deactivatedRisk()

    // The second file: everyone active but the three, ten moved to another manager, five more.
    const moved = new Set(first.slice(1000, 1010).map((p) => p.email))
    const second = (await activeDirectory())
      .filter((p) => !leavers.some((leaver) => leaver.email === p.email))
      .map((p) => (moved.has(p.email) ? { ...p, manager_email: email(99) } : p))
    const outcome = await importThroughDialog(csvFile('annuaire-complet.csv', [...second, ...added]), {
      complete: true,
      expect: /^Import complet : 3 personnes quitteront l'annuaire/,
    })
    expect(outcome).toMatch(/5 personnes créées, \d+ mises à jour, 3 personnes désactivées, 5 invitations envoyées/)
    // The ten moved, at least: people other journeys made on the shared backend may be normalised by the round trip.
    expect(Number(/(\d+) mises à jour/.exec(outcome)?.[1])).toBeGreaterThanOrEqual(10)
    const { data: movedNow, error: movedError } = await service.from('users').select('email, manager:manager_id(email)').in('email', [...moved])
    expect(movedError).toBeNull()
    expect((movedNow as unknown as { manager: { email: string } | null }[]).map((p) => p.manager?.email)).toEqual(Array(10).fill(email(99)))

    for (const leaver of leavers) {
      const client = serviceClient()
      const { error } = await client.auth.signInWithPassword({ email: leaver.email, password: DEMO_PASSWORD })
      expect(error, leaver.email).toMatchObject({ code: 'user_banned' })
    }
    const riskAfter = await deactivatedRisk()
    expect(riskAfter).toEqual({ key: 'deactivated', label: 'Comptes désactivés avec droits actifs', count: riskBefore.count + 3 })

    // On the RSSI's dashboard, first of the risks.
    const rssiContext = await newContext(browser)
    const rssiPage = await rssiContext.newPage()
    await signIn(rssiPage, 'rssi@example.com')
    const risks = rssiPage.getByRole('list', { name: 'Risques détectés' }).getByRole('listitem')
    await risks.first().waitFor()
    expect(await risks.first().innerText()).toMatch(new RegExp(`^Comptes désactivés avec droits actifs\\s+${riskAfter.count}$`))
    await rssiContext.close()
  })
})
