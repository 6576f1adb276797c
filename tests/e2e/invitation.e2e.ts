// The invitation journey: the administrator creates a person with the form; the invitation waits in the
// notification outbox until a pass mails it (called here with an explicit now, as the scheduled function would run);
// the person opens the link from the mail catcher, chooses a password and lands on their dashboard, signed in. The
// same link, opened again, gets the French page for a link expired or already used.
import { randomUUID } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser, mainMenu, newContext, signIn } from './support/browser'
import { deliverOutbox, invitationLink, mailsTo } from './support/mail'

let browser: Browser
let admin: BrowserContext
let invitee: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  admin = await newContext(browser)
  invitee = await newContext(browser)
  page = await admin.newPage()
})
afterAll(async () => {
  await admin?.close()
  await invitee?.close()
  await browser?.close()
})

describe('an invited person', () => {
  it('opens the link from the mail, sets a password and lands on their dashboard; the link then no longer works', async () => {
    const tag = randomUUID().slice(0, 8)
    const address = `invitee.${tag}@example.org`

    await signIn(page, 'admin@example.com')
    await mainMenu(page).getByRole('link', { name: 'Utilisateurs' }).click()
    await page.getByRole('button', { name: 'Nouvel utilisateur' }).click()
    const dialog = page.getByRole('dialog', { name: 'Nouvel utilisateur' })
    await dialog.locator('input[name="email"]').fill(address)
    await dialog.locator('input[name="first_name"]').fill('Inès')
    await dialog.locator('input[name="last_name"]').fill(`Invitée ${tag}`)
    await dialog.getByRole('button', { name: 'Créer' }).click()
    await dialog.waitFor({ state: 'detached' })
    // Nothing is mailed by the creation itself: the invitation waits for the pass.
    expect(await mailsTo(address)).toEqual([])

    await deliverOutbox()
    const mails = await mailsTo(address)
    expect(mails).toHaveLength(1)
    const link = invitationLink(mails[0]!)

    const person = await invitee.newPage()
    await person.goto(link)
    await person.getByRole('heading', { name: 'Choisir mon mot de passe' }).waitFor()
    await person.getByLabel(/^Nouveau mot de passe/).fill('Bienvenue2026!')
    await person.getByLabel(/^Confirmer le mot de passe/).fill('Bienvenue2026!')
    await person.getByRole('button', { name: 'Enregistrer et me connecter' }).click()
    await person.getByRole('heading', { name: 'Tableau de bord' }).waitFor()
    await mainMenu(person).waitFor()
    expect(new URL(person.url()).pathname).toBe('/app/dashboard')

    // The same link, opened again (here in another browser), is spent: a clear French page, no session.
    const again = await (await newContext(browser)).newPage()
    await again.goto(link)
    await again.getByRole('heading', { name: "Lien d'invitation invalide" }).waitFor()
    await again.getByText("Ce lien n'est plus valable : il a expiré ou a déjà servi.").waitFor()
    await again.context().close()
  })
})
