import { countText, plural } from '../../../src/domain/plural'

/** A message of the outbox as claim_notifications returns it (the columns the rendering and the sending need). */
export interface OutboxMessage {
  id: string
  kind: 'campaign_started' | 'stage_digest' | 'reminder' | 'escalation' | 'campaign_decided' | 'invitation' | 'delegation'
  recipient_email: string
  payload: NotificationPayload
}

/** What the database writes in a message's payload (20261121001100_notifications.sql). */
export interface NotificationPayload {
  campaign_name?: string
  end_date?: string
  recipient_name?: string
  count?: number
  counts?: Partial<Record<'user' | 'manager' | 'bpo_metier' | 'bpo_groupe' | 'ra', number>>
  days_left?: number
  days_late?: number
  reviewers?: number
  late?: { name: string; count: number }[]
  /** Invitation: who asked for it. */
  inviter_name?: string
  /** Delegation: whose items, at which stage, how many chosen (null: all), until when, why, and who reassigned them. */
  delegator_name?: string
  assigned_by_name?: string | null
  stage?: 'manager' | 'bpo_metier' | 'bpo_groupe' | 'ra'
  items?: number | null
  ends_on?: string
  reason?: string
}

export interface RenderedMail {
  subject: string
  text: string
  html: string
}

// How each stage's share of a count is named in the text.
const STAGE_LABELS: Record<string, string> = {
  user: 'en tant que titulaire',
  manager: 'en tant que manager',
  bpo_metier: 'en tant que BPO Métier',
  bpo_groupe: 'en tant que BPO Groupe',
  ra: "à traiter en tant que Responsable d'Application",
}

// The delegator's office, after their name: « Paul Roux (manager) ».
const OFFICE_LABELS: Record<string, string> = {
  manager: 'manager',
  bpo_metier: 'BPO Métier',
  bpo_groupe: 'BPO Groupe',
  ra: "Responsable d'Application",
}

/**
 * The French e-mail for one message: subject, plain text and the same in HTML, with a link to the page where the work
 * waits (Mes revues for reviewers, Campagnes for a campaign's creator). Pure: the same message gives the same mail.
 * Every value from the database is escaped in the HTML.
 */
export function renderNotification(message: OutboxMessage, appUrl: string, inviteLink?: string): RenderedMail {
  const p = message.payload
  const campaign = `« ${p.campaign_name ?? 'Campagne'} »`
  const count = p.count ?? 0
  const rights = countText(count, 'droit', 'droits')
  const deadline = p.end_date ? formatDate(p.end_date) : ''
  const reviews = `${appUrl.replace(/\/+$/, '')}/app/reviews`
  const campaigns = `${appUrl.replace(/\/+$/, '')}/app/campaigns`
  const wait = plural(count, 'attend', 'attendent')

  let subject: string
  let lines: string[]
  let list: string[] = []
  let link: { href: string; label: string }
  switch (message.kind) {
    case 'campaign_started':
      subject = `Campagne ${campaign} : ${rights} à revoir avant le ${deadline}`
      lines = [`La campagne de revue des droits ${campaign} a démarré.`, `${rights} ${wait} votre décision, avant le ${deadline}.`]
      list = stageLines(p)
      link = { href: reviews, label: 'Ouvrir Mes revues' }
      break
    case 'stage_digest':
      subject = `Campagne ${campaign} : ${rights} ${plural(count, 'arrive', 'arrivent')} à votre étape`
      lines = [`Dans la campagne ${campaign}, ${rights} ${plural(count, 'vient', 'viennent')} d'arriver à votre étape de revue.`, `Date de fin de la campagne : ${deadline}.`]
      list = stageLines(p)
      link = { href: reviews, label: 'Ouvrir Mes revues' }
      break
    case 'reminder': {
      const days = countText(p.days_left ?? 0, 'jour', 'jours')
      subject = `Rappel : ${rights} à revoir dans la campagne ${campaign}`
      lines = [
        p.days_left === 0
          ? `La campagne ${campaign} se termine aujourd'hui (${deadline}).`
          : `La campagne ${campaign} se termine dans ${days}, le ${deadline}.`,
        `${rights} ${wait} encore votre décision.`,
      ]
      list = stageLines(p)
      link = { href: reviews, label: 'Ouvrir Mes revues' }
      break
    }
    case 'escalation': {
      const reviewers = countText(p.reviewers ?? 0, 'réviseur', 'réviseurs')
      subject = `Campagne ${campaign} en retard : ${rights} sans décision`
      lines = [
        `La campagne ${campaign} devait se terminer le ${deadline} (${countText(p.days_late ?? 0, 'jour', 'jours')} de retard).`,
        `${reviewers} ${plural(p.reviewers ?? 0, "n'a", "n'ont")} pas terminé : ${rights} ${wait} encore une décision.`,
      ]
      list = (p.late ?? []).map((late) => `${late.name} : ${countText(late.count, 'droit', 'droits')}`)
      if ((p.reviewers ?? 0) > list.length) list.push(`… et ${countText((p.reviewers ?? 0) - list.length, 'autre réviseur', 'autres réviseurs')}`)
      link = { href: campaigns, label: 'Ouvrir les campagnes' }
      break
    }
    case 'campaign_decided':
      subject = `Campagne ${campaign} : toutes les décisions sont prises`
      lines = [`Toutes les décisions de revue de la campagne ${campaign} sont prises (${rights}).`, 'Vous pouvez la terminer depuis la page des campagnes.']
      link = { href: campaigns, label: 'Ouvrir les campagnes' }
      break
    case 'delegation': {
      const delegation = delegationText(p, campaign, rights, wait, deadline)
      subject = delegation.subject
      lines = delegation.lines
      link = { href: reviews, label: 'Ouvrir Mes revues' }
      break
    }
    case 'invitation':
      if (!inviteLink) throw new Error('An invitation is rendered with its link')
      subject = 'Votre accès à Recertif : choisissez votre mot de passe'
      lines = [
        p.inviter_name ? `${p.inviter_name} vous invite à rejoindre Recertif, l'outil de revue des droits d'accès.` : "Vous êtes invité à rejoindre Recertif, l'outil de revue des droits d'accès.",
        'Choisissez votre mot de passe avec le lien ci-dessous : il ne sert qu’une fois et expire au bout d’une heure ; passé ce délai, demandez à votre administrateur de vous envoyer une nouvelle invitation.',
        'Passé ce délai, demandez une nouvelle invitation à votre administrateur.',
      ]
      link = { href: inviteLink, label: 'Choisir mon mot de passe' }
      break
  }

  const greeting = p.recipient_name ? `Bonjour ${p.recipient_name},` : 'Bonjour,'
  const footer = 'Ce message est envoyé automatiquement par Recertif.'
  const text = [greeting, '', ...lines, ...(list.length ? ['', ...list.map((item) => `- ${item}`)] : []), '', `${link.label} : ${link.href}`, '', footer, ''].join('\n')
  const html = [
    '<!doctype html><html lang="fr"><body style="font-family:Arial,sans-serif;color:#1f2937">',
    `<p>${escapeHtml(greeting)}</p>`,
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    list.length ? `<ul>${list.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>` : '',
    `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`,
    `<p style="color:#6b7280;font-size:12px">${escapeHtml(footer)}</p>`,
    '</body></html>',
  ].join('')
  return { subject, text, html }
}

/**
 * Items delegated by their reviewer, or reassigned by an administrator: who, whose, which (all of them or how many
 * chosen), until when and why, then how many wait for the delegate now.
 */
function delegationText(p: NotificationPayload, campaign: string, rights: string, wait: string, deadline: string): { subject: string; lines: string[] } {
  const delegator = `${p.delegator_name ?? 'Un réviseur'}${p.stage && OFFICE_LABELS[p.stage] ? ` (${OFFICE_LABELS[p.stage]})` : ''}`
  const chosen = p.items == null ? null : `la revue de ${countText(p.items, 'droit choisi', 'droits choisis')}`
  const until = p.ends_on ? `, jusqu'au ${formatDate(p.ends_on)} inclus` : ''
  const [subject, given] = p.assigned_by_name
    ? [
        `Campagne ${campaign} : les revues de ${p.delegator_name ?? 'un réviseur'} vous sont confiées`,
        `${p.assigned_by_name} vous confie ${chosen ? `${chosen} de ${delegator}` : `les revues de ${delegator}`}`,
      ]
    : [`Campagne ${campaign} : ${p.delegator_name ?? 'un réviseur'} vous délègue ses revues`, `${delegator} vous délègue ${chosen ?? 'ses revues'}`]
  const count = p.count ?? 0
  const waiting =
    count > 0
      ? `${rights} ${wait} votre décision, à prendre pour son compte${deadline ? ` avant la fin de la campagne, le ${deadline}` : ''}.`
      : chosen
        ? "Aucun de ces droits n'attend votre décision pour l'instant."
        : "Aucun droit n'attend votre décision pour l'instant : ceux qui arriveront à son étape d'ici là apparaîtront dans Mes revues."
  return { subject, lines: [`${given} dans la campagne ${campaign}${until}.`, ...(p.reason ? [`Motif : ${p.reason}`] : []), waiting] }
}

function stageLines(p: NotificationPayload): string[] {
  const counts = Object.entries(p.counts ?? {}).filter(([, n]) => (n ?? 0) > 0)
  // One stage says nothing the count did not: the breakdown helps only someone who reviews at two stages.
  if (counts.length < 2) return []
  return counts.map(([stage, n]) => `${countText(n ?? 0, 'droit', 'droits')} ${STAGE_LABELS[stage] ?? stage}`)
}

/** 2026-12-24 → 24/12/2026. */
function formatDate(isoDate: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split('-')
  return `${day}/${month}/${year}`
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
