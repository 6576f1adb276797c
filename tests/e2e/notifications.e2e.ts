// The notifications in the browser: a campaign starts, the administrator runs the scheduled pass from
// « Envois d'e-mails » (« Envoyer maintenant », the pass the schedule runs every 10 minutes); the mail catcher then
// holds one message per reviewer, each with their own count, and nothing of the campaign is left waiting. Whether the
// start writes its messages itself or the pass writes them, a deployment sends them only through the pass, and so
// does this journey: it reads the mail catcher only once the pass has run.
import { randomUUID } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { inject } from 'vitest'
import type { CaughtMessage } from '../../supabase/local/mail/message'
import { serviceClient, signedInClient } from './support/api'
import { launchBrowser, mainMenu, newContext, signIn } from './support/browser'

let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  context = await newContext(browser)
  page = await context.newPage()
})
afterAll(async () => {
  await context?.close()
  await browser?.close()
})

async function mailbox(): Promise<CaughtMessage[]> {
  return (await (await fetch(`${inject('mailboxUrl')}/api/messages`)).json()) as CaughtMessage[]
}

/** A manager, two holders (2 rights and 1) on an application of their own, and a campaign over it, started by the admin. */
async function startTeamCampaign(): Promise<{ name: string; manager: string; holders: [string, string] }> {
  const service = serviceClient()
  const tag = randomUUID().slice(0, 8)
  const email = (who: string) => `${who}.${tag}@example.org`
  const person = (who: string, managerId: string | null = null) => ({ id: randomUUID(), email: email(who), first_name: who, last_name: tag, role: managerId ? 'user' : 'manager', manager_id: managerId }) as const
  const manager = person('manager')
  const holders = [person('camille', manager.id), person('hugo', manager.id)] as const
  const users = await service.from('users').insert([manager, ...holders])
  if (users.error) throw users.error
  const demo = await service.from('users').select('id, email').in('email', ['ra@example.com', 'bpo@example.com'])
  const ownerId = (address: string) => demo.data?.find((u) => u.email === address)?.id ?? ''
  const app = await service.from('applications').insert({ name: `Notifications ${tag}`, ra_id: ownerId('ra@example.com'), bpo_metier_id: ownerId('bpo@example.com') }).select('id').single()
  if (app.error) throw app.error
  const rights = [holders[0], holders[0], holders[1]].map((h, i) => ({ user_id: h.id, application_id: app.data.id, role_name: `Rôle ${i}`, account_type: 'standard' as const }))
  const inserted = await service.from('user_rights').insert(rights)
  if (inserted.error) throw inserted.error

  const admin = await signedInClient('admin@example.com')
  const name = `Revue notifiée ${tag}`
  const today = new Date().toISOString().slice(0, 10)
  const end = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
  const created = await admin.from('campaigns').insert({ name, application_id: app.data.id, start_date: today, end_date: end }).select('id').single()
  if (created.error) throw created.error
  const started = await admin.from('campaigns').update({ status: 'active' }).eq('id', created.data.id)
  if (started.error) throw started.error
  return { name, manager: manager.email, holders: [holders[0].email, holders[1].email] }
}

describe("notifications: a campaign's start reaches its reviewers", () => {
  it('sends them on the pass the admin runs now, one per reviewer with their count, and leaves none waiting', async () => {
    const campaign = await startTeamCampaign()
    await signIn(page, 'admin@example.com')
    await mainMenu(page).getByRole('link', { name: "Envois d'e-mails" }).click()
    await page.getByRole('heading', { name: "Envois d'e-mails" }).waitFor()
    // What the pass says (the list's pager has a status line of its own).
    const passStatus = page.getByRole('status').filter({ hasText: /envoyé|Aucun message/ })
    await page.getByRole('button', { name: 'Envoyer maintenant' }).click()
    await passStatus.getByText(/messages? envoyés?/).waitFor()
    // A pass sends at most 50 messages, and the other journeys on this backend leave theirs: passes go on, each from a
    // fresh page so that its status is its own, until the pass has nothing left to send (a few at most).
    for (let pass = 0; pass < 10 && !(await passStatus.getByText('Aucun message à envoyer.').isVisible()); pass += 1) {
      await page.reload()
      await page.getByRole('button', { name: 'Envoyer maintenant' }).click()
      await passStatus.waitFor()
    }
    await passStatus.getByText('Aucun message à envoyer.').waitFor()
    // Sent, the campaign's messages are listed as such, newest first, each found by its recipient's address.
    for (const address of [campaign.manager, ...campaign.holders]) {
      await page.getByRole('searchbox', { name: 'Rechercher un destinataire' }).fill(address)
      const rows = page.getByRole('table', { name: 'E-mails de Recertif' }).getByRole('row').filter({ hasText: address })
      await rows.filter({ hasText: 'Démarrage de campagne' }).filter({ hasText: 'Envoyé' }).waitFor()
      expect(await rows.count()).toBe(1)
    }

    const mails = (await mailbox()).filter((m) => m.subject.includes(campaign.name))
    const countFor = (address: string) => mails.filter((m) => m.envelope.to.includes(address)).map((m) => /: (\d+) droits? à revoir/.exec(m.subject)?.[1])
    expect(countFor(campaign.manager)).toEqual(['3'])
    expect(countFor(campaign.holders[0])).toEqual(['2'])
    expect(countFor(campaign.holders[1])).toEqual(['1'])
    expect(mails).toHaveLength(3)
  })
})
