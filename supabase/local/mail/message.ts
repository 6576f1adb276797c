import PostalMime, { type Address } from 'postal-mime'

export interface MailAddress {
  name: string
  address: string
}

/** One message as the catcher keeps it and as GET /api/messages returns it. */
export interface CaughtMessage {
  id: number
  /** When the SMTP server accepted it (ISO 8601). */
  receivedAt: string
  /** The SMTP envelope: who the client said it sends as and to, which may differ from the headers. */
  envelope: { from: string | null; to: string[] }
  from: MailAddress[]
  to: MailAddress[]
  cc: MailAddress[]
  replyTo: MailAddress[]
  subject: string
  /** The Date header (ISO 8601), when it is there and readable. */
  date: string | null
  text: string
  html: string | null
}

export type Envelope = CaughtMessage['envelope']

export async function parseMessage(raw: Buffer, id: number, envelope: Envelope): Promise<CaughtMessage> {
  const email = await PostalMime.parse(raw)
  const date = email.date ? new Date(email.date) : null
  return {
    id,
    receivedAt: new Date().toISOString(),
    envelope,
    from: mailboxes(email.from ? [email.from] : []),
    to: mailboxes(email.to),
    cc: mailboxes(email.cc),
    replyTo: mailboxes(email.replyTo),
    subject: email.subject ?? '',
    date: date && !Number.isNaN(date.getTime()) ? date.toISOString() : null,
    text: email.text ?? '',
    html: email.html ?? null,
  }
}

function mailboxes(addresses: Address[] | undefined): MailAddress[] {
  return (addresses ?? []).flatMap((entry) => (entry.group ? entry.group : [entry])).map(({ name, address }) => ({ name, address }))
}
