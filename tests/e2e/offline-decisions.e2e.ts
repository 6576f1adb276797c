import { readFile } from 'node:fs/promises'
import type { Browser } from 'playwright-core'
import * as XLSX from 'xlsx'
import { signedInClient, type ApiClient } from './support/api'
import { createJourneyApplication, createJourneyCampaign, importJulieRights, setCampaignStatus } from './support/journey-data'
import { launchBrowser, signedInSessions } from './support/browser'
import { chooseRowAction } from './support/menu'

// A manager's filled file is uploaded and its decisions appear with their audit rows. The journey
// works on a campaign of its own, over an application of its own with two rights of Julie Martin (whose manager is
// Marc, manager@example.com); the administrator downloads the campaign's Manager file, Marc fills it in a spreadsheet
// program (SheetJS here, a writer other than the app's), uploads it on Mes revues, sees the preview and applies it.
// The journey ends by Terminer, so that no right of its campaign stays in a queue for the journeys after it.
const RUN = Date.now().toString(36)
const APPLICATION = `Hors ligne ${RUN}`
const CAMPAIGN = `Revue hors ligne E2E ${RUN}`
const ROLES = { kept: `Lecteur ${RUN}`, removed: `Éditeur ${RUN}` }
const MARC_ID = '00000000-0000-4000-a000-000000000002'

let browser: Browser
const { as, closeAll } = signedInSessions(() => browser)
let admin: ApiClient
let campaignId: string

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signedInClient('admin@example.com')
  const application = await createJourneyApplication(admin, APPLICATION, 'Application du parcours hors ligne')
  campaignId = await createJourneyCampaign(admin, CAMPAIGN, application)
  await importJulieRights(admin, campaignId, APPLICATION, Object.values(ROLES))
  await setCampaignStatus(admin, campaignId, 'active')
})
afterAll(async () => {
  await admin?.from('campaigns').update({ status: 'completed' }).eq('id', campaignId).eq('status', 'active')
  await closeAll()
  await browser?.close()
})

/** The administrator's Manager file of the journey's campaign, as downloaded. */
async function downloadManagerFile(): Promise<Buffer> {
  const page = await as('admin@example.com')
  await page.goto('/app/campaigns')
  await page.getByRole('heading', { name: 'Campagnes' }).waitFor()
  await chooseRowAction(page, page.getByRole('row').filter({ hasText: CAMPAIGN }), CAMPAIGN, 'Export Excel')
  const dialog = page.getByRole('dialog', { name: 'Export Excel' })
  await expect.poll(() => dialog.getByTestId('export-count-manager').innerText()).toBe('2')
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Fichier Manager' }).click()])
  return readFile((await download.path())!)
}

/** The reviewer's work offline: a decision and a comment typed on each row, the file saved again. */
function fillIn(file: Buffer): Buffer {
  const workbook = XLSX.read(file, { type: 'buffer' })
  const sheet = workbook.Sheets['Droits']!
  const rows = XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1 })
  const header = rows[0]!
  const [role, decision, comment] = ['Rôle / Profil', 'Validation manager', 'Commentaire manager'].map((column) => header.indexOf(column))
  rows.slice(1).forEach((row, index) => {
    const line = index + 1
    const kept = row[role!] === ROLES.kept
    sheet[XLSX.utils.encode_cell({ r: line, c: decision! })] = { t: 's', v: kept ? 'Validé' : 'Refusé' }
    sheet[XLSX.utils.encode_cell({ r: line, c: comment! })] = { t: 's', v: kept ? 'Utile au poste' : 'Plus nécessaire' }
  })
  return XLSX.write(workbook, { type: 'buffer', bookType: 'xlsx' }) as Buffer
}

describe('offline files sent back', () => {
  it("applies a manager's filled file after its preview, and its decisions have their audit rows", async () => {
    const filled = fillIn(await downloadManagerFile())

    const marc = await as('manager@example.com')
    await marc.goto('/app/reviews')
    await marc.getByRole('heading', { name: 'Mes revues' }).waitFor()
    await marc.getByRole('button', { name: 'Importer un fichier rempli' }).click()
    const dialog = marc.getByRole('dialog', { name: 'Importer un fichier rempli' })
    await dialog.getByLabel('Fichier rempli (.xlsx)').setInputFiles({
      name: `Revue_Manager_${RUN}.xlsx`,
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: filled,
    })

    const preview = dialog.getByRole('table', { name: 'Décisions lues dans le fichier' })
    await preview.waitFor()
    const rowOf = (role: string) => preview.getByRole('row').filter({ hasText: role })
    await expect.poll(() => rowOf(ROLES.kept).innerText()).toMatch(/Julie Martin\s+\S.*Validé\s+Applicable/s)
    await expect.poll(() => rowOf(ROLES.removed).innerText()).toMatch(/Julie Martin\s+\S.*Refusé\s+Applicable/s)
    await dialog.getByText('Fichier Manager : 2 décisions lues, 2 applicables, 0 refusée.').waitFor()

    await dialog.getByRole('button', { name: 'Appliquer 2 décisions' }).click()
    await dialog.getByRole('status').filter({ hasText: '2 décisions appliquées.' }).waitFor()
    await dialog.getByRole('button', { name: 'Retour à mes revues' }).click()
    await dialog.waitFor({ state: 'detached' })

    // The decisions, as the RSSI sees them: Marc's, with his comment, and each with its audit entry.
    const rssi = await signedInClient('rssi@example.com')
    const rights = await rssi.from('user_rights').select('id, role_name, status').eq('campaign_id', campaignId)
    if (rights.error) throw rights.error
    const byRole = new Map(rights.data.map((right) => [right.role_name, right]))
    expect(byRole.get(ROLES.kept)?.status).toBe('validated_manager')
    expect(byRole.get(ROLES.removed)?.status).toBe('refused_manager')
    const ids = rights.data.map((right) => right.id)
    const decisions = await rssi.from('right_decisions').select('right_id, decided_by, stage, decision, comment').in('right_id', ids)
    if (decisions.error) throw decisions.error
    expect(decisions.data.map((d) => [d.right_id, d.decided_by, d.stage, d.decision, d.comment]).sort()).toEqual(
      [
        [byRole.get(ROLES.kept)!.id, MARC_ID, 'manager', 'approved', 'Utile au poste'],
        [byRole.get(ROLES.removed)!.id, MARC_ID, 'manager', 'refused', 'Plus nécessaire'],
      ].sort(),
    )
    const audit = await rssi.from('audit_logs').select('action, resource_id, user_id, details').eq('action', 'decide').in('resource_id', ids)
    if (audit.error) throw audit.error
    expect(audit.data).toHaveLength(2)
    for (const row of audit.data) expect(row).toMatchObject({ user_id: MARC_ID, details: { stage: 'manager' } })

    // The rights left Marc's queue: the queue shows neither any longer.
    await marc.getByRole('button', { name: new RegExp(`Valider ${APPLICATION}`) }).first().waitFor({ state: 'detached' })

    // Sending the same file again applies nothing: both rights have moved on.
    await marc.getByRole('button', { name: 'Importer un fichier rempli' }).click()
    await dialog.getByLabel('Fichier rempli (.xlsx)').setInputFiles({ name: 'encore.xlsx', mimeType: 'application/octet-stream', buffer: filled })
    await dialog.getByText(/0 applicable, 2 refusées/).waitFor()
    expect(await dialog.getByRole('button', { name: 'Appliquer 0 décision' }).isDisabled()).toBe(true)
  })
})
