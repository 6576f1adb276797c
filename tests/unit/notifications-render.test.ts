import { describe, expect, it } from 'vitest'
import { dispatchNotifications, type MailSender } from '../../netlify/functions/notifications/dispatch'
import { renderNotification, type OutboxMessage } from '../../netlify/functions/notifications/render'
import type { Rpc } from '../../netlify/functions/notifications/rpc'

const APP_URL = 'https://recertif.example/'

function message(kind: OutboxMessage['kind'], payload: OutboxMessage['payload']): OutboxMessage {
  return { id: 'm1', kind, recipient_email: 'claire@example.org', payload: { campaign_name: 'Revue T4', end_date: '2026-12-24', recipient_name: 'Claire Martin', ...payload } }
}

describe('renderNotification', () => {
  it('tells a reviewer at the start how many rights wait, by when, and where, in text and HTML', () => {
    const mail = renderNotification(message('campaign_started', { count: 1500, counts: { user: 2, manager: 1498 } }), APP_URL)
    expect(mail.subject).toBe('Campagne « Revue T4 » : 1\u202f500 droits à revoir avant le 24/12/2026')
    expect(mail.text).toContain('Bonjour Claire Martin,')
    expect(mail.text).toContain('1\u202f500 droits attendent votre décision, avant le 24/12/2026.')
    expect(mail.text).toContain('- 2 droits en tant que titulaire')
    expect(mail.text).toContain('- 1\u202f498 droits en tant que manager')
    expect(mail.text).toContain('Ouvrir Mes revues : https://recertif.example/app/reviews')
    expect(mail.html).toContain('<a href="https://recertif.example/app/reviews">Ouvrir Mes revues</a>')
  })

  it('agrees every count with its noun and verb at 0, 1 and 2', () => {
    expect(renderNotification(message('stage_digest', { count: 1, counts: { bpo_metier: 1 } }), APP_URL).subject).toBe(
      'Campagne « Revue T4 » : 1 droit arrive à votre étape',
    )
    expect(renderNotification(message('stage_digest', { count: 2, counts: { bpo_metier: 2 } }), APP_URL).subject).toBe(
      'Campagne « Revue T4 » : 2 droits arrivent à votre étape',
    )
    const reminder = renderNotification(message('reminder', { count: 1, days_left: 1 }), APP_URL)
    expect(reminder.text).toContain('se termine dans 1 jour, le 24/12/2026')
    expect(reminder.text).toContain('1 droit attend encore votre décision.')
    expect(renderNotification(message('reminder', { count: 2, days_left: 0 }), APP_URL).text).toContain("se termine aujourd'hui (24/12/2026)")
  })

  it('lists the late reviewers for an escalation and links to the campaigns', () => {
    const mail = renderNotification(
      message('escalation', { days_late: 2, reviewers: 3, count: 9, late: [{ name: 'Paul Roux', count: 7 }, { name: 'Léa Petit', count: 1 }] }),
      APP_URL,
    )
    expect(mail.subject).toBe('Campagne « Revue T4 » en retard : 9 droits sans décision')
    expect(mail.text).toContain("3 réviseurs n'ont pas terminé : 9 droits attendent encore une décision.")
    expect(mail.text).toContain('- Paul Roux : 7 droits\n- Léa Petit : 1 droit\n- … et 1 autre réviseur')
    expect(mail.text).toContain('https://recertif.example/app/campaigns')
  })

  it('escapes in the HTML whatever names and campaign titles hold', () => {
    const mail = renderNotification(
      message('campaign_decided', { campaign_name: '<script>alert(1)</script>', recipient_name: 'A "B" & C', count: 3 }),
      APP_URL,
    )
    expect(mail.html).not.toContain('<script>')
    expect(mail.html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;')
    expect(mail.html).toContain('A &#34;B&#34; &#38; C')
    expect(mail.subject).toBe('Campagne « <script>alert(1)</script> » : toutes les décisions sont prises')
  })
})

describe('renderNotification: items delegated', () => {
  const delegation = (payload: OutboxMessage['payload']) =>
    renderNotification(message('delegation', { delegator_name: 'Paul Roux', stage: 'manager', items: null, ends_on: '2026-12-05', reason: 'Congés', assigned_by_name: null, ...payload }), APP_URL)

  it('tells the delegate who delegated, for how long and why, how many rights wait, and links to Mes revues', () => {
    const mail = delegation({ count: 12 })
    expect(mail.subject).toBe('Campagne « Revue T4 » : Paul Roux vous délègue ses revues')
    expect(mail.text).toContain('Bonjour Claire Martin,')
    expect(mail.text).toContain("Paul Roux (manager) vous délègue ses revues dans la campagne « Revue T4 », jusqu'au 05/12/2026 inclus.")
    expect(mail.text).toContain('Motif : Congés')
    expect(mail.text).toContain('12 droits attendent votre décision, à prendre pour son compte avant la fin de la campagne, le 24/12/2026.')
    expect(mail.text).toContain('Ouvrir Mes revues : https://recertif.example/app/reviews')
    expect(mail.html).toContain('<a href="https://recertif.example/app/reviews">Ouvrir Mes revues</a>')
  })

  it('agrees the chosen and waiting rights at 0, 1 and 2, and names the administrator who reassigned them', () => {
    const one = delegation({ items: 1, count: 1, stage: 'bpo_metier' })
    expect(one.text).toContain('Paul Roux (BPO Métier) vous délègue la revue de 1 droit choisi dans la campagne')
    expect(one.text).toContain('1 droit attend votre décision')
    const reassigned = delegation({ items: 2, count: 2, stage: 'ra', assigned_by_name: 'Alice Admin' })
    expect(reassigned.subject).toBe('Campagne « Revue T4 » : les revues de Paul Roux vous sont confiées')
    expect(reassigned.text).toContain("Alice Admin vous confie la revue de 2 droits choisis de Paul Roux (Responsable d'Application) dans la campagne")
    expect(reassigned.text).toContain('2 droits attendent votre décision')
    expect(delegation({ assigned_by_name: 'Alice Admin', count: 0 }).text).toContain(
      "Alice Admin vous confie les revues de Paul Roux (manager) dans la campagne « Revue T4 », jusqu'au 05/12/2026 inclus.",
    )
    expect(delegation({ count: 0 }).text).toContain("Aucun droit n'attend votre décision pour l'instant : ceux qui arriveront à son étape d'ici là apparaîtront dans Mes revues.")
    expect(delegation({ items: 3, count: 0 }).text).toContain("Aucun de ces droits n'attend votre décision pour l'instant.")
  })

  it('escapes in the HTML the names and the reason', () => {
    const mail = delegation({ delegator_name: '<b>Paul</b>', reason: 'Congés & <i>formation</i>', count: 1 })
    expect(mail.html).not.toContain('<b>Paul</b>')
    expect(mail.html).toContain('&#60;b&#62;Paul&#60;/b&#62; (manager) vous délègue')
    expect(mail.html).toContain('Motif : Congés &#38; &#60;i&#62;formation&#60;/i&#62;')
  })
})

describe('dispatchNotifications', () => {
  function fakeRpc(batch: OutboxMessage[]) {
    const finished: { p_id: string; p_ok: boolean; p_error: string | null }[] = []
    const rpc: Rpc = async <T>(name: string, args: Record<string, unknown> = {}) => {
      if (name === 'run_campaign_schedule') return { data: { created: 1, started: 2 } as T, error: null }
      if (name === 'run_notification_schedule') return { data: { reminders: 1, escalations: 0 } as T, error: null }
      if (name === 'claim_notifications') return { data: batch as T, error: null }
      finished.push(args as (typeof finished)[number])
      return { data: 'sent' as T, error: null }
    }
    return { rpc, finished }
  }

  it('records each outcome, and stops knocking once the server is unreachable', async () => {
    const batch = ['a', 'b', 'c', 'd'].map((id) => ({ ...message('reminder', { count: 1 }), id }))
    const { rpc, finished } = fakeRpc(batch)
    const tried: string[] = []
    const mailer: MailSender = {
      sendMail: async (options) => {
        tried.push(String(options.subject))
        if (tried.length === 2) throw Object.assign(new Error('451 please retry'), { code: 'EENVELOPE', responseCode: 451, command: 'RCPT TO' })
        if (tried.length === 3) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' })
        return {}
      },
    }
    const inviteLink = async () => {
      throw new Error('not an invitation')
    }
    const report = await dispatchNotifications({ rpc, mailer, now: new Date('2026-12-21T10:00:00Z'), from: 'no-reply@recertif.example', appUrl: APP_URL, inviteLink })
    expect(report).toEqual({ campaignsCreated: 1, campaignsStarted: 2, reminders: 1, escalations: 0, claimed: 4, sent: 1, failed: 3 })
    expect(tried).toHaveLength(3)
    expect(finished.map((f) => [f.p_id, f.p_ok])).toEqual([['a', true], ['b', false], ['c', false], ['d', false]])
    expect(finished[1]?.p_error).toBe("Échec de l'envoi SMTP (code=EENVELOPE command=RCPT TO responseCode=451)")
    expect(finished[3]?.p_error).toBe("Échec de l'envoi SMTP (code=ECONNECTION)")
  })

  it('mails an invitation with the link made when it is sent, and records a link that could not be made as a failure', async () => {
    const invitation = (id: string, recipient: string) => ({ id, kind: 'invitation' as const, recipient_email: recipient, payload: { recipient_name: 'Nina <Arrivée>', inviter_name: 'Alice Admin' } })
    const { rpc, finished } = fakeRpc([invitation('i1', 'nina@example.org'), invitation('i2', 'deja@example.org')])
    const mails: { to: unknown; subject: unknown; text: unknown; html: unknown }[] = []
    const asked: [string, string][] = []
    const inviteLink = async (email: string, redirectTo: string) => {
      asked.push([email, redirectTo])
      if (email === 'deja@example.org') throw new Error('email_exists: A user with this email address has already been registered')
      return 'https://auth.example/verify?token=abc&type=invite&redirect_to=https%3A%2F%2Frecertif.example%2Fmot-de-passe'
    }
    const mailer: MailSender = { sendMail: async ({ to, subject, text, html }) => mails.push({ to, subject, text, html }) }
    const report = await dispatchNotifications({ rpc, mailer, now: new Date('2026-12-21T10:00:00Z'), from: 'no-reply@recertif.example', appUrl: APP_URL, inviteLink })

    expect(asked).toEqual([
      ['nina@example.org', 'https://recertif.example/mot-de-passe'],
      ['deja@example.org', 'https://recertif.example/mot-de-passe'],
    ])
    expect(report).toMatchObject({ claimed: 2, sent: 1, failed: 1 })
    expect(mails).toHaveLength(1)
    expect(mails[0]).toMatchObject({ to: 'nina@example.org', subject: 'Votre accès à Recertif : choisissez votre mot de passe' })
    expect(mails[0]?.text).toContain('Bonjour Nina <Arrivée>,')
    expect(mails[0]?.text).toContain('Alice Admin vous invite à rejoindre Recertif')
    expect(mails[0]?.text).toContain('Choisir mon mot de passe : https://auth.example/verify?token=abc&type=invite')
    expect(mails[0]?.text).toContain('expire au bout d’une heure')
    expect(mails[0]?.html).toContain('Nina &#60;Arrivée&#62;')
    expect(mails[0]?.html).toContain('href="https://auth.example/verify?token=abc&#38;type=invite')
    expect(finished.map((f) => [f.p_id, f.p_ok, f.p_error])).toEqual([
      ['i1', true, null],
      ['i2', false, "Échec de la création du lien d'invitation (email_exists: A user with this email address has already been registered)"],
    ])
  })
})
