import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser, newContext, signIn } from './support/browser'
import { signedInClient, type ApiClient } from './support/api'

// This journey imports into its own application, holders and draft campaign, so that what it checks through the API
// is only what it imported, whatever the other journeys do on the shared backend.
const RUN = Date.now().toString(36)
const APPLICATION = `E2E Import ${RUN}`
const CAMPAIGN = `Import E2E ${RUN}`
const HOLDERS = [`e2e.import.a.${RUN}@example.com`, `e2e.import.b.${RUN}@example.com`] as const
const ROLES = { good: `Lecteur ${RUN}`, second: `Éditeur ${RUN}`, bad: `Refusé ${RUN}` }
const RA_ID = '00000000-0000-4000-a000-000000000005'
const BPO_METIER_ID = '00000000-0000-4000-a000-000000000003'

let browser: Browser
let context: BrowserContext
let page: Page
let admin: ApiClient
let campaignId: string


/** The rights the journey's role names hold, as the database has them. */
async function importedRights() {
  const { data, error } = await admin
    .from('user_rights')
    .select('role_name, account_type, status, campaign_id, granted_at, last_used_at, justification, user:user_id(email), application:application_id(name)')
    .in('role_name', Object.values(ROLES))
  if (error) throw error
  const rights = data as unknown as {
    role_name: string
    account_type: string
    status: string
    campaign_id: string | null
    granted_at: string
    last_used_at: string | null
    justification: string | null
    user: { email: string }
    application: { name: string }
  }[]
  return rights.sort((a, b) => a.user.email.localeCompare(b.user.email))
}

const file = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') })

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signedInClient('admin@example.com')
  const application = await admin.rpc('create_application', { name: APPLICATION, description: "Application du parcours d'import", ra_id: RA_ID, bpo_metier_id: BPO_METIER_ID })
  if (application.error) throw application.error
  const users = await admin.from('users').insert(HOLDERS.map((email, index) => ({ email, first_name: 'Import', last_name: `E2E${index}`, role: 'user' })))
  if (users.error) throw users.error
  const { data: app, error: appError } = await admin.from('applications').select('id').eq('name', APPLICATION).single()
  if (appError) throw appError
  const campaign = await admin
    .from('campaigns')
    .insert({ name: CAMPAIGN, start_date: '2027-01-01', end_date: '2027-01-31', application_id: (app as { id: string }).id })
    .select('id')
    .single()
  if (campaign.error) throw campaign.error
  campaignId = (campaign.data as { id: string }).id
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

describe('import of rights', () => {
  it('lists the bad lines of a file and imports nothing, then imports a good file into a draft campaign', async () => {
    const scripts: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url())
    })
    await signIn(page, 'admin@example.com')
    await page.goto('/app/campaigns')
    await page.getByRole('heading', { name: 'Campagnes' }).waitFor()
    await page.getByRole('button', { name: 'Import CSV' }).click()
    const dialog = page.getByRole('dialog', { name: 'Import CSV des droits' })
    await dialog.getByLabel('Fichier CSV').waitFor()
    // The parser (papaparse) is not loaded before a file is chosen.
    expect(scripts.filter((url) => /csv-import/.test(url))).toEqual([])

    // A file with errors: every bad line listed with its number, the import button disabled.
    const bad = [
      "E-mail;Application;Rôle;Type de compte;Date d'attribution;Dernière utilisation",
      `${HOLDERS[0]};${APPLICATION};${ROLES.good};Standard;15/03/2024;`,
      `inconnu.${RUN}@example.org;${APPLICATION};${ROLES.bad};;;`,
      `${HOLDERS[1]};Application inexistante ${RUN};${ROLES.bad};;;`,
      `${HOLDERS[1]};${APPLICATION};${ROLES.bad};root;31/02/2024;`,
      `${HOLDERS[0].toUpperCase()};${APPLICATION};${ROLES.good};;;`,
      `${HOLDERS[1]};${APPLICATION};=cmd|' /C calc'!A0;;;`,
    ].join('\r\n')
    await dialog.getByLabel('Fichier CSV').setInputFiles(file('erreurs.csv', bad))
    const problems = dialog.getByRole('list', { name: /Lignes en erreur/ })
    await problems.waitFor()
    expect(scripts.filter((url) => /csv-import/.test(url))).toHaveLength(1)
    expect(await problems.getByRole('listitem').allInnerTexts()).toEqual([
      `Ligne 3 : utilisateur inconnu : inconnu.${RUN}@example.org`,
      `Ligne 4 : application inconnue : Application inexistante ${RUN}`,
      "Ligne 5 : type de compte inconnu : root ; date d'attribution invalide : 31/02/2024",
      'Ligne 6 : doublon de la ligne 2',
      'Ligne 7 : formule interdite dans « Rôle » : une cellule ne peut pas commencer par =, +, - ou @',
    ])
    const importButton = dialog.getByRole('button', { name: /^Importer/ })
    expect(await importButton.isDisabled()).toBe(true)
    expect(await importedRights()).toEqual([])

    // A good file, ','-separated with a BOM, into the journey's draft campaign.
    await dialog.getByLabel('Campagne').selectOption({ label: `${CAMPAIGN} (Brouillon)` })
    const good = [
      "\uFEFFE-mail,Application,Rôle,Type de compte,Date d'attribution,Dernière utilisation,Justification",
      `${HOLDERS[0]},${APPLICATION},${ROLES.good},À privilèges,15/03/2024,2026-10-01,Support N2`,
      `${HOLDERS[1].toUpperCase()},${APPLICATION.toLowerCase()},${ROLES.second},,2024-01-02,Jamais,`,
    ].join('\n')
    await dialog.getByLabel('Fichier CSV').setInputFiles(file('droits.csv', good))
    await dialog.getByText('droits.csv : 2 lignes valides, 0 ligne en erreur.').waitFor()
    await dialog.getByRole('button', { name: 'Importer 2 droits' }).click()
    await dialog.getByText(`2 droits importés dans la campagne « ${CAMPAIGN} ».`).waitFor()

    const rights = await importedRights()
    expect(rights.map(({ granted_at, last_used_at, ...rest }) => ({ ...rest, granted: granted_at.slice(0, 10), used: last_used_at?.slice(0, 10) ?? null }))).toEqual([
      {
        role_name: ROLES.good,
        account_type: 'privileged',
        status: 'pending',
        campaign_id: campaignId,
        granted: '2024-03-15',
        used: '2026-10-01',
        justification: 'Support N2',
        user: { email: HOLDERS[0] },
        application: { name: APPLICATION },
      },
      {
        role_name: ROLES.second,
        account_type: 'standard',
        status: 'pending',
        campaign_id: campaignId,
        granted: '2024-01-02',
        used: null,
        justification: null,
        user: { email: HOLDERS[1] },
        application: { name: APPLICATION },
      },
    ])

    // The campaigns list is refreshed: the draft now holds the two rights.
    await dialog.getByRole('button', { name: 'Fermer' }).last().click()
    await page.getByRole('row').filter({ hasText: CAMPAIGN }).getByText('2 droits').waitFor()

    // The same file again is refused whole by the server, which reports each line; nothing changes.
    await page.getByRole('button', { name: 'Import CSV' }).click()
    await dialog.getByLabel('Fichier CSV').setInputFiles(file('droits.csv', good))
    await dialog.getByRole('button', { name: 'Importer 2 droits' }).click()
    const report = dialog.getByRole('list', { name: 'Lignes refusées par le serveur' })
    await report.waitFor()
    expect(await report.getByRole('listitem').allInnerTexts()).toEqual(['Ligne 2 : ce droit existe déjà', 'Ligne 3 : ce droit existe déjà'])
    expect(await importedRights()).toHaveLength(2)
  })
})
