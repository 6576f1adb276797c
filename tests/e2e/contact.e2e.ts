import { randomUUID } from 'node:crypto'
import { inject } from 'vitest'
import type { CaughtMessage } from '../../supabase/local/mail/message'
import { pagePerTest } from './support/browser'

const tab = pagePerTest()

async function mailbox(): Promise<CaughtMessage[]> {
  const response = await fetch(`${inject('mailboxUrl')}/api/messages`)
  return (await response.json()) as CaughtMessage[]
}

async function fillContactForm(values: { name: string; email: string; subject: string; message: string }) {
  await tab.page.getByLabel('Nom').fill(values.name)
  await tab.page.getByLabel('Adresse e-mail').fill(values.email)
  await tab.page.getByLabel('Sujet').fill(values.subject)
  await tab.page.getByRole('textbox', { name: /^Message/ }).fill(values.message)
}

describe('contact form', () => {
  it('refuses an incomplete form with the French message and sends nothing', async () => {
    const before = (await mailbox()).length
    await tab.page.goto('/contact')
    await tab.page.getByRole('button', { name: 'Envoyer le message' }).click()
    await tab.page.getByText('Tous les champs sont obligatoires.').waitFor()
    expect((await mailbox()).length).toBe(before)
  })

  it('delivers a message to the mailbox, shows the success screen, and offers to send another', async () => {
    const subject = `Démonstration ${randomUUID()}`
    await tab.page.goto('/contact')
    await fillContactForm({ name: 'Camille Durand', email: 'camille.durand@example.org', subject, message: 'Bonjour, pouvez-vous me rappeler ?' })
    await tab.page.getByRole('button', { name: 'Envoyer le message' }).click()

    await tab.page.getByRole('status').getByText('Message envoyé').waitFor()
    const delivered = (await mailbox()).find((message) => message.subject.includes(subject))
    expect(delivered).toBeDefined()
    expect(delivered?.text).toContain('Bonjour, pouvez-vous me rappeler ?')
    expect(delivered?.replyTo.map((address) => address.address)).toEqual(['camille.durand@example.org'])

    await tab.page.getByRole('button', { name: 'Envoyer un autre message' }).click()
    await tab.page.getByRole('button', { name: 'Envoyer le message' }).waitFor()
    expect(await tab.page.getByLabel('Sujet').inputValue()).toBe('')
  })
})
