import { readFile } from 'node:fs/promises'
import { format } from 'date-fns'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import * as XLSX from 'xlsx'
import { signedInClient, type ApiClient } from './support/api'
import { rpc, createJourneyApplication, createJourneyCampaign, importJulieRights, setCampaignStatus } from './support/journey-data'
import { launchBrowser, newContext, signIn } from './support/browser'
import { chooseRowAction } from './support/menu'

// The administrator downloads a running campaign's three stage files and reads each back: one right waits for the
// manager, one for the BPO Métier, one for the BPO Groupe. The journey has its own application with three rights of
// Julie Martin (whose manager is Marc), and closes its campaign at the end so that no queue keeps its rights.
const RUN = Date.now().toString(36)
const APPLICATION = `Fichiers d'étape ${RUN}`
const CAMPAIGN = `Revue des étapes ${RUN}`
const ROLES = { manager: `Lecteur ${RUN}`, bpoMetier: `Éditeur ${RUN}`, bpoGroupe: `Valideur ${RUN}` }

let browser: Browser
let context: BrowserContext | undefined
let admin: ApiClient
let campaignId: string

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signedInClient('admin@example.com')
  const application = await createJourneyApplication(admin, APPLICATION, 'Application du parcours des fichiers par étape')
  campaignId = await createJourneyCampaign(admin, CAMPAIGN, application)
  await importJulieRights(admin, campaignId, APPLICATION, Object.values(ROLES))
  await setCampaignStatus(admin, campaignId, 'active')

  // Marc carries two rights past his stage, the BPO Métier one of them past hers.
  const rights = await admin.from('user_rights').select('id, role_name').eq('campaign_id', campaignId)
  if (rights.error) throw rights.error
  const idOf = (role: string) => rights.data.find((right) => right.role_name === role)!.id
  const marc = await signedInClient('manager@example.com')
  for (const role of [ROLES.bpoMetier, ROLES.bpoGroupe]) {
    await rpc(marc, 'validate_user_right', { right_id: idOf(role), new_status: 'validated_manager' })
  }
  const bpo = await signedInClient('bpo@example.com')
  await rpc(bpo, 'validate_user_right', { right_id: idOf(ROLES.bpoGroupe), new_status: 'validated_bpo_metier' })
})
afterAll(async () => {
  await admin?.from('campaigns').update({ status: 'completed' }).eq('id', campaignId).eq('status', 'active')
  await context?.close()
  await browser?.close()
})

/** The file downloaded from the Export Excel dialog, its sheets read back as rows of strings. */
async function download(page: Page, button: string) {
  const dialog = page.getByRole('dialog', { name: 'Export Excel' })
  const [file] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: button }).click()])
  const workbook = XLSX.read(await readFile((await file.path())!), { type: 'buffer' })
  const rows = (sheet: string) => XLSX.utils.sheet_to_json<string[]>(workbook.Sheets[sheet]!, { header: 1, defval: '' })
  return { name: file.suggestedFilename(), sheets: workbook.SheetNames, rights: rows('Droits'), instructions: rows('Instructions') }
}

describe('stage files', () => {
  it('downloads the Manager, BPO Métier and BPO Groupe files of a running campaign, each with the rights at its stage', async () => {
    context = await newContext(browser)
    const page = await context.newPage()
    await signIn(page, 'admin@example.com')
    await page.goto('/app/campaigns')
    await page.getByRole('heading', { name: 'Campagnes' }).waitFor()
    await chooseRowAction(page, page.getByRole('row').filter({ hasText: CAMPAIGN }), CAMPAIGN, 'Export Excel')
    const dialog = page.getByRole('dialog', { name: 'Export Excel' })
    for (const file of ['manager', 'bpo_metier', 'bpo_groupe']) {
      await expect.poll(() => dialog.getByTestId(`export-count-${file}`).innerText()).toBe('1')
    }

    const stamp = format(new Date(), 'yyyy-MM-dd')
    const files = [
      { button: 'Fichier Manager', prefix: 'Revue_Manager', role: ROLES.manager, lastColumn: 'Date de validation manager' },
      { button: 'Fichier BPO Métier', prefix: 'Revue_BPO_Metier', role: ROLES.bpoMetier, lastColumn: 'Date de validation BPO Métier' },
      { button: 'Fichier BPO Groupe', prefix: 'Revue_BPO_Groupe', role: ROLES.bpoGroupe, lastColumn: 'Statut final' },
    ]
    for (const expected of files) {
      const file = await download(page, expected.button)
      expect(file.name).toBe(`${expected.prefix}_${CAMPAIGN.replace(/ /g, '_')}_${stamp}.xlsx`)
      expect(file.sheets).toEqual(['Droits', 'Instructions'])
      const [header, ...rights] = file.rights
      expect(header?.[0]).toBe('ID du droit')
      expect(header?.[header.length - 1]).toBe(expected.lastColumn)
      expect(rights.map((row) => [row[1], row[3], row[4]])).toEqual([['Julie Martin', APPLICATION, expected.role]])
      expect(file.instructions[0]).toEqual(['Campagne', CAMPAIGN])
    }
    // The BPO Groupe's file shows the earlier stages' decisions beside the right.
    const groupe = await download(page, 'Fichier BPO Groupe')
    const [header, row] = groupe.rights
    expect(row?.[header!.indexOf('Validation manager')]).toBe('Validé')
    expect(row?.[header!.indexOf('Validation BPO Métier')]).toBe('Validé')
  })
})
