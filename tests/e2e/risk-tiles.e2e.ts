import { randomUUID } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { signedInClient, type ApiClient } from './support/api'
import { launchBrowser, newContext, signIn } from './support/browser'

// The RSSI's « Rôles incompatibles » counts what Conformité lists: the violations of the separation-of-duties rules
// that are switched on. The journey brings its own person, applications, rights and two rules over the same roles,
// one on and one off, named after this run; the rules are removed at the end, so that no other journey's figures move.

const OWNERS = {
  ra_id: '00000000-0000-4000-a000-000000000005',
  bpo_metier_id: '00000000-0000-4000-a000-000000000003',
  bpo_groupe_id: '00000000-0000-4000-a000-000000000004',
}

const RUN = randomUUID().slice(0, 8)
const ENTRY_APPLICATION = `Saisie des notes de frais ${RUN}`
const PAYMENT_APPLICATION = `Paiements ${RUN}`
const ENTRY_ROLE = `Saisie frais ${RUN}`
const PAYMENT_ROLE = `Mise en paiement ${RUN}`
const RULE_ON = `Frais : saisie et paiement ${RUN}`
const RULE_OFF = `Frais : règle suspendue ${RUN}`
const MEMBER_EMAIL = `frais.${RUN}@example.org`
const MEMBER_NAME = `Nadia Lemaire ${RUN}`

let browser: Browser
let context: BrowserContext
let page: Page
let admin: ApiClient
const ruleIds: string[] = []

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signedInClient('admin@example.com')
  for (const name of [ENTRY_APPLICATION, PAYMENT_APPLICATION]) {
    const { error } = await admin.rpc('create_application', { name, description: 'Application du parcours des risques', ...OWNERS })
    if (error) throw error
  }
  const { error: memberError } = await admin.from('users').insert({ email: MEMBER_EMAIL, first_name: 'Nadia', last_name: `Lemaire ${RUN}`, role: 'user' })
  if (memberError) throw memberError
  const { data: imported, error: importError } = await admin.rpc('import_user_rights', {
    rows: [
      { email: MEMBER_EMAIL, application: ENTRY_APPLICATION, role_name: ENTRY_ROLE },
      { email: MEMBER_EMAIL, application: PAYMENT_APPLICATION, role_name: PAYMENT_ROLE },
    ],
  })
  if (importError) throw importError
  expect(imported).toMatchObject({ success: true, imported: 2 })
  for (const [name, enabled] of [[RULE_ON, true], [RULE_OFF, false]] as const) {
    const { data, error } = await admin
      .from('control_rules')
      .insert({
        name,
        description: 'Une même personne ne saisit pas et ne paie pas ses frais.',
        global: true,
        parameters: { incompatible_roles: [ENTRY_ROLE, PAYMENT_ROLE] },
        enabled,
      })
      .select('id')
      .single()
    if (error) throw error
    ruleIds.push(data.id)
  }
  context = await newContext(browser)
  page = await context.newPage()
})
afterAll(async () => {
  if (ruleIds.length > 0) await admin.from('control_rules').delete().in('id', ruleIds)
  await context?.close()
  await browser?.close()
})

/** The separation-of-duties rules that exist now (whatever other journeys left), by name. */
async function separationRules(): Promise<string[]> {
  const { data, error } = await admin.from('control_rules').select('name, parameters')
  if (error) throw error
  return data
    .filter((rule) => rule.parameters !== null && typeof rule.parameters === 'object' && 'incompatible_roles' in rule.parameters)
    .map((rule) => rule.name)
}

describe('RSSI risk tiles', () => {
  it('shows « Rôles incompatibles » equal to the violations Conformité lists, and opens the list behind it', async () => {
    await signIn(page, 'rssi@example.com')

    // On Conformité: the rule that is on finds the person; the one that is off finds nothing, and says so.
    await page.goto('/app/compliance')
    const rulesTable = page.getByRole('table', { name: 'Règles de contrôle' })
    const ruleRow = (name: string) => rulesTable.getByRole('row').filter({ has: page.getByText(name, { exact: true }) })
    await ruleRow(RULE_ON).waitFor()
    expect(await ruleRow(RULE_ON).getByRole('cell').nth(3).innerText()).toBe('1')
    expect(await ruleRow(RULE_OFF).getByRole('cell').nth(2).innerText()).toBe('Désactivée')
    expect(await ruleRow(RULE_OFF).getByRole('cell').nth(3).innerText()).toBe('-')
    let listed = 0
    for (const name of await separationRules()) {
      const violations = (await ruleRow(name).getByRole('cell').nth(3).innerText()).trim()
      listed += violations === '-' ? 0 : Number(violations)
    }
    expect(listed).toBeGreaterThanOrEqual(1)

    // On the dashboard, the same number, and behind it, the list of those violations.
    await page.goto('/app/dashboard')
    const tile = page.getByRole('list', { name: 'Risques détectés' }).getByRole('button', { name: /^Rôles incompatibles \d/ })
    await tile.waitFor()
    expect(await tile.getAttribute('aria-label')).toBe(`Rôles incompatibles ${listed}, voir la liste`)
    await tile.click()
    const dialog = page.getByRole('dialog', { name: 'Rôles incompatibles' })
    const table = dialog.getByRole('table', { name: 'Rôles incompatibles' })
    await table.waitFor()
    const pageLine = dialog.getByRole('status').filter({ hasText: / sur / })
    await pageLine.waitFor()
    expect(await pageLine.innerText()).toMatch(new RegExp(`sur ${listed} violations?$`))
    const row = table.getByRole('row').filter({ hasText: MEMBER_NAME })
    await row.waitFor()
    expect(await row.getByText(RULE_ON).isVisible()).toBe(true)
    // The two rights that make the violation, by role name.
    expect(await row.getByRole('listitem').allInnerTexts()).toEqual([
      `« ${PAYMENT_ROLE} » sur ${PAYMENT_APPLICATION}`,
      `« ${ENTRY_ROLE} » sur ${ENTRY_APPLICATION}`,
    ])
    expect(await table.getByRole('row').filter({ hasText: RULE_OFF }).count()).toBe(0)
    if (listed <= 25) expect(await table.getByRole('row').count()).toBe(listed + 1)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
  })
})
