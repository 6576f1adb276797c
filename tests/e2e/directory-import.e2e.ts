import type { Browser, BrowserContext, Page } from 'playwright-core'
import { toCsv } from '../../src/lib/csv'
import { launchBrowser, newContext, signIn } from './support/browser'
import { serviceClient, signedInClient, type ApiClient } from './support/api'
import { deliverOutbox, mailsTo } from './support/mail'

// An administrator imports a directory of 2,000 people with a manager tree, then a second file, in
// « Import complet » mode, that moves 10, adds 5 and leaves 3 out. The 3 can no longer sign in, their rights are the
// RSSI's first risk, and the item waiting for one of them (a BPO Métier) goes to the campaign's fallback reviewer. The people are this run's own (their e-mails carry RUN); the second file also lists everyone else who is
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

/** The one of the three leavers who reviews: the BPO Métier of an application of this run. */
const BPO_LEAVER = 1500
// The leavers' own password, set by the service role as the backend's policy asks (12 characters, letters and digits).
const LEAVER_PASSWORD = 'Depart2026Recertif'

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
      role: head || teamManager ? 'manager' : index === BPO_LEAVER ? 'bpo_metier' : 'user',
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

/**
 * A running campaign over an application whose BPO Métier is the given person, with the rssi as fallback reviewer and
 * one right that the holder's manager has validated: it now waits for that BPO Métier.
 */
async function rightWaitingFor(bpoEmail: string): Promise<{ campaignId: string; rightId: string }> {
  const { data: people, error } = await service.from('users').select('id, email').in('email', [bpoEmail, 'user@example.com', 'ra@example.com', 'rssi@example.com'])
  if (error) throw error
  const idOf = (address: string) => people.find((person) => person.email === address)!.id
  const app = await service.from('applications').insert({ name: `Départs ${RUN}`, ra_id: idOf('ra@example.com'), bpo_metier_id: idOf(bpoEmail) }).select('id').single()
  if (app.error) throw app.error
  const right = await service
    .from('user_rights')
    .insert({ user_id: idOf('user@example.com'), application_id: app.data.id, role_name: `Revue des départs ${RUN}`, account_type: 'standard' })
    .select('id')
    .single()
  if (right.error) throw right.error
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
  const campaign = await admin.from('campaigns').insert({ name: `Départs ${RUN}`, application_id: app.data.id, start_date: day(0), end_date: day(30) }).select('id').single()
  if (campaign.error) throw campaign.error
  const started = await admin.from('campaigns').update({ status: 'active' }).eq('id', campaign.data.id)
  if (started.error) throw started.error
  const fallback = await admin.rpc('set_campaign_fallback_reviewers', { p_campaign_id: campaign.data.id, p_user_ids: [idOf('rssi@example.com')] })
  if (fallback.error) throw fallback.error
  const manager = await signedInClient('manager@example.com')
  const validated = await manager.rpc('validate_user_right', { right_id: right.data.id, new_status: 'validated_manager' })
  if (validated.error) throw validated.error
  return { campaignId: campaign.data.id, rightId: right.data.id }
}

/** The rights the rssi decides as the campaign's fallback reviewer. */
async function fallbackQueue(): Promise<string[]> {
  const { data, error } = await rssi.rpc('delegated_review_queue')
  if (error) throw error
  return (data as { right_id: string; acting_as: string }[]).filter((row) => row.acting_as === 'fallback').map((row) => row.right_id)
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
    expect(created).toMatch(/2\s000 personnes créées.*2\s000 invitations programmées/)
    const { data: tree } = await service.from('users').select('email, manager:manager_id(email)').in('email', [email(0), email(25), email(1999)])
    expect(Object.fromEntries((tree as unknown as { email: string; manager: { email: string } | null }[]).map((p) => [p.email, p.manager?.email ?? null]))).toEqual({
      [email(0)]: null,
      [email(25)]: email(5),
      [email(1999)]: email(20 + (1999 % 80)),
    })

    // The invitations wait in the outbox; the pass mails them (and makes the accounts their links sign in to).
    await deliverOutbox()
    // The mail catcher keeps the latest 200 messages: the outbox says that all 2,000 went.
    const { count: invitationsSent, error: outboxError } = await service
      .from('notifications')
      .select('id', { count: 'exact', head: true })
      .eq('kind', 'invitation')
      .eq('status', 'sent')
      .like('recipient_email', `dir.${RUN}.%`)
    expect(outboxError).toBeNull()
    expect(invitationsSent).toBe(2000)

    // The three who will leave have signed in once and hold rights.
    const { data: accounts } = await service.rpc('auth_account_ids', { p_emails: leavers.map((p) => p.email) })
    for (const account of accounts as { id: string }[]) {
      const { error } = await service.auth.admin.updateUserById(account.id, { password: LEAVER_PASSWORD, email_confirm: true })
      if (error) throw error
    }
    expect((await (await signedInClient(leavers[0]!.email, LEAVER_PASSWORD)).auth.getUser()).data.user?.email).toBe(leavers[0]!.email)
    const rights = await admin.rpc('import_user_rights', {
      rows: leavers.map((p, index) => ({ email: p.email, application: 'SAP Finance', role_name: `Départ ${RUN} ${index}` })),
    })
    expect(rights.error).toBeNull()
    const riskBefore = await deactivatedRisk()
    // One of them reviews an item of a running campaign: while they are here, it is theirs, not the fallback's.
    const waiting = await rightWaitingFor(leavers[0]!.email)
    expect(leavers[0]!.email).toBe(email(BPO_LEAVER))
    expect(await fallbackQueue()).not.toContain(waiting.rightId)

    // The second file: everyone active but the three, ten moved to another manager, five more.
    const moved = new Set(first.slice(1000, 1010).map((p) => p.email))
    const second = (await activeDirectory())
      .filter((p) => !leavers.some((leaver) => leaver.email === p.email))
      .map((p) => (moved.has(p.email) ? { ...p, manager_email: email(99) } : p))
    // Delivering 2,000 invitations takes minutes, in which the idle page was signed out (SPEC §9: five minutes).
    await context.close()
    context = await newContext(browser)
    page = await context.newPage()
    await signIn(page, 'admin@example.com')
    const outcome = await importThroughDialog(csvFile('annuaire-complet.csv', [...second, ...added]), {
      complete: true,
      expect: /^Import complet : 3 personnes quitteront l'annuaire/,
    })
    expect(outcome).toMatch(/5 personnes créées, \d+ mises à jour, 3 personnes désactivées, 5 invitations programmées/)
    // The ten moved, at least: people other journeys made on the shared backend may be normalised by the round trip.
    expect(Number(/(\d+) mises à jour/.exec(outcome)?.[1])).toBeGreaterThanOrEqual(10)
    const { data: movedNow, error: movedError } = await service.from('users').select('email, manager:manager_id(email)').in('email', [...moved])
    expect(movedError).toBeNull()
    expect((movedNow as unknown as { manager: { email: string } | null }[]).map((p) => p.manager?.email)).toEqual(Array(10).fill(email(99)))

    for (const leaver of leavers) {
      const client = serviceClient()
      const { error } = await client.auth.signInWithPassword({ email: leaver.email, password: LEAVER_PASSWORD })
      expect(error, leaver.email).toMatchObject({ code: 'user_banned' })
    }
    const riskAfter = await deactivatedRisk()
    expect(riskAfter).toMatchObject({ key: 'expired', label: 'Comptes expirés', count: riskBefore.count + 3 })

    // Their pending item went to the fallback reviewer, who decides it; the campaign counts it among those without
    // reviewer, and no longer under the leaver.
    expect(await fallbackQueue()).toContain(waiting.rightId)
    const decided = await rssi.rpc('validate_user_right', { right_id: waiting.rightId, new_status: 'validated_bpo_metier' })
    expect(decided.error).toBeNull()
    const { data: signoffs, error: signoffsError } = await admin.rpc('campaign_signoffs_for_evidence', { p_campaign_id: waiting.campaignId })
    expect(signoffsError).toBeNull()
    const stages = signoffs as { stage: string; reviewer_email: string | null }[]
    expect(stages.filter((row) => row.stage === 'bpo_metier').map((row) => row.reviewer_email)).toEqual([null])
    // The five newcomers' invitations, and the campaign's messages, leave the shared outbox empty for other journeys.
    await deliverOutbox()
    expect(await mailsTo(added[0]!.email)).toHaveLength(1)

    // On the RSSI's dashboard, first of the risks.
    const rssiContext = await newContext(browser)
    const rssiPage = await rssiContext.newPage()
    await signIn(rssiPage, 'rssi@example.com')
    const risks = rssiPage.getByRole('list', { name: 'Risques détectés' }).getByRole('listitem')
    await risks.first().waitFor()
    expect(await risks.first().getByRole('button').getAttribute('aria-label')).toBe(`Comptes expirés ${riskAfter.count}, voir la liste`)
    await rssiContext.close()
  })
})
