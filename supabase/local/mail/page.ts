import type { CaughtMessage, MailAddress } from './message'

const dateFormat = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeStyle: 'medium' })

/** Everything shown comes from whoever sent the mail: all of it is escaped, and the page runs no script. */
export function renderMailbox(messages: readonly CaughtMessage[], smtpUrl: string, limit: number): string {
  const items = [...messages].reverse().map(renderMessage).join('\n')
  const count = messages.length === 0 ? 'Aucun message reçu' : `${messages.length} message${messages.length > 1 ? 's' : ''}`
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<title>Boîte de réception locale — Recertif</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #1f2937; }
  header p { color: #4b5563; }
  article { border: 1px solid #d1d5db; border-radius: .5rem; padding: 1rem; margin: 1rem 0; }
  h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 .75rem; }
  dt { font-weight: 600; }
  dd { margin: 0; }
  pre { white-space: pre-wrap; word-break: break-word; background: #f3f4f6; padding: .75rem; border-radius: .25rem; }
</style>
</head>
<body>
<header>
<h1>Boîte de réception locale</h1>
<p>Les messages envoyés à ${escapeHtml(smtpUrl)} restent ici, en mémoire (les ${limit} derniers). Rien ne part sur Internet.</p>
<p>${count}. <a href="/">Actualiser</a> · <a href="/api/messages">JSON</a></p>
</header>
<main>
${items}
</main>
</body>
</html>
`
}

function renderMessage(message: CaughtMessage): string {
  const rows: Array<[string, string]> = [
    ['De', addresses(message.from)],
    ['À', addresses(message.to)],
    ...(message.cc.length > 0 ? [['Copie', addresses(message.cc)] as [string, string]] : []),
    ['Répondre à', addresses(message.replyTo) || '—'],
    ['Date', message.date ? dateFormat.format(new Date(message.date)) : '—'],
    ['Reçu le', dateFormat.format(new Date(message.receivedAt))],
  ]
  const body = message.text || (message.html ? `(message HTML sans version texte)\n\n${message.html}` : '(message vide)')
  return `<article id="message-${message.id}">
<h2>${escapeHtml(message.subject || '(sans objet)')}</h2>
<dl>${rows.map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>
<pre>${escapeHtml(body)}</pre>
</article>`
}

function addresses(list: readonly MailAddress[]): string {
  return list.map(({ name, address }) => (name ? `${name} <${address}>` : address)).join(', ')
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
