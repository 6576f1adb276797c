import { randomUUID } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { inject } from 'vitest'
import type { CaughtMessage } from '../../supabase/local/mail/message'
import { serviceClient, signedInClient, type ApiClient } from './support/api'
import { DEMO_PASSWORD, launchBrowser, mainMenu, newContext, signIn } from './support/browser'

// A recurring campaign in the browser. The admin creates a quarterly campaign set to start on its own, and
// nobody clicks Démarrer: the scheduled pass (run here by « Envoyer maintenant », the same pass the schedule runs)
// starts it. Its manager decides one right and the admin completes it; the next pass makes the next occurrence,
// named after its quarter, started with its own items, while the first keeps its figures.
//
// The first occurrence starts on the first day of the month three months back (in Paris, the pass's time zone), so
// that the next one is due today: the pass runs at the real time, as a deployment's would, and moves no other
// journey's campaigns through a clock of its own. The journey brings its own application, manager and team.

const RUN = randomUUID().slice(0, 8)
const APPLICATION = `Récurrence ${RUN}`
const CAMPAIGN = `Revue récurrente ${RUN}`
const IDS = {
  ra: '00000000-0000-4000-a000-000000000005',
  bpoMetier: '00000000-0000-4000-a000-000000000003',
  bpoGroupe: '00000000-0000-4000-a000-000000000004',
}

let browser: Browser
let context: BrowserContext
let page: Page
let service: ApiClient
let managerEmail: string
let rightIds: string[]

/** Today's year and month (1–12) in Paris. */
function parisMonth(): { year: number; month: number } {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' }).format(new Date()).split('-')
  return { year: Number(year), month: Number(month) }
}

/** The first day of the month `offset` months from (year, month), as aaaa-mm-jj. */
function firstOfMonth(year: number, month: number, offset: number): string {
  return new Date(Date.UTC(year, month - 1 + offset, 1)).toISOString().slice(0, 10)
}

const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)

beforeAll(async () => {
  browser = await launchBrowser()
  context = await newContext(browser)
  page = await context.newPage()
  service = serviceClient()
  const admin = await signedInClient('admin@example.com')
  const app = await admin.rpc('create_application', {
    name: APPLICATION,
    description: 'Application de la campagne récurrente',
    ra_id: IDS.ra,
    bpo_metier_id: IDS.bpoMetier,
    bpo_groupe_id: IDS.bpoGroupe,
  })
  if (app.error) throw app.error
  const { data: application, error: applicationError } = await service.from('applications').select('id').eq('name', APPLICATION).single()
  if (applicationError) throw applicationError

  // A manager who can sign in, and two people of their team with one right each on the journey's application.
  managerEmail = `manager.recurrence.${RUN}@example.com`
  const { data: account, error: accountError } = await service.auth.admin.createUser({ email: managerEmail, password: DEMO_PASSWORD, email_confirm: true })
  if (accountError) throw accountError
  const team = [
    { id: account.user.id, email: managerEmail, first_name: 'Inès', last_name: `Roux ${RUN}`, role: 'manager' as const, manager_id: null },
    { id: randomUUID(), email: `ana.${RUN}@example.org`, first_name: 'Ana', last_name: `Roux ${RUN}`, role: 'user' as const, manager_id: account.user.id },
    { id: randomUUID(), email: `leo.${RUN}@example.org`, first_name: 'Léo', last_name: `Roux ${RUN}`, role: 'user' as const, manager_id: account.user.id },
  ]
  const users = await service.from('users').insert(team)
  if (users.error) throw users.error
  const rights = await service
    .from('user_rights')
    .insert(team.slice(1).map((holder) => ({ user_id: holder.id, application_id: application.id, role_name: `Rôle ${holder.first_name}`, account_type: 'standard' as const })))
    .select('id')
  if (rights.error) throw rights.error
  rightIds = rights.data.map((right) => right.id)
})
afterAll(async () => {
  await context?.close()
  await browser?.close()
})

/** The scheduled pass, as the admin runs it from « Envois d'e-mails ». */
async function runScheduledPass() {
  await page.goto('/app/campaigns')
  await mainMenu(page).getByRole('link', { name: "Envois d'e-mails" }).click()
  await page.getByRole('heading', { name: "Envois d'e-mails" }).waitFor()
  await page.getByRole('button', { name: 'Envoyer maintenant' }).click()
  await page.getByRole('status').filter({ hasText: /envoyé|Aucun message/ }).waitFor()
}

/** Campagnes, loaded afresh (what the pass changed behind the page's back), searched for the journey's campaigns. */
async function openCampaigns() {
  await page.goto('/app/campaigns')
  await page.getByRole('heading', { name: 'Campagnes' }).waitFor()
  await page.getByRole('searchbox', { name: 'Rechercher une campagne' }).fill(RUN)
}

/** The row of the campaign of exactly this name (the next occurrence's name begins with the first's). */
const rowOf = (name: string) => page.getByRole('row').filter({ has: page.getByRole('progressbar', { name: `Progression de ${name}`, exact: true }) })

async function campaignNamed(name: string) {
  const { data, error } = await service.from('campaigns').select('id, status, start_date, end_date, recurrence, auto_start, previous_occurrence_id').eq('name', name)
  if (error) throw error
  return data
}

async function itemsOf(campaignId: string) {
  const { data, error } = await service.from('campaign_items').select('right_id, status').eq('campaign_id', campaignId).order('right_id')
  if (error) throw error
  return data
}

/** The decisions recorded in a campaign (Terminer's hand-over to the RA is a status change, not a decision). */
async function decisionsOf(campaignId: string) {
  const { data, error } = await service.from('right_decisions').select('right_id, stage, to_status').eq('campaign_id', campaignId).order('decided_at')
  if (error) throw error
  return data
}

/** The count of rights in each campaign-start message the manager received for a campaign of exactly this name. */
async function startMailsTo(address: string, name: string): Promise<string[]> {
  const messages = (await (await fetch(`${inject('mailboxUrl')}/api/messages`)).json()) as CaughtMessage[]
  return messages
    .filter((m) => m.envelope.to.includes(address) && m.subject.startsWith(`Campagne « ${name} » :`))
    .map((m) => /: (\d+) droits? à revoir/.exec(m.subject)?.[1] ?? m.subject)
}

describe('a recurring campaign in the browser', () => {
  it('starts on its own, then its next occurrence is made with its period in its name and its own record', async () => {
    const { year, month } = parisMonth()
    const start = firstOfMonth(year, month, -3)
    const end = addDays(start, 150)
    const nextStart = firstOfMonth(year, month, 0)
    const next = `${CAMPAIGN} — T${Math.floor((month - 1) / 3) + 1} ${year}`

    // Created by the admin: quarterly, starting on its own.
    await signIn(page, 'admin@example.com')
    await openCampaigns()
    await page.getByRole('button', { name: 'Nouvelle campagne' }).click()
    const form = page.getByRole('dialog', { name: 'Nouvelle campagne' })
    await form.getByLabel('Nom').fill(CAMPAIGN)
    await form.getByRole('textbox', { name: 'Date de début', exact: true }).fill(start)
    await form.getByRole('textbox', { name: 'Date de fin', exact: true }).fill(end)
    await form.getByLabel('Application').selectOption({ label: APPLICATION })
    await form.getByLabel('Récurrence').selectOption({ label: 'Trimestrielle' })
    await form.getByRole('checkbox', { name: 'Démarrage automatique le premier jour' }).check()
    await form.getByRole('button', { name: 'Créer la campagne' }).click()
    await form.waitFor({ state: 'detached' })
    await rowOf(CAMPAIGN).getByText('Brouillon').waitFor()
    expect(await campaignNamed(CAMPAIGN)).toEqual([
      expect.objectContaining({ status: 'draft', start_date: start, end_date: end, recurrence: 'quarterly', auto_start: true }),
    ])

    // The pass starts it: nobody clicked Démarrer. Its next occurrence is not made while it was still a draft.
    await runScheduledPass()
    await openCampaigns()
    await rowOf(CAMPAIGN).getByText('Active', { exact: true }).waitFor()
    await rowOf(CAMPAIGN).getByText('0 droit revu sur 2').waitFor()
    const [first] = await campaignNamed(CAMPAIGN)
    expect(await itemsOf(first!.id)).toEqual(rightIds.sort().map((right_id) => ({ right_id, status: 'pending' })))
    expect(await campaignNamed(next)).toEqual([])
    // Started as by Démarrer, with the start's message to its manager, sent by the same pass.
    expect(await startMailsTo(managerEmail, CAMPAIGN)).toEqual(['2'])

    // Its manager validates one right; the admin completes the campaign.
    const manager = await signedInClient(managerEmail)
    const decided = await manager.rpc('validate_user_right', { right_id: rightIds[0]!, new_status: 'validated_manager' })
    if (decided.error) throw decided.error
    await openCampaigns()
    await rowOf(CAMPAIGN).getByRole('button', { name: `Terminer ${CAMPAIGN}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Terminer la campagne' })
    await dialog.getByRole('button', { name: 'Terminer', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await rowOf(CAMPAIGN).getByText('Terminée').waitFor()
    // Approved by the manager only: neither right was reviewed, Terminer sent both to the RA.
    await rowOf(CAMPAIGN).getByText('2 non décidés à la clôture (transmis au RA)').waitFor()
    // The RA checks both and keeps them: until then, no next occurrence would take them back.
    const ra = await signedInClient('ra@example.com')
    for (const right_id of rightIds) {
      const treated = await ra.rpc('validate_user_right', { right_id, new_status: 'treated' })
      if (treated.error) throw treated.error
    }
    const firstProgress = await rowOf(CAMPAIGN).getByRole('progressbar').getAttribute('aria-valuenow')
    const firstItems = await itemsOf(first!.id)

    // The next pass makes the next occurrence: the first day of this month, the same length and settings, named after
    // its quarter, started, with items of its own; a second pass adds none.
    await runScheduledPass()
    await runScheduledPass()
    await openCampaigns()
    await rowOf(next).getByText('Active', { exact: true }).waitFor()
    await rowOf(next).getByText('0 droit revu sur 2').waitFor()
    expect(await rowOf(next).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0')
    // The list says how often each comes back: the first names the occurrence made after it, the new one when its own comes.
    await rowOf(CAMPAIGN).getByTitle(`Trimestrielle · occurrence suivante : « ${next} »`, { exact: false }).getByText(/^Trimestrielle · suivante créée/).waitFor()
    await rowOf(next).getByTitle(/^Trimestrielle · prochaine occurrence le 1er \S+ \d{4}/).getByText(/^Trimestrielle · prochaine le 01\/\d\d\/\d{4}/).waitFor()
    const occurrences = await campaignNamed(next)
    expect(occurrences).toEqual([
      expect.objectContaining({ status: 'active', start_date: nextStart, end_date: addDays(nextStart, 150), recurrence: 'quarterly', auto_start: true, previous_occurrence_id: first!.id }),
    ])
    expect(await itemsOf(occurrences[0]!.id)).toEqual(rightIds.sort().map((right_id) => ({ right_id, status: 'pending' })))
    expect(await startMailsTo(managerEmail, next)).toEqual(['2'])

    // The first occurrence keeps its own record: its status, its figures, its items as they were.
    await rowOf(CAMPAIGN).getByText('Terminée').waitFor()
    expect(await rowOf(CAMPAIGN).getByRole('progressbar').getAttribute('aria-valuenow')).toBe(firstProgress)
    expect(firstProgress).toBe('0')
    await rowOf(CAMPAIGN).getByText('2 non décidés à la clôture (transmis au RA)').waitFor()
    expect(await itemsOf(first!.id)).toEqual(firstItems)
    // Completed before the end of the chain, both went to the RA (SPEC: Terminer sends what is not fully validated),
    // who treated them.
    expect(firstItems.map((item) => item.status)).toEqual(['treated', 'treated'])
    expect((await decisionsOf(first!.id)).map((d) => [d.stage, d.to_status])).toEqual([
      ['manager', 'validated_manager'],
      ['ra', 'treated'],
      ['ra', 'treated'],
    ])
    expect(await decisionsOf(occurrences[0]!.id)).toEqual([])
  })
})
