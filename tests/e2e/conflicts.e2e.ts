import { randomUUID } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { serviceClient, signedInClient, type ApiClient } from './support/api'
import { DEMO_PASSWORD, launchBrowser, newContext, signIn } from './support/browser'

// A reviewer sees, on the item of Mes revues and in the validation dialog, that its holder also
// holds a role which an active control rule forbids to combine with it, and is advised to refuse one of the two; the
// inactivity recommendation is explained in one sentence too. The seed's incompatible-roles rule is disabled, so the
// journey brings its own manager, team member, applications, rights and rule, named after this run: no demo person's
// queue or figures change, and the rule is removed at the end.

const ACTIVE_CAMPAIGN = '00000000-0000-4000-c000-000000000002'
const OWNERS = {
  ra_id: '00000000-0000-4000-a000-000000000005',
  bpo_metier_id: '00000000-0000-4000-a000-000000000003',
  bpo_groupe_id: '00000000-0000-4000-a000-000000000004',
}

const RUN = randomUUID().slice(0, 8)
const ENTRY_APPLICATION = `Saisie comptable ${RUN}`
const APPROVAL_APPLICATION = `Circuit factures ${RUN}`
const ENTRY_ROLE = `Comptable ${RUN}`
const APPROVAL_ROLE = `Approbateur factures ${RUN}`
const RULE = `Séparation saisie / validation ${RUN}`
const MANAGER_EMAIL = `manager.conflits.${RUN}@example.com`
const MEMBER_EMAIL = `membre.conflits.${RUN}@example.org`
const MEMBER_NAME = `Julien Marchand ${RUN}`

const CONFLICT_SENTENCE = `Ce collaborateur détient aussi « ${APPROVAL_ROLE} » sur ${APPROVAL_APPLICATION} : combinaison interdite par la règle « ${RULE} ».`
/** One sentence that gives the advice and its reason. */
const ONE_SENTENCE = (advice: string) => new RegExp(`^Recommandation : ${advice}, car [^.]+\\.$`)

let browser: Browser
let context: BrowserContext
let page: Page
let admin: ApiClient
let ruleId: string

async function importRights(rows: { application: string; role_name: string }[], campaignId: string | null) {
  const { data, error } = await admin.rpc('import_user_rights', {
    rows: rows.map((row) => ({ ...row, email: MEMBER_EMAIL })),
    ...(campaignId ? { campaign_id: campaignId } : {}),
  })
  if (error) throw error
  expect(data).toMatchObject({ success: true, imported: rows.length })
}

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signedInClient('admin@example.com')
  for (const name of [ENTRY_APPLICATION, APPROVAL_APPLICATION]) {
    const { error } = await admin.rpc('create_application', { name, description: 'Application du parcours des conflits', ...OWNERS })
    if (error) throw error
  }
  const service = serviceClient()
  const { data: account, error: accountError } = await service.auth.admin.createUser({ email: MANAGER_EMAIL, password: DEMO_PASSWORD, email_confirm: true })
  if (accountError) throw accountError
  const { error: managerError } = await admin
    .from('users')
    .insert({ id: account.user.id, email: MANAGER_EMAIL, first_name: 'Sophie', last_name: `Caron ${RUN}`, role: 'manager' })
  if (managerError) throw managerError
  const { error: memberError } = await admin
    .from('users')
    .insert({ email: MEMBER_EMAIL, first_name: 'Julien', last_name: `Marchand ${RUN}`, role: 'user', manager_id: account.user.id })
  if (memberError) throw memberError
  // The right under review, in the running campaign; the other one outside any campaign, as a right held but not reviewed.
  // Neither was ever used: the inactivity recommendation applies to the first.
  await importRights([{ application: ENTRY_APPLICATION, role_name: ENTRY_ROLE }], ACTIVE_CAMPAIGN)
  await importRights([{ application: APPROVAL_APPLICATION, role_name: APPROVAL_ROLE }], null)
  // Disabled at first: the journey shows that the notice follows the rule, not the roles' names.
  const { data: rule, error: ruleError } = await admin
    .from('control_rules')
    .insert({
      name: RULE,
      description: 'Une même personne ne saisit pas et n’approuve pas les factures.',
      global: true,
      parameters: { incompatible_roles: [ENTRY_ROLE, APPROVAL_ROLE] },
      enabled: false,
    })
    .select('id')
    .single()
  if (ruleError) throw ruleError
  ruleId = rule.id
  context = await newContext(browser)
  page = await context.newPage()
})
afterAll(async () => {
  if (ruleId) await admin.from('control_rules').delete().eq('id', ruleId)
  await context?.close()
  await browser?.close()
})

/** The row of Mes revues of the right under review, found by its Valider button. */
function entryRow() {
  return page.getByRole('row').filter({
    has: page.getByRole('button', { name: `Valider ${ENTRY_APPLICATION} — ${ENTRY_ROLE} (${MEMBER_NAME})`, exact: true }),
  })
}

describe('Conflicts shown where decisions are taken', () => {
  it('tells the reviewer, on the item and in the validation dialog, of the incompatible role and advises a refusal', async () => {
    await signIn(page, MANAGER_EMAIL)
    await page.goto('/app/reviews')
    await page.getByRole('heading', { name: 'Mes revues' }).waitFor()
    const row = entryRow()
    await row.waitFor()
    // Never used: the recommendation, and no conflict while the rule is off.
    await row.getByText('Jamais utilisé').waitFor()
    await page.waitForLoadState('networkidle')
    expect(await row.getByText('Rôles incompatibles').count()).toBe(0)
    expect(await row.getByText(CONFLICT_SENTENCE).count()).toBe(0)

    const { error } = await admin.from('control_rules').update({ enabled: true }).eq('id', ruleId)
    if (error) throw error
    await page.reload()
    await row.getByText(CONFLICT_SENTENCE, { exact: true }).waitFor()
    expect(await row.getByText('Rôles incompatibles').isVisible()).toBe(true)
    expect(await row.getByText('Recommandation : refuser l’un des deux droits.', { exact: true }).isVisible()).toBe(true)

    // The validation dialog says it all again, each recommendation explained in one sentence.
    await row.getByRole('button', { name: /^Valider / }).click()
    const dialog = page.getByRole('dialog', { name: 'Revue du droit' })
    await dialog.getByText(CONFLICT_SENTENCE, { exact: true }).waitFor()
    expect(await dialog.getByText(ONE_SENTENCE('refuser l’un des deux droits')).count()).toBe(1)
    expect(await dialog.getByText('Jamais utilisé', { exact: true }).isVisible()).toBe(true)
    expect(await dialog.getByText(ONE_SENTENCE('refuser ce droit')).count()).toBe(1)
    // The reviewer can still decide: the notice advises, the reviewer chooses.
    expect(await dialog.getByRole('button', { name: 'Refuser', exact: true }).isEnabled()).toBe(true)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
  })
})
