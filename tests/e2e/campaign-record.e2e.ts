import { readFile } from 'node:fs/promises'
import { addMonths, format, subMonths } from 'date-fns'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import * as XLSX from 'xlsx'
import { signedInClient, type ApiClient } from './support/api'
import { rpc } from './support/journey-data'
import { launchBrowser, newContext, signIn } from './support/browser'
import { chooseRowAction } from './support/menu'

// The campaign record, as a new administrator would check it: a campaign over every application and every account
// type, started while closed campaigns sit in the list. Each closed one keeps its figures and its files.
//
// Two closed campaigns are watched. The seed's « Revue annuelle 2025 »: all its items ended
// validated by the BPO Groupe, refused, sent to the RA or treated, so its Excel dialog counts 0, 0, 0 and offers no
// file; its record is its Rapport de campagne. And this journey's own, closed before it starts: two rights of Julie
// Martin's on an application without BPO Groupe, validated by her manager and the BPO Métier, a final outcome that
// keeps them in its BPO Groupe file after the end.
//
// The shared backend: the new campaign takes every right not under review in another active campaign (the seed's
// seven non-standard rights, this journey's two, those other journeys left in closed campaigns or drafts) and sets
// them back to pending. Left running, it would put them in the demo holders' and managers' queues for every journey
// after this one; so the journey ends by Terminer, which sends them to the RA as treatment required: the status that
// five of the seed's seven had already, since the 2025 review sent them there. The other journeys compare their
// figures with what the API says at the time, or work on rights of their own, so what is left (a completed campaign,
// more rights for the RA to treat) changes none of their outcomes.
const RUN = Date.now().toString(36)
const SEED_CAMPAIGN = 'Revue annuelle 2025'
const APPLICATION = `Registre ${RUN}`
const CLOSED_CAMPAIGN = `Revue close E2E ${RUN}`
const CAMPAIGN = `Revue globale E2E ${RUN}`
const ROLES = [`Lecteur ${RUN}`, `Éditeur ${RUN}`]
const RA_ID = '00000000-0000-4000-a000-000000000005'
const BPO_METIER_ID = '00000000-0000-4000-a000-000000000003'
const FILES = ['manager', 'bpo_metier', 'bpo_groupe'] as const
const FILE_BUTTONS: Record<(typeof FILES)[number], string> = {
  manager: 'Fichier Manager',
  bpo_metier: 'Fichier BPO Métier',
  bpo_groupe: 'Fichier BPO Groupe',
}
// The rows that describe a download rather than the campaign: when the Rapport de campagne was made, and the Excel
// files' deadline, counted from the day of the download. (The seal's head hash, which grows with every audited action,
// is the RSSI's to see: the administrator's pack says so in a row that never changes.)
const DOWNLOAD_TIME_ROWS = ['Rapport établi le', 'Date limite']

type Workbook = Record<string, string[][]>

let browser: Browser
let context: BrowserContext | undefined
let admin: ApiClient

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signedInClient('admin@example.com')
  // The journey's closed campaign, through the workflow: created, imported into, started, decided by Julie's manager
  // and the BPO Métier, completed.
  const application = (await rpc(admin, 'create_application', {
    name: APPLICATION,
    description: 'Application du registre des campagnes',
    ra_id: RA_ID,
    bpo_metier_id: BPO_METIER_ID,
  })) as { id: string }
  const today = new Date()
  const created = await admin
    .from('campaigns')
    .insert({ name: CLOSED_CAMPAIGN, start_date: format(subMonths(today, 1), 'yyyy-MM-dd'), end_date: format(today, 'yyyy-MM-dd'), application_id: application.id })
    .select('id')
    .single()
  if (created.error) throw created.error
  const campaignId = created.data.id
  const imported = await rpc(admin, 'import_user_rights', {
    campaign_id: campaignId,
    rows: ROLES.map((role, index) => ({
      line: index + 2,
      email: 'user@example.com',
      application: APPLICATION,
      role_name: role,
      account_type: 'standard',
      granted_at: '2025-03-01',
      last_used_at: '2026-10-15',
      justification: index === 0 ? 'Consultation des registres' : null,
    })),
  })
  expect(imported).toMatchObject({ success: true, imported: 2 })
  const started = await admin.from('campaigns').update({ status: 'active' }).eq('id', campaignId)
  if (started.error) throw started.error
  const { data: rights, error } = await admin.from('user_rights').select('id').eq('application_id', application.id)
  if (error) throw error
  const marc = await signedInClient('manager@example.com')
  const sophie = await signedInClient('bpo@example.com')
  for (const { id } of rights) {
    await rpc(marc, 'validate_user_right', { right_id: id, new_status: 'validated_manager', comment: 'Utile au poste' })
    await rpc(sophie, 'validate_user_right', { right_id: id, new_status: 'validated_bpo_metier' })
  }
  const completed = await admin.from('campaigns').update({ status: 'completed' }).eq('id', campaignId)
  if (completed.error) throw completed.error
})
afterAll(async () => {
  // Should the journey stop half-way, its campaign must not stay running over every right for the journeys after it.
  await admin?.from('campaigns').update({ status: 'completed' }).eq('name', CAMPAIGN).eq('status', 'active')
  await context?.close()
  await browser?.close()
})

const rowOf = (page: Page, name: string) => page.getByRole('row').filter({ hasText: name })

/** What the Campagnes page shows of a started campaign: its progress, its rights reviewed, those left undecided at its closure. */
async function figures(page: Page, name: string) {
  const row = rowOf(page, name)
  const reviewed = row.getByText(/^[\d\u202f]+ droits? revus? sur [\d\u202f]+$/)
  await reviewed.waitFor()
  const undecided = row.getByText(/non décidés? à la clôture/)
  return {
    progress: await row.getByRole('progressbar').getAttribute('aria-valuenow'),
    reviewed: await reviewed.innerText(),
    undecided: (await undecided.count()) > 0 ? (await undecided.textContent())?.trim() : null,
  }
}

/** Every sheet of a downloaded workbook as rows of cells, without the rows that only date the download. */
async function download(page: Page, click: () => Promise<void>): Promise<Workbook> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()])
  const workbook = XLSX.read(await readFile((await file.path())!), { type: 'buffer' })
  return Object.fromEntries(
    workbook.SheetNames.map((sheet) => [
      sheet,
      XLSX.utils
        .sheet_to_json<string[]>(workbook.Sheets[sheet]!, { header: 1, defval: '' })
        .filter((cells) => !DOWNLOAD_TIME_ROWS.includes(String(cells[0]))),
    ]),
  )
}

/** Everything a closed campaign offers for download: the Excel dialog's counts and enabled files, and its Rapport de campagne. */
async function filesOf(page: Page, name: string) {
  const row = rowOf(page, name)
  await chooseRowAction(page, row, name, 'Export Excel')
  const dialog = page.getByRole('dialog', { name: 'Export Excel' })
  await dialog.waitFor()
  const counts: Record<string, string> = {}
  const excel: Record<string, Workbook> = {}
  for (const file of FILES) {
    counts[file] = await dialog.getByTestId(`export-count-${file}`).innerText()
    const button = dialog.getByRole('button', { name: FILE_BUTTONS[file] })
    if (await button.isEnabled()) excel[file] = await download(page, () => button.click())
  }
  await dialog.getByRole('button', { name: 'Fermer' }).click()
  await dialog.waitFor({ state: 'detached' })
  const pack = await download(page, () => row.getByRole('button', { name: `Rapport de campagne de ${name}` }).click())
  return { counts, excel, pack }
}

async function everything(page: Page) {
  const closed = [SEED_CAMPAIGN, CLOSED_CAMPAIGN]
  const shown = []
  for (const name of closed) shown.push({ name, figures: await figures(page, name), files: await filesOf(page, name) })
  return shown
}

it('leaves the closed campaigns with their figures and identical files when an all-scope campaign starts', async () => {
  context = await newContext(browser)
  const page = await context.newPage()
  await signIn(page, 'admin@example.com')
  await page.goto('/app/campaigns')
  await page.getByRole('heading', { name: 'Campagnes' }).waitFor()

  // Before: what both show and offer for download. The seed's reviewed 3 of its 17 rights before Terminer sent the
  // other 14 to the RA; this journey's two were approved at their last stage (BPO Métier, without BPO Groupe).
  const before = await everything(page)
  const [seed, own] = before
  expect(seed!.figures).toEqual({ progress: '18', reviewed: '3 droits revus sur 17', undecided: '14 non décidés à la clôture (transmis au RA)' })
  expect(seed!.files.pack['Décisions']!.length - 1).toBe(17)
  expect(own!.figures).toEqual({ progress: '100', reviewed: '2 droits revus sur 2', undecided: null })
  expect(own!.files.counts).toEqual({ manager: '0', bpo_metier: '0', bpo_groupe: '2' })
  const groupeFile = own!.files.excel['bpo_groupe']!
  expect(groupeFile['Droits']!.slice(1).map((cells) => cells[4]).sort()).toEqual([...ROLES].sort())
  expect(groupeFile['Droits']!.slice(1).every((cells) => cells.includes('Utile au poste'))).toBe(true)

  // The reproduction: a campaign over every application and every account type, then Démarrer.
  const today = new Date()
  await page.getByRole('button', { name: 'Nouvelle campagne' }).click()
  const form = page.getByRole('dialog', { name: 'Nouvelle campagne' })
  await form.getByLabel('Nom').fill(CAMPAIGN)
  await form.getByRole('textbox', { name: 'Date de début', exact: true }).fill(format(today, 'yyyy-MM-dd'))
  await form.getByRole('textbox', { name: 'Date de fin', exact: true }).fill(format(addMonths(today, 1), 'yyyy-MM-dd'))
  await form.getByLabel('Application').selectOption({ label: 'Toutes les applications' })
  await form.getByLabel('Type de compte').selectOption({ label: 'Tous les types' })
  await form.getByRole('button', { name: 'Créer la campagne' }).click()
  await form.waitFor({ state: 'detached' })
  const row = rowOf(page, CAMPAIGN)
  await row.getByText('Brouillon').waitFor()
  await row.getByText('Toutes', { exact: true }).waitFor()
  await row.getByText('Tous', { exact: true }).waitFor()

  await row.getByRole('button', { name: `Démarrer ${CAMPAIGN}` }).click()
  const confirm = page.getByRole('dialog', { name: 'Démarrer la campagne' })
  await confirm.getByRole('button', { name: 'Démarrer', exact: true }).click()
  await confirm.waitFor({ state: 'detached' })
  await row.getByText('Active', { exact: true }).waitFor()

  // The new campaign counts its own items: the rights it took, this journey's two among them, all pending.
  const { data: started, error } = await admin.from('campaigns').select('id').eq('name', CAMPAIGN).single()
  if (error) throw error
  const { data: items, error: itemsError } = await admin.from('campaign_items').select('role_name, status').eq('campaign_id', started.id)
  if (itemsError) throw itemsError
  expect(items.filter((item) => ROLES.includes(item.role_name))).toEqual(ROLES.map(() => expect.objectContaining({ status: 'pending' })))
  expect(await figures(page, CAMPAIGN)).toEqual({ progress: '0', reviewed: `0 droit revu sur ${items.length}`, undecided: null })

  // After, on a fresh page: the same figures, the same dialogs, the same files row for row.
  await page.reload()
  expect(await everything(page)).toEqual(before)

  // Terminer, for the journeys that follow (see the top of the file); the closed campaigns still show the same figures.
  await row.getByRole('button', { name: `Terminer ${CAMPAIGN}` }).click()
  const finish = page.getByRole('dialog', { name: 'Terminer la campagne' })
  await finish.getByRole('button', { name: 'Terminer', exact: true }).click()
  await finish.waitFor({ state: 'detached' })
  await row.getByText('Terminée').waitFor()
  await page.reload()
  for (const { name, figures: shown } of before) expect(await figures(page, name)).toEqual(shown)
})
