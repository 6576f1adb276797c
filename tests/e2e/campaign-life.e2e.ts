import { readFile } from 'node:fs/promises'
import type { Browser, Download, Page } from 'playwright-core'
import * as XLSX from 'xlsx'
import { signedInClient, type ApiClient } from './support/api'
import { launchBrowser, signedInSessions } from './support/browser'
import { chooseRowAction } from './support/menu'

// One campaign through its whole life in the browser, each step by the person who does it in
// real life: created and imported into by the admin, started, decided by the holder, her manager and the BPO Métier,
// exported as the three files (read back), completed and archived. It works on its own application, so the campaign
// attaches only the rights this journey imported, whatever the other journeys do on the shared backend.
const RUN = Date.now().toString(36)
const APPLICATION = `Cycle ${RUN}`
const CAMPAIGN = `Cycle complet ${RUN}`
const ROLES = { chain: `Chaîne ${RUN}`, manager: `Manager ${RUN}`, refused: `Refusé ${RUN}`, untouched: `Attente ${RUN}` }
const IDS = {
  ra: '00000000-0000-4000-a000-000000000005',
  bpoMetier: '00000000-0000-4000-a000-000000000003',
  bpoGroupe: '00000000-0000-4000-a000-000000000004',
}

let browser: Browser
let admin: ApiClient
const { as, closeAll } = signedInSessions(() => browser)

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signedInClient('admin@example.com')
  const { error } = await admin.rpc('create_application', {
    name: APPLICATION,
    description: 'Application du cycle de vie complet',
    ra_id: IDS.ra,
    bpo_metier_id: IDS.bpoMetier,
    bpo_groupe_id: IDS.bpoGroupe,
  })
  if (error) throw error
})
afterAll(async () => {
  await closeAll()
  await browser?.close()
})

async function decide(page: Page, button: string, row: string, comment?: string) {
  await page.getByRole('button', { name: `${button} ${row}`, exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Revue du droit' })
  if (comment) await dialog.getByLabel('Commentaire (facultatif)').fill(comment)
  await dialog.getByRole('button', { name: button, exact: true }).click()
  await dialog.waitFor({ state: 'detached' })
}

/** A lifecycle step, confirmed: the row's button, or its menu's item for Archiver (a closed campaign shows its report). */
async function lifecycle(page: Page, action: string) {
  const row = page.getByRole('row').filter({ hasText: CAMPAIGN })
  if (action === 'Archiver') await chooseRowAction(page, row, CAMPAIGN, action)
  else await row.getByRole('button', { name: `${action} ${CAMPAIGN}` }).click()
  const dialog = page.getByRole('dialog', { name: `${action} la campagne` })
  await dialog.getByRole('button', { name: action, exact: true }).click()
  await dialog.waitFor({ state: 'detached' })
}

async function sheetRows(download: Download): Promise<string[][]> {
  const workbook = XLSX.read(await readFile((await download.path())!), { type: 'buffer' })
  return XLSX.utils.sheet_to_json<string[]>(workbook.Sheets[workbook.SheetNames[0]!]!, { header: 1 })
}

async function exportFile(page: Page, button: string): Promise<string[][]> {
  const dialog = page.getByRole('dialog', { name: 'Export Excel' })
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: button }).click()])
  return sheetRows(download)
}

describe('a campaign’s whole life in the browser', () => {
  it('is created, imported into, started, decided, exported, completed and archived', async () => {
    const adminPage = await as('admin@example.com')
    await adminPage.goto('/app/campaigns')
    await adminPage.getByRole('heading', { name: 'Campagnes' }).waitFor()

    // Created: a draft scoped to the journey's application.
    await adminPage.getByRole('button', { name: 'Nouvelle campagne' }).click()
    const form = adminPage.getByRole('dialog', { name: 'Nouvelle campagne' })
    await form.getByLabel('Nom').fill(CAMPAIGN)
    await form.getByRole('textbox', { name: 'Date de début', exact: true }).fill('2026-11-01')
    await form.getByRole('textbox', { name: 'Date de fin', exact: true }).fill('2026-12-31')
    await form.getByLabel('Application').selectOption({ label: APPLICATION })
    await form.getByRole('button', { name: 'Créer la campagne' }).click()
    await form.waitFor({ state: 'detached' })
    const row = adminPage.getByRole('row').filter({ hasText: CAMPAIGN })
    await row.getByText('Brouillon').waitFor()

    // Imported into: four rights of Julie Martin's, from a CSV, into the draft.
    await adminPage.getByRole('button', { name: 'Import CSV' }).click()
    const importDialog = adminPage.getByRole('dialog', { name: 'Import CSV des droits' })
    await importDialog.getByLabel('Campagne').selectOption({ label: `${CAMPAIGN} (Brouillon)` })
    const csv = [
      "E-mail;Application;Rôle;Type de compte;Date d'attribution;Dernière utilisation;Justification",
      ...Object.values(ROLES).map((role) => `user@example.com;${APPLICATION};${role};Standard;02/01/2025;10/11/2026;Clôtures mensuelles`),
    ].join('\r\n')
    await importDialog.getByLabel('Fichier CSV').setInputFiles({ name: 'cycle.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') })
    await importDialog.getByRole('button', { name: 'Importer 4 droits' }).click()
    await importDialog.getByText(`4 droits importés dans la campagne « ${CAMPAIGN} ».`).waitFor()
    await importDialog.getByRole('button', { name: 'Fermer' }).first().click()

    // Started: the rights reach the holder's dashboard.
    await lifecycle(adminPage, 'Démarrer')
    await row.getByText('Active', { exact: true }).waitFor()
    await row.getByText('0 droit revu sur 4').waitFor()
    const julie = await as('user@example.com')
    const mine = julie.getByRole('table', { name: 'Droits à revoir' })
    for (const role of Object.values(ROLES)) await mine.getByRole('row').filter({ hasText: role }).getByText('En attente').waitFor()

    // Decided: the holder, her manager, the BPO Métier.
    await decide(julie, 'Valider', `${APPLICATION} — ${ROLES.chain}`)
    await decide(julie, 'Refuser', `${APPLICATION} — ${ROLES.refused}`, 'Plus utilisé')
    const marc = await as('manager@example.com')
    await marc.goto('/app/reviews')
    await decide(marc, 'Valider', `${APPLICATION} — ${ROLES.chain} (Julie Martin)`)
    await decide(marc, 'Valider', `${APPLICATION} — ${ROLES.manager} (Julie Martin)`, 'Nécessaire aux clôtures')
    const bpo = await as('bpo@example.com')
    await bpo.goto('/app/reviews')
    await decide(bpo, 'Valider', `${APPLICATION} — ${ROLES.chain} (Julie Martin)`)

    // Exported: one right per file, each read back.
    await chooseRowAction(adminPage, row, CAMPAIGN, 'Export Excel')
    const exportDialog = adminPage.getByRole('dialog', { name: 'Export Excel' })
    // Opening the dialog refreshes its counts, which the decisions just changed.
    for (const stage of ['manager', 'bpo_metier', 'bpo_groupe']) {
      await expect.poll(() => exportDialog.getByTestId(`export-count-${stage}`).innerText()).toBe('1')
    }
    const managerFile = await exportFile(adminPage, 'Fichier Manager')
    expect(managerFile.slice(1).map((cells) => cells[4])).toEqual([ROLES.untouched])
    const bpoFile = await exportFile(adminPage, 'Fichier BPO Métier')
    expect(bpoFile[0]).toEqual(expect.arrayContaining(['Validation manager', 'Commentaire manager', 'Validation BPO Métier']))
    expect(bpoFile.slice(1).map((cells) => cells[4])).toEqual([ROLES.manager])
    expect(bpoFile[1]).toContain('Nécessaire aux clôtures')
    const groupeFile = await exportFile(adminPage, 'Fichier BPO Groupe')
    expect(groupeFile.slice(1).map((cells) => cells[4])).toEqual([ROLES.chain])
    await exportDialog.getByRole('button', { name: 'Fermer' }).click()

    // Completed, then archived.
    await lifecycle(adminPage, 'Terminer')
    await row.getByText('Terminée').waitFor()
    // Reviewed: the refusal only (the BPO Métier's approval awaited the BPO Groupe); the other three went to the RA.
    await row.getByText('1 droit revu sur 4').waitFor()
    await row.getByText('3 non décidés à la clôture (transmis au RA)').waitFor()
    expect(await row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25')
    await lifecycle(adminPage, 'Archiver')
    await row.getByText('Archivée').waitFor()

    // The evidence: each decision recorded once, by its author, and the campaign archived.
    const { data: campaign } = await admin.from('campaigns').select('id, status').eq('name', CAMPAIGN).single()
    expect(campaign?.status).toBe('archived')
    const { data: decisions } = await admin
      .from('right_decisions')
      .select('stage, to_status, role_name')
      .eq('campaign_id', campaign!.id)
      .in('stage', ['user', 'manager', 'bpo_metier'])
      .order('decided_at')
    expect(decisions).toEqual([
      { stage: 'user', to_status: 'validated_user', role_name: ROLES.chain },
      { stage: 'user', to_status: 'refused_user', role_name: ROLES.refused },
      { stage: 'manager', to_status: 'validated_manager', role_name: ROLES.chain },
      { stage: 'manager', to_status: 'validated_manager', role_name: ROLES.manager },
      { stage: 'bpo_metier', to_status: 'validated_bpo_metier', role_name: ROLES.chain },
    ])
  })
})
