import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Server } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { parseMessage, type CaughtMessage, type Envelope } from './message'
import { renderMailbox } from './page'

export interface MailCatcherOptions {
  /** 0 picks a free port. */
  smtpPort?: number
  webPort?: number
  host?: string
  /** How many messages are kept; older ones are dropped. */
  limit?: number
}

export interface MailCatcher {
  smtpUrl: string
  webUrl: string
  /** The kept messages, oldest first. */
  messages(): CaughtMessage[]
  close(): Promise<void>
}

export const DEFAULT_SMTP_PORT = 54325
export const DEFAULT_WEB_PORT = 54324
const MAX_MESSAGE_BYTES = 10 * 1024 * 1024

/**
 * The local stand-in for the Supabase CLI's mail viewer: a real SMTP server that keeps what it receives in
 * memory, and a page that shows it. It accepts any sender, any recipient and any credentials, on loopback only.
 */
export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const host = options.host ?? '127.0.0.1'
  const limit = options.limit ?? 200
  let stored: CaughtMessage[] = []
  let nextId = 1

  const smtp = new SMTPServer({
    // No certificate to offer: clients would refuse the built-in self-signed one during STARTTLS.
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    size: MAX_MESSAGE_BYTES,
    closeTimeout: 2000,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? 'local' }),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(Object.assign(new Error('Message too large'), { responseCode: 552 }))
        const envelope: Envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
        }
        // Stored before the reply, so a client that got "250 OK" finds its message on the page right away.
        parseMessage(Buffer.concat(chunks), nextId++, envelope).then(
          (message) => {
            stored = [...stored, message].slice(-limit)
            callback()
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        )
      })
    },
  })
  // Client connection errors arrive here (without a listener they would end the process); a failure to
  // listen arrives here too, but startMailCatcher already rejects with it.
  let listening = false
  smtp.on('error', (error) => {
    if (listening) console.warn(`mail catcher: SMTP connection error: ${error.message}`)
  })

  await listen(smtp.server, () => smtp.listen(options.smtpPort ?? DEFAULT_SMTP_PORT, host))
  listening = true
  const smtpUrl = `smtp://${host}:${(smtp.server.address() as AddressInfo).port}`

  const web = http.createServer((req, res) => handleWeb(req, res, { messages: () => stored, clear: () => (stored = []), smtpUrl, limit }))
  try {
    await listen(web, () => web.listen(options.webPort ?? DEFAULT_WEB_PORT, host))
  } catch (error) {
    await new Promise<void>((resolve) => smtp.close(resolve))
    throw error
  }
  const webUrl = `http://${host}:${(web.address() as AddressInfo).port}`

  return {
    smtpUrl,
    webUrl,
    messages: () => [...stored],
    close: async () => {
      web.closeAllConnections()
      await Promise.all([new Promise<void>((resolve) => smtp.close(resolve)), new Promise<void>((resolve) => web.close(() => resolve()))])
    },
  }
}

function listen(server: Server, start: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once('error', onError)
    server.once('listening', () => {
      server.off('error', onError)
      resolve()
    })
    start()
  })
}

interface Mailbox {
  messages(): readonly CaughtMessage[]
  clear(): void
  smtpUrl: string
  limit: number
}

function handleWeb(req: IncomingMessage, res: ServerResponse, mailbox: Mailbox): void {
  const path = new URL(req.url ?? '/', 'http://catcher').pathname
  if (path === '/api/messages' && req.method === 'GET') {
    return reply(res, 200, 'application/json; charset=utf-8', JSON.stringify(mailbox.messages()))
  }
  if (path === '/api/messages' && req.method === 'DELETE') {
    mailbox.clear()
    return reply(res, 204, 'text/plain; charset=utf-8', '')
  }
  if (path === '/' && (req.method === 'GET' || req.method === 'HEAD')) {
    return reply(res, 200, 'text/html; charset=utf-8', renderMailbox(mailbox.messages(), mailbox.smtpUrl, mailbox.limit), {
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    })
  }
  reply(res, 404, 'text/plain; charset=utf-8', 'Page introuvable.')
}

function reply(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers })
  res.end(body)
}
