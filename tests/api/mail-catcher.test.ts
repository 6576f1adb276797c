import { spawn } from 'node:child_process'
import { once } from 'node:events'
import nodemailer, { type SendMailOptions } from 'nodemailer'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailCatcher, type MailCatcher } from '../../supabase/local/mail/catcher'
import type { CaughtMessage } from '../../supabase/local/mail/message'

let catcher: MailCatcher
beforeAll(async () => {
  catcher = await startMailCatcher({ smtpPort: 0, webPort: 0 })
})
afterAll(() => catcher.close())

async function send(smtpUrl: string, mail: SendMailOptions, auth?: { user: string; pass: string }): Promise<void> {
  const transporter = nodemailer.createTransport({ url: smtpUrl, ...(auth ? { auth } : {}) })
  try {
    await transporter.sendMail({ from: 'app@recertif.example', to: 'boite@recertif.example', ...mail })
  } finally {
    transporter.close()
  }
}

describe('mail catcher', () => {
  it('keeps a message received over SMTP and returns it from /api/messages', async () => {
    await send(catcher.smtpUrl, {
      from: '"Recertif" <app@recertif.example>',
      to: 'Support <support@recertif.example>',
      cc: 'copie@recertif.example',
      replyTo: '"Élodie Durand" <elodie@client.example>',
      subject: 'Révision des droits',
      text: 'Première ligne\nDeuxième ligne',
      date: new Date('2026-03-05T09:30:00Z'),
    })

    const response = await fetch(`${catcher.webUrl}/api/messages`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const messages = (await response.json()) as CaughtMessage[]
    expect(messages.at(-1)).toMatchObject({
      envelope: { from: 'app@recertif.example', to: ['support@recertif.example', 'copie@recertif.example'] },
      from: [{ name: 'Recertif', address: 'app@recertif.example' }],
      to: [{ name: 'Support', address: 'support@recertif.example' }],
      cc: [{ name: '', address: 'copie@recertif.example' }],
      replyTo: [{ name: 'Élodie Durand', address: 'elodie@client.example' }],
      subject: 'Révision des droits',
      date: '2026-03-05T09:30:00.000Z',
      html: null,
    })
    expect(messages.at(-1)?.text.trimEnd()).toBe('Première ligne\nDeuxième ligne')
    expect(catcher.messages()).toEqual(messages)
  })

  it('shows messages on a French page, escaping everything the sender wrote', async () => {
    await send(catcher.smtpUrl, {
      replyTo: '"<img src=x onerror=alert(1)>" <pirate@client.example>',
      subject: '<script>alert("objet")</script>',
      text: 'Corps & <b>balises</b>',
    })

    const response = await fetch(catcher.webUrl)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
    const page = await response.text()
    expect(page).toContain('<html lang="fr">')
    expect(page).toContain('Boîte de réception locale')
    for (const label of ['De', 'À', 'Répondre à', 'Date', 'Reçu le']) expect(page).toContain(`<dt>${label}</dt>`)
    expect(page).toContain('&#60;script&#62;alert(&#34;objet&#34;)&#60;/script&#62;')
    expect(page).toContain('Corps &#38; &#60;b&#62;balises&#60;/b&#62;')
    expect(page).toContain('&#60;img src=x onerror=alert(1)&#62; &#60;pirate@client.example&#62;')
    expect(page).not.toMatch(/<script|<img|<b>/)
    expect(page.indexOf('&#60;script')).toBeLessThan(page.indexOf('Révision des droits'))
  })

  it('accepts any credentials, as a local development server does', async () => {
    await send(catcher.smtpUrl, { subject: 'Avec identifiants', text: 'x' }, { user: 'recertif', pass: 'secret' })
    expect(catcher.messages().at(-1)?.subject).toBe('Avec identifiants')
  })

  it('empties the mailbox on DELETE /api/messages and answers unknown paths with 404', async () => {
    expect((await fetch(`${catcher.webUrl}/api/messages`, { method: 'DELETE' })).status).toBe(204)
    expect(catcher.messages()).toEqual([])
    expect(await (await fetch(catcher.webUrl)).text()).toContain('Aucun message reçu')
    expect((await fetch(`${catcher.webUrl}/ailleurs`)).status).toBe(404)
  })

  it('keeps only the most recent messages', async () => {
    const small = await startMailCatcher({ smtpPort: 0, webPort: 0, limit: 3 })
    try {
      for (let i = 1; i <= 5; i++) await send(small.smtpUrl, { subject: `n°${i}`, text: String(i) })
      expect(small.messages().map((message) => message.subject)).toEqual(['n°3', 'n°4', 'n°5'])
    } finally {
      await small.close()
    }
  })

  it('refuses to start on a port already in use', async () => {
    const { port } = new URL(catcher.smtpUrl)
    await expect(startMailCatcher({ smtpPort: Number(port), webPort: 0 })).rejects.toThrow(/EADDRINUSE/)
  })
})

describe('mail catcher command', () => {
  it('prints its two URLs and a ready line, serves, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'supabase/local/mail/main.ts'], {
      env: { ...process.env, MAIL_SMTP_PORT: '0', MAIL_WEB_PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    try {
      // Read on until exit: a closed pipe would make the command's own goodbye line fail.
      const output = await new Promise<string>((resolve, reject) => {
        let text = ''
        child.stdout.setEncoding('utf8')
        child.stdout.on('data', (chunk: string) => {
          text += chunk
          if (/^ready$/m.test(text)) resolve(text)
        })
        child.once('exit', (code) => reject(new Error(`exited with ${code} before ready:\n${text}`)))
      })
      const smtpUrl = /SMTP:\s+(smtp:\/\/\S+)/.exec(output)?.[1]
      const webUrl = /Messages:\s+(http:\/\/\S+)/.exec(output)?.[1]
      expect(smtpUrl).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/)
      expect(webUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)

      await send(smtpUrl!, { subject: 'Par la commande', text: 'ok' })
      const messages = (await (await fetch(`${webUrl}/api/messages`)).json()) as CaughtMessage[]
      expect(messages.map((message) => message.subject)).toEqual(['Par la commande'])
    } finally {
      child.kill('SIGTERM')
      const [code] = await once(child, 'exit')
      expect(code).toBe(0)
    }
  })
})
