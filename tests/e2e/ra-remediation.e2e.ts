import type { Browser } from 'playwright-core'
import { signedInClient, type ApiClient } from './support/api'
import { rpc, createJourneyApplication, createJourneyCampaign, importJulieRights, setCampaignStatus } from './support/journey-data'
import { launchBrowser, signedInSessions } from './support/browser'

// A right refused in a closed campaign stays with the RA until treated: the administrator's Démarrer says it leaves it
// out, and the RA's queue still holds it after the start. The journey has its own application, with two rights of Julie
// Martin (whose manager is Marc): one refused by Marc, one approved by him and treated by the RA after the close; it
// closes the campaigns it starts.
const RUN = Date.now().toString(36)
const APPLICATION = `Remédiation ${RUN}`
const ROLES = { refused: `Administrateur ${RUN}`, kept: `Lecteur ${RUN}` }

let browser: Browser
const { as, closeAll } = signedInSessions(() => browser)
let admin: ApiClient
let applicationId: string
const campaigns: string[] = []

async function createCampaign(name: string): Promise<string> {
  const id = await createJourneyCampaign(admin, name, applicationId)
  campaigns.push(id)
  return id
}

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await signedInClient('admin@example.com')
  applicationId = await createJourneyApplication(admin, APPLICATION, 'Application du parcours de remédiation')
  const earlier = await createCampaign(`Revue passée ${RUN}`)
  await importJulieRights(admin, earlier, APPLICATION, Object.values(ROLES))
  await setCampaignStatus(admin, earlier, 'active')
  const rights = await admin.from('user_rights').select('id, role_name').eq('campaign_id', earlier)
  if (rights.error) throw rights.error
  const marc = await signedInClient('manager@example.com')
  for (const right of rights.data) {
    await rpc(marc, 'validate_user_right', { right_id: right.id, new_status: right.role_name === ROLES.refused ? 'refused_manager' : 'validated_manager' })
  }
  await setCampaignStatus(admin, earlier, 'completed')
  // Approved by Marc but undecided at the BPO Métier's stage when it closed, the kept right went to the RA too, who
  // has checked it since; the refused one she has not.
  const nadia = await signedInClient('ra@example.com')
  await rpc(nadia, 'validate_user_right', { right_id: rights.data.find((r) => r.role_name === ROLES.kept)!.id, new_status: 'treated' })
})
afterAll(async () => {
  for (const id of campaigns) await admin?.from('campaigns').update({ status: 'completed' }).eq('id', id).eq('status', 'active')
  await closeAll()
  await browser?.close()
})

describe('refused access stays with the RA', () => {
  it('Démarrer says it leaves the refused right with the RA, and the RA still has it to treat afterwards', async () => {
    const refusedRow = `${APPLICATION} — ${ROLES.refused} (Julie Martin)`
    const ra = await as('ra@example.com')
    await ra.goto('/app/reviews')
    await ra.getByRole('heading', { name: 'Mes revues' }).waitFor()
    await ra.getByRole('button', { name: `Marquer traité ${refusedRow}`, exact: true }).waitFor()

    const next = `Revue suivante ${RUN}`
    await createCampaign(next)
    const page = await as('admin@example.com')
    await page.goto('/app/campaigns')
    await page.getByRole('heading', { name: 'Campagnes' }).waitFor()
    await page.getByRole('row').filter({ hasText: next }).getByRole('button', { name: `Démarrer ${next}` }).click()
    const dialog = page.getByRole('dialog', { name: 'Démarrer la campagne' })
    const figures = dialog.getByRole('list', { name: 'Périmètre du démarrage' })
    await figures.getByText('1 droit sera rattaché à la campagne.').waitFor()
    await figures.getByText(/1 droit en attente de traitement par le RA ne sera pas repris/).waitFor()
    await dialog.getByRole('button', { name: 'Démarrer', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('row').filter({ hasText: next }).getByText('Active', { exact: true }).waitFor()

    await ra.reload()
    await ra.getByRole('button', { name: `Marquer traité ${refusedRow}`, exact: true }).waitFor()
    const marc = await as('manager@example.com')
    await marc.goto('/app/reviews')
    await marc.getByRole('heading', { name: 'Mes revues' }).waitFor()
    await marc.getByRole('button', { name: `Valider ${APPLICATION} — ${ROLES.kept} (Julie Martin)`, exact: true }).waitFor()
    expect(await marc.getByRole('button', { name: `Valider ${refusedRow}`, exact: true }).count()).toBe(0)
  })
})
