import { randomUUID } from 'node:crypto'
import type { Browser } from 'playwright-core'
import { serviceClient, signedInClient } from './support/api'
import { DEMO_PASSWORD, launchBrowser, signedInSessions } from './support/browser'

// A manager delegates one right to a colleague, who decides it « pour le compte de » the manager; the colleague's bell
// and dashboard count it while it waits; the audit trail names both; the manager decides the other right and signs the
// campaign off. The journey brings its own manager, colleague, team member and rights into the running demo campaign,
// so that no other file's rights or sign-offs are touched, and the colleague has nothing else waiting.

const ACTIVE_CAMPAIGN = '00000000-0000-4000-c000-000000000002'
const CAMPAIGN_NAME = 'Revue T4 2026 — comptes standard'
const STATEMENT = "Je certifie avoir revu l'ensemble des droits qui m'étaient confiés"

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

/**
 * A manager and a colleague who can sign in, one member of the manager's team, and two rights of that member in the
 * running campaign.
 */
async function arrangeTeam() {
  const tag = randomUUID().slice(0, 8)
  const service = serviceClient()
  const managerEmail = `manager.delegation.${tag}@example.com`
  const colleagueEmail = `collegue.delegation.${tag}@example.com`
  const accountOf = async (email: string) => {
    const { data, error } = await service.auth.admin.createUser({ email, password: DEMO_PASSWORD, email_confirm: true })
    if (error) throw error
    return data.user.id
  }
  const admin = await signedInClient('admin@example.com')
  const managerId = await accountOf(managerEmail)
  const memberEmail = `membre.delegation.${tag}@example.com`
  const { error: profileError } = await admin.from('users').insert([
    { id: managerId, email: managerEmail, first_name: 'Hélène', last_name: `Garnier ${tag}`, role: 'manager' },
    { id: await accountOf(colleagueEmail), email: colleagueEmail, first_name: 'Claire', last_name: `Fontaine ${tag}`, role: 'user' },
  ])
  if (profileError) throw profileError
  const { error: memberError } = await admin
    .from('users')
    .insert([{ email: memberEmail, first_name: 'Bruno', last_name: `Lemaire ${tag}`, role: 'user', manager_id: managerId }])
  if (memberError) throw memberError
  const roles = { delegated: `Délégué ${tag}`, kept: `Conservé ${tag}` }
  const { data: report, error: importError } = await admin.rpc('import_user_rights', {
    rows: Object.values(roles).map((role_name) => ({ email: memberEmail, application: 'GitLab', role_name })),
    campaign_id: ACTIVE_CAMPAIGN,
  })
  if (importError) throw importError
  expect(report).toMatchObject({ success: true, imported: 2 })
  return { managerEmail, managerName: `Hélène Garnier ${tag}`, colleagueEmail, colleagueName: `Claire Fontaine ${tag}`, memberName: `Bruno Lemaire ${tag}`, roles }
}

describe('delegation and sign-off', () => {
  it('lets a manager delegate a right to a colleague who decides it for them, then sign the campaign off', async () => {
    const team = await arrangeTeam()
    const manager = await as(team.managerEmail)
    await manager.goto('/app/reviews')
    await manager.getByRole('heading', { name: 'Mes revues' }).waitFor()
    const signOff = manager.getByRole('button', { name: `${STATEMENT} — ${CAMPAIGN_NAME}` })
    await signOff.waitFor()
    expect(await signOff.isDisabled()).toBe(true)

    // Déléguer the one right to the colleague, found by typing, with a reason and an end date.
    await manager.getByRole('button', { name: 'Déléguer', exact: true }).click()
    const dialog = manager.getByRole('dialog', { name: 'Déléguer mes revues' })
    await dialog.getByRole('combobox', { name: 'Campagne', exact: true }).selectOption({ label: CAMPAIGN_NAME })
    await dialog.getByLabel('Seulement les droits cochés ci-dessous').check()
    await dialog.getByRole('checkbox', { name: new RegExp(team.roles.delegated) }).check()
    await dialog.getByRole('combobox', { name: /Déléguer à/ }).fill(team.colleagueEmail)
    await dialog.getByRole('option', { name: `${team.colleagueName} (${team.colleagueEmail})` }).click()
    await dialog.getByLabel(/Motif/).fill('Congés')
    const inAWeek = new Date(Date.now() + 7 * 86_400_000)
    await dialog.getByLabel(/Date de fin/).fill(inAWeek.toLocaleDateString('fr-FR', { timeZone: 'UTC' }))
    await dialog.getByRole('button', { name: 'Déléguer', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await manager.getByRole('table', { name: 'Mes délégations' }).getByText('Congés').waitFor()

    // The colleague, who has nothing of their own to review, is told of it by their bell and their dashboard.
    const colleague = await as(team.colleagueEmail)
    const bell = colleague.getByRole('link', { name: /^Notifications/ })
    await colleague.getByRole('link', { name: 'Notifications : mes revues, 1 droit en attente de ma décision' }).waitFor()
    await colleague
      .getByRole('list', { name: 'Informations' })
      .getByText('1 droit qui vous est confié attend aussi votre décision (délégation ou relecteur de secours), dans Mes revues.')
      .waitFor()

    // The colleague decides it « pour le compte de » the manager, and the bell has nothing left to count.
    await bell.click()
    const confided = colleague.getByRole('table', { name: 'Droits qui me sont confiés' })
    await confided.getByText(`Pour le compte de ${team.managerName}`).waitFor()
    await confided.getByRole('button', { name: `Valider ${team.roles.delegated} de ${team.memberName} sur GitLab` }).click()
    const review = colleague.getByRole('dialog', { name: 'Revue du droit' })
    await review.getByText(`Pour le compte de ${team.managerName}`).waitFor()
    await review.getByRole('button', { name: 'Valider', exact: true }).click()
    await review.waitFor({ state: 'detached' })
    await colleague.getByRole('link', { name: 'Notifications : mes revues', exact: true }).waitFor()

    // The audit trail names both people.
    const rssi = await as('rssi@example.com')
    await rssi.goto('/app/audit')
    await rssi
      .getByRole('table', { name: "Journal d'audit" })
      .getByText(`${team.colleagueName} a validé le droit « ${team.roles.delegated} » de ${team.memberName} sur GitLab pour le compte de ${team.managerName}`)
      .waitFor()

    // The manager decides the other right, and the sign-off opens.
    await manager.reload()
    const keptLabel = `GitLab — ${team.roles.kept} (${team.memberName})`
    await manager.getByRole('button', { name: `Valider ${keptLabel}`, exact: true }).click()
    const own = manager.getByRole('dialog', { name: 'Revue du droit' })
    await own.getByRole('button', { name: 'Valider', exact: true }).click()
    await own.waitFor({ state: 'detached' })
    await manager.waitForFunction(
      (name) => !(document.querySelector(`button[aria-label="${name}"]`) as HTMLButtonElement | null)?.disabled,
      `${STATEMENT} — ${CAMPAIGN_NAME}`,
    )
    await signOff.click()
    await manager.getByRole('dialog', { name: 'Attester la revue' }).getByRole('button', { name: 'Signer l’attestation' }).click()
    await manager.getByText(/^Signé le /).waitFor()

    const { data, error } = await (await signedInClient('rssi@example.com')).rpc('campaign_signoffs_for_evidence', { p_campaign_id: ACTIVE_CAMPAIGN })
    if (error) throw error
    const rows = data as unknown as { reviewer_name: string | null }[]
    expect(rows.find((row) => row.reviewer_name === team.managerName)).toMatchObject({ stage: 'manager', items_count: 2, open_count: 0 })
  })
})
