import { signedInClient } from './support/api'
import { mainMenu, pagePerTest, signIn } from './support/browser'

const tab = pagePerTest()

// Unique names: other e2e files share this backend, and nothing here touches the demo data they rely on.
const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
const appName = `E2E App ${suffix}`
const appRenamed = `E2E App ${suffix} bis`
const userEmail = `e2e-admin-${suffix}@example.com`
const userLast = `Essai${suffix}`
const ruleName = `E2E Règle ${suffix}`

async function openPage(menuLabel: string, heading: string) {
  await mainMenu(tab.page).getByRole('link', { name: menuLabel }).click()
  await tab.page.getByRole('heading', { name: heading, level: 1 }).waitFor()
}

describe('administration as admin', () => {
  it('creates, edits and deletes an application, a user and a control rule', async () => {
    await signIn(tab.page, 'admin@example.com')

    // Application, with the demo RA and BPO Métier as owners.
    await openPage('Applications', 'Applications')
    await tab.page.getByRole('button', { name: 'Nouvelle application' }).click()
    let dialog = tab.page.getByRole('dialog', { name: 'Nouvelle application' })
    await dialog.locator('input[name="name"]').fill(appName)
    await dialog.locator('textarea[name="description"]').fill('Créée par le test de bout en bout')
    await dialog.locator('select[name="ra_id"]').selectOption({ label: 'Nadia Moreau' })
    await dialog.locator('select[name="bpo_metier_id"]').selectOption({ label: 'Sophie Bernard' })
    await dialog.getByRole('button', { name: 'Créer' }).click()
    await dialog.waitFor({ state: 'detached' })
    const appRow = tab.page.getByRole('row', { name: new RegExp(appName) })
    await appRow.getByText('Nadia Moreau').waitFor()
    await appRow.getByText('Sophie Bernard').waitFor()

    // Edit it: rename.
    await tab.page.getByRole('button', { name: `Modifier ${appName}` }).click()
    dialog = tab.page.getByRole('dialog', { name: "Modifier l'application" })
    await dialog.locator('input[name="name"]').fill(appRenamed)
    await dialog.getByRole('button', { name: 'Enregistrer' }).click()
    await dialog.waitFor({ state: 'detached' })
    await tab.page.getByRole('cell', { name: appRenamed, exact: true }).waitFor()

    // User.
    await openPage('Utilisateurs', 'Utilisateurs')
    await tab.page.getByRole('button', { name: 'Nouvel utilisateur' }).click()
    dialog = tab.page.getByRole('dialog', { name: 'Nouvel utilisateur' })
    await dialog.locator('input[name="email"]').fill(userEmail)
    await dialog.locator('input[name="first_name"]').fill('Eve')
    await dialog.locator('input[name="last_name"]').fill(userLast)
    await dialog.locator('input[name="position"]').fill('Testeuse')
    // The manager is found on the server as one types, among however many people there are.
    await dialog.getByRole('combobox', { name: 'Manager' }).fill('dubois')
    await dialog.getByRole('option', { name: 'Marc Dubois' }).click()
    await dialog.getByRole('button', { name: 'Créer' }).click()
    await dialog.waitFor({ state: 'detached' })
    await tab.page.getByRole('searchbox', { name: 'Rechercher un utilisateur' }).fill(userLast)
    await tab.page.getByRole('status').filter({ hasText: '1–1 sur 1 utilisateur' }).waitFor()
    const userRow = tab.page.getByRole('row', { name: new RegExp(userEmail) })
    await userRow.getByText('Utilisateur', { exact: true }).waitFor()
    await userRow.getByText('Jamais').waitFor()
    await userRow.getByText('Marc Dubois').waitFor()

    // Control rule on the new application, then toggled off.
    await openPage('Contrôles', 'Contrôles')
    await tab.page.getByRole('button', { name: 'Nouvelle règle' }).click()
    dialog = tab.page.getByRole('dialog', { name: 'Nouvelle règle de contrôle' })
    await dialog.locator('input[name="name"]').fill(ruleName)
    await dialog.getByLabel(/Règle globale/).uncheck()
    await dialog.locator('select[name="application_id"]').selectOption({ label: appRenamed })
    // The new application has no rights yet: no role to pick, so the rule flags unused rights instead.
    await expect.poll(() => dialog.getByLabel('Rôle 1').textContent()).toBe('Aucun droit sur cette application : aucun rôle à proposer')
    await dialog.getByLabel(/Rôles incompatibles/).uncheck()
    await dialog.getByLabel(/Droits inutilisés/).check()
    await dialog.getByLabel(/Seuil d’inactivité/).fill('0')
    await dialog.getByRole('button', { name: 'Créer' }).click()
    await dialog.getByText("Le seuil d'inactivité doit être un nombre de jours supérieur à zéro, cent ans (36 500 jours) au plus.").waitFor()
    await dialog.getByLabel(/Seuil d’inactivité/).fill('45')
    const words = `Tout droit sur ${appRenamed} non utilisé depuis plus de 45 jours, ou jamais utilisé, est signalé.`
    const preview = dialog.getByRole('region', { name: 'La règle en clair' })
    await preview.getByText(words).waitFor()
    await preview.getByText("Concerne aujourd'hui 0 droit inutilisé").waitFor()
    await dialog.getByRole('button', { name: 'Créer' }).click()
    await dialog.waitFor({ state: 'detached' })
    const ruleRow = tab.page.getByRole('row', { name: new RegExp(ruleName) })
    await ruleRow.getByText(words).waitFor()
    await ruleRow.getByText("Concerne aujourd'hui 0 droit inutilisé").waitFor()
    await ruleRow.getByText('Active', { exact: true }).waitFor()
    await ruleRow.getByText(appRenamed, { exact: true }).waitFor()
    await tab.page.getByRole('button', { name: `Désactiver ${ruleName}` }).click()
    await ruleRow.getByText('Inactive', { exact: true }).waitFor()

    // Clean up: the rule, the user, then the application.
    await tab.page.getByRole('button', { name: `Supprimer ${ruleName}` }).click()
    await tab.page.getByRole('dialog', { name: 'Supprimer la règle' }).getByRole('button', { name: 'Supprimer' }).click()
    await ruleRow.waitFor({ state: 'detached' })

    await openPage('Utilisateurs', 'Utilisateurs')
    await tab.page.getByRole('searchbox', { name: 'Rechercher un utilisateur' }).fill(userLast)
    await tab.page.getByRole('button', { name: `Supprimer Eve ${userLast}` }).click()
    dialog = tab.page.getByRole('dialog', { name: "Supprimer l'utilisateur" })
    await dialog.getByText(`Êtes-vous sûr de vouloir supprimer l'utilisateur Eve ${userLast} ? Cette action est irréversible.`).waitFor()
    await dialog.getByRole('button', { name: 'Supprimer' }).click()
    await tab.page.getByRole('row', { name: new RegExp(userEmail) }).waitFor({ state: 'detached' })

    await openPage('Applications', 'Applications')
    await tab.page.getByRole('button', { name: `Supprimer ${appRenamed}` }).click()
    await tab.page.getByRole('dialog', { name: "Supprimer l'application" }).getByRole('button', { name: 'Supprimer' }).click()
    await tab.page.getByRole('cell', { name: appRenamed, exact: true }).waitFor({ state: 'detached' })
  })

  it('shows the Applications list without actions to an RA', async () => {
    await signIn(tab.page, 'ra@example.com')
    await openPage('Applications', 'Applications')
    await tab.page.getByRole('cell', { name: 'SAP Finance', exact: true }).waitFor()
    expect(await tab.page.getByRole('button', { name: 'Nouvelle application' }).count()).toBe(0)
    expect(await tab.page.getByRole('button', { name: /^(Modifier|Supprimer) / }).count()).toBe(0)
  })
})

describe('server-side permissions', () => {
  it("refuses a non-administrator's write with the French message", async () => {
    const client = await signedInClient('user@example.com')
    const { data, error } = await client.rpc('create_application', {
      name: `E2E refus ${suffix}`,
      ra_id: '00000000-0000-4000-a000-000000000005',
      bpo_metier_id: '00000000-0000-4000-a000-000000000003',
    })
    expect(data).toBeNull()
    expect(error?.message).toBe('Seuls les administrateurs et le RSSI peuvent créer une application.')
    await client.auth.signOut()
  })
})
