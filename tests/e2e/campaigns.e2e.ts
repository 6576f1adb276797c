import { readFile } from 'node:fs/promises'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import * as XLSX from 'xlsx'
import { stageFileColumns } from '../../src/domain/stage-files'
import { launchBrowser, menuItems, newContext, signIn } from './support/browser'
import { signedInClient } from './support/api'
import { chooseRowAction } from './support/menu'

// This journey works on its own application, with its own two holders (no manager, so nobody else's queue changes):
// the campaign it starts attaches only those two rights, whatever the other journeys do on the shared backend.
const RUN = Date.now().toString(36)
const APPLICATION = `E2E Campagnes ${RUN}`
const CAMPAIGN = `Revue E2E ${RUN}`
const HOLDERS = [`e2e.campagne.a.${RUN}@example.com`, `e2e.campagne.b.${RUN}@example.com`]
const RA_ID = '00000000-0000-4000-a000-000000000005'
const BPO_METIER_ID = '00000000-0000-4000-a000-000000000003'

let browser: Browser
let context: BrowserContext
let page: Page


beforeAll(async () => {
  browser = await launchBrowser()
  const admin = await signedInClient('admin@example.com')
  const application = await admin.rpc('create_application', {
    name: APPLICATION,
    description: 'Application du parcours des campagnes',
    ra_id: RA_ID,
    bpo_metier_id: BPO_METIER_ID,
  })
  if (application.error) throw application.error
  const users = await admin.from('users').insert(
    HOLDERS.map((email, index) => ({ email, first_name: index === 0 ? '=Alice' : 'Bruno', last_name: `E2E${index}`, role: 'user' })),
  )
  if (users.error) throw users.error
  const imported = await admin.rpc('import_user_rights', {
    rows: HOLDERS.map((email, index) => ({
      line: index + 2,
      email,
      application: APPLICATION,
      role_name: index === 0 ? 'Administrateur' : 'Lecteur',
      account_type: 'standard',
      granted_at: '2024-01-15',
      last_used_at: index === 0 ? '2026-10-01' : null,
      justification: index === 0 ? 'Support N2' : null,
    })),
  })
  if (imported.error) throw imported.error
  expect(imported.data).toMatchObject({ success: true, imported: 2 })
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

const campaignRow = () => page.getByRole('row').filter({ hasText: CAMPAIGN })

/** A lifecycle step, confirmed: the row's button, or its menu's item for Archiver (a closed campaign shows its report). */
async function confirm(action: string) {
  if (action === 'Archiver') await chooseRowAction(page, campaignRow(), CAMPAIGN, action)
  else await campaignRow().getByRole('button', { name: `${action} ${CAMPAIGN}` }).click()
  const dialog = page.getByRole('dialog', { name: `${action} la campagne` })
  await dialog.getByRole('button', { name: action, exact: true }).click()
  await dialog.waitFor({ state: 'detached' })
}

describe('campaigns', () => {
  it('lets an admin run a campaign through its life, with the manager file exported and read back', async () => {
    await signIn(page, 'admin@example.com')
    await page.goto('/app/campaigns')
    await page.getByRole('heading', { name: 'Campagnes' }).waitFor()

    // Create a draft scoped to the journey's application; the dialog refuses an end before the start first.
    await page.getByRole('button', { name: 'Nouvelle campagne' }).click()
    const form = page.getByRole('dialog', { name: 'Nouvelle campagne' })
    await form.getByLabel('Nom').fill(CAMPAIGN)
    await form.getByRole('textbox', { name: 'Date de début', exact: true }).fill('2026-12-10')
    await form.getByRole('textbox', { name: 'Date de fin', exact: true }).fill('2026-12-01')
    await form.getByRole('button', { name: 'Créer la campagne' }).click()
    await form.getByText('La date de fin doit être postérieure ou égale à la date de début.').waitFor()
    await form.getByRole('textbox', { name: 'Date de fin', exact: true }).fill('2026-12-31')
    await form.getByLabel('Application').selectOption({ label: APPLICATION })
    await form.getByRole('button', { name: 'Créer la campagne' }).click()
    await form.waitFor({ state: 'detached' })

    const row = campaignRow()
    await row.getByText('Brouillon').waitFor()
    await row.getByText(APPLICATION).waitFor()
    await row.getByText('Tous', { exact: true }).waitFor()
    await row.getByText('10/12/2026').waitFor()
    await row.getByText('31/12/2026').waitFor()
    expect(await row.getByRole('button', { name: `Démarrer ${CAMPAIGN}` }).count()).toBe(1)
    await row.getByRole('button', { name: `Autres actions pour ${CAMPAIGN}` }).click()
    await page.getByRole('menu').waitFor()
    expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual(['Export Excel', 'Relecteurs', 'Modifier', 'Supprimer'])
    await page.keyboard.press('Escape')

    // Démarrer attaches the two rights of the application: none reviewed yet, 0 %.
    await confirm('Démarrer')
    await row.getByText('Active', { exact: true }).waitFor()
    await row.getByText('0 droit revu sur 2').waitFor()
    expect(await row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('0')
    // Running: Terminer in view, and only the export in the menu.
    await row.getByRole('button', { name: `Terminer ${CAMPAIGN}` }).waitFor()
    await row.getByRole('button', { name: `Autres actions pour ${CAMPAIGN}` }).click()
    await page.getByRole('menu').waitFor()
    expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual(['Export Excel', 'Relecteurs', 'E-mails et rappels'])
    await page.keyboard.press('Escape')

    // The Excel dialog: 2 pending, nothing further; the manager file downloads and reads back.
    await chooseRowAction(page, row, CAMPAIGN, 'Export Excel')
    const exportDialog = page.getByRole('dialog', { name: 'Export Excel' })
    expect(await exportDialog.getByTestId('export-count-manager').innerText()).toBe('2')
    expect(await exportDialog.getByTestId('export-count-bpo_metier').innerText()).toBe('0')
    expect(await exportDialog.getByRole('button', { name: 'Fichier BPO Métier' }).isDisabled()).toBe(true)
    expect(await exportDialog.getByRole('button', { name: 'Fichier BPO Groupe' }).isDisabled()).toBe(true)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      exportDialog.getByRole('button', { name: 'Fichier Manager' }).click(),
    ])
    const today = new Date()
    const stamp = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`
    expect(download.suggestedFilename()).toBe(`Revue_Manager_${CAMPAIGN.replace(/ /g, '_')}_${stamp}.xlsx`)
    const workbook = XLSX.read(await readFile((await download.path())!), { type: 'buffer' })
    expect(workbook.SheetNames).toEqual(['Droits', 'Instructions'])
    const rows = XLSX.utils.sheet_to_json<string[]>(workbook.Sheets['Droits']!, { header: 1 })
    expect(rows[0]).toEqual(stageFileColumns('manager'))
    const data = rows.slice(1).sort((a, b) => String(a[2]).localeCompare(String(b[2])))
    expect(data).toHaveLength(2)
    expect(data.map((cells) => cells[2])).toEqual(HOLDERS)
    expect(data[0]?.slice(1, 8)).toEqual([
      "'=Alice E2E0",
      HOLDERS[0],
      APPLICATION,
      'Administrateur',
      '15 janvier 2024',
      '1er octobre 2026',
      'Support N2',
    ])
    expect(data[1]?.slice(6, 8)).toEqual(['Jamais', 'Accès nécessaire pour les fonctions'])
    const instructions = XLSX.utils.sheet_to_json<string[]>(workbook.Sheets['Instructions']!, { header: 1 })
    expect(instructions[0]).toEqual(['Campagne', CAMPAIGN])
    // The deadline is the campaign's end date, and the file promises only what Terminer does.
    expect(instructions).toContainEqual(['Date limite', '31 décembre 2026'])
    expect(instructions.flat()).toContain(
      "À la clôture de la campagne, les droits qui n'ont pas été décidés sont transmis au Responsable d'Application pour traitement.",
    )
    await exportDialog.getByRole('button', { name: 'Fermer' }).click()

    // Terminer, then Archiver: each confirmed, and the last step leaves no lifecycle button.
    await confirm('Terminer')
    await row.getByText('Terminée').waitFor()
    await confirm('Archiver')
    await row.getByText('Archivée').waitFor()
    expect(await row.getByRole('button', { name: /Démarrer|Terminer|Archiver|Modifier|Supprimer/ }).count()).toBe(0)
    await row.getByRole('button', { name: `Autres actions pour ${CAMPAIGN}` }).click()
    await page.getByRole('menu').waitFor()
    expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual(['Export Excel', 'Relecteurs'])
  })

  it('creates then deletes a draft after the irreversible-deletion confirmation', async () => {
    await signIn(page, 'rssi@example.com')
    await page.goto('/app/campaigns')
    const name = `Brouillon E2E ${RUN}`
    await page.getByRole('button', { name: 'Nouvelle campagne' }).click()
    const form = page.getByRole('dialog', { name: 'Nouvelle campagne' })
    await form.getByLabel('Nom').fill(name)
    await form.getByRole('textbox', { name: 'Date de début', exact: true }).fill('2027-01-01')
    await form.getByRole('textbox', { name: 'Date de fin', exact: true }).fill('2027-01-31')
    await form.getByLabel('Application').selectOption({ label: APPLICATION })
    await form.getByRole('button', { name: 'Créer la campagne' }).click()
    await form.waitFor({ state: 'detached' })
    const row = page.getByRole('row').filter({ hasText: name })
    await chooseRowAction(page, row, name, 'Supprimer')
    const dialog = page.getByRole('dialog', { name: 'Supprimer la campagne' })
    await dialog.getByText(/irréversible et supprime également les droits associés/).waitFor()
    await dialog.getByRole('button', { name: 'Supprimer', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await row.waitFor({ state: 'detached' })
  })

  it('shows the admin dashboard on live data, and its Nouvelle campagne opens the form', async () => {
    const admin = await signedInClient('admin@example.com')
    const { data, error } = await admin.rpc('admin_dashboard')
    if (error) throw error
    const counters = (Array.isArray(data) ? data[0] : data) as { active_campaigns: number; users: number }
    await signIn(page, 'admin@example.com')
    await page.getByRole('heading', { name: 'Tableau de bord' }).waitFor()
    await page.getByText('Campagnes actives').waitFor()
    await page.getByRole('tab', { name: 'Applications' }).click()
    await page.getByRole('link', { name: `Détails de ${APPLICATION}` }).waitFor()
    await page.getByRole('tab', { name: 'Utilisateurs' }).click()
    await page.getByText(HOLDERS[0]!).waitFor()
    await page.getByRole('tab', { name: 'Campagnes' }).click()
    await page.getByRole('link', { name: `Détails de ${CAMPAIGN}` }).click()
    await page.waitForURL('**/app/campaigns?**')
    await page.goto('/app/dashboard')
    await page.getByRole('button', { name: 'Nouvelle campagne' }).click()
    await page.getByRole('dialog', { name: 'Nouvelle campagne' }).getByLabel('Nom').waitFor()
    expect(counters.users).toBeGreaterThan(0)
  })

  it('shows a non-admin the list and the Excel export but no campaign action, and the server refuses its writes', async () => {
    await signIn(page, 'manager@example.com')
    expect(await menuItems(page)).not.toContain('Campagnes')
    await page.goto('/app/campaigns')
    await page.getByRole('heading', { name: 'Campagnes' }).waitFor()
    await page.getByRole('button', { name: 'Export Excel de Revue T4 2026 — comptes standard' }).waitFor()
    expect(await page.getByRole('button', { name: /Nouvelle campagne|Import CSV|Démarrer|Terminer|Archiver|Modifier|Supprimer/ }).count()).toBe(0)

    const user = await signedInClient('user@example.com')
    const insert = await user.from('campaigns').insert({ name: `Intrusion ${RUN}`, start_date: '2027-01-01', end_date: '2027-01-02' })
    expect(insert.error).not.toBeNull()
    const draft = await user.from('campaigns').select('id').eq('status', 'draft').limit(1)
    const draftId = (draft.data?.[0] as { id: string } | undefined)?.id
    expect(draftId).toBeDefined()
    const start = await user.from('campaigns').update({ status: 'active' }).eq('id', draftId!).select('id')
    expect(start.error !== null || start.data?.length === 0).toBe(true)
    const removal = await user.from('campaigns').delete().eq('id', draftId!).select('id')
    expect(removal.error !== null || removal.data?.length === 0).toBe(true)
    const still = await user.from('campaigns').select('status').eq('id', draftId!).single()
    expect(still.data).toEqual({ status: 'draft' })
    const dashboard = await user.rpc('admin_dashboard')
    expect(dashboard.error?.message).toMatch(/administrateurs/)
  })
})
