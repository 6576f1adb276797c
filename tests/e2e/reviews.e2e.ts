import type { Browser, Page } from 'playwright-core'
import { signedInClient } from './support/api'
import { launchBrowser, signedInSessions } from './support/browser'

// Each journey decides on demo rights no other e2e file touches:
//   * Julie Martin's Active Directory / Utilisateur VPN (validated) and ServiceNow / Demandeur (refused, then treated by the RA);
//   * Lucas Bonnet's SAP Finance / Lecteur, carried from the manager to the BPO Groupe.

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

async function decideInDialog(page: Page, button: string, comment?: string) {
  const dialog = page.getByRole('dialog', { name: 'Revue du droit' })
  await dialog.waitFor()
  if (comment) await dialog.getByLabel('Commentaire (facultatif)').fill(comment)
  await dialog.getByRole('button', { name: button, exact: true }).click()
  await dialog.waitFor({ state: 'detached' })
}

/** Decides one right of the caller's queue in Mes revues, through the validation dialog. */
async function decideInQueue(page: Page, rowLabel: string, button: string, comment?: string) {
  await page.goto('/app/reviews')
  await page.getByRole('heading', { name: 'Mes revues' }).waitFor()
  await page.getByRole('button', { name: `${button} ${rowLabel}`, exact: true }).click()
  await decideInDialog(page, button, comment)
  await page.getByRole('button', { name: `${button} ${rowLabel}`, exact: true }).waitFor({ state: 'detached' })
}

async function statusAs(email: string, application: string, roleName: string, holderEmail: string): Promise<string> {
  const client = await signedInClient(email)
  const { data, error } = await client
    .from('user_rights')
    .select('status, role_name, application:application_id!inner(name), holder:user_id!inner(email)')
    .eq('role_name', roleName)
    .eq('application.name', application)
    .eq('holder.email', holderEmail)
  if (error) throw error
  expect(data).toHaveLength(1)
  return (data?.[0] as { status: string }).status
}

describe('reviews', () => {
  it("lets the user validate one right and refuse another, and the RA close the refused one as Traité", async () => {
    const user = await as('user@example.com')
    await user.getByRole('heading', { name: 'Tableau de bord' }).waitFor()
    const table = user.getByRole('table', { name: 'Droits à revoir' })
    await table.waitFor()
    await user.getByText(/Date limite de revue/).getByText(/\d{4}/).waitFor()

    await user.getByRole('button', { name: 'Valider Active Directory — Utilisateur VPN' }).click()
    await decideInDialog(user, 'Valider')
    const vpn = table.getByRole('row').filter({ hasText: 'Utilisateur VPN' })
    await vpn.getByText("Validé par l'utilisateur").waitFor()
    expect(await vpn.getByRole('button').count()).toBe(0)

    await user.getByRole('button', { name: 'Refuser ServiceNow — Demandeur' }).click()
    await decideInDialog(user, 'Refuser', "Je n'utilise plus ServiceNow")
    await table.getByRole('row').filter({ hasText: 'Demandeur' }).getByText("Refusé par l'utilisateur").waitFor()

    const ra = await as('ra@example.com')
    await ra.getByRole('link', { name: /Notifications : mes revues, \d+ droits? en attente/ }).click()
    await ra.waitForURL('**/app/reviews')
    await decideInQueue(ra, 'ServiceNow — Demandeur (Julie Martin)', 'Marquer traité', 'Accès supprimé dans ServiceNow')
    expect(await statusAs('ra@example.com', 'ServiceNow', 'Demandeur', 'user@example.com')).toBe('treated')
  })

  it('carries a right from the manager through the BPO Métier to the BPO Groupe', async () => {
    const row = 'SAP Finance — Lecteur (Lucas Bonnet)'
    const manager = await as('manager@example.com')
    await decideInQueue(manager, row, 'Valider')

    const bpo = await as('bpo@example.com')
    await decideInQueue(bpo, row, 'Valider')

    const groupe = await as('bpo.groupe@example.com')
    await groupe.goto('/app/reviews')
    await groupe
      .getByRole('row')
      .filter({ has: groupe.getByRole('button', { name: `Valider ${row}`, exact: true }) })
      .getByText('Validé par le BPO Métier')
      .waitFor()
    await decideInQueue(groupe, row, 'Valider', 'Conforme')
    expect(await statusAs('bpo.groupe@example.com', 'SAP Finance', 'Lecteur', 'lucas.bonnet@example.com')).toBe('validated_bpo_groupe')
  })
})
