import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import type { TestProject } from 'vitest/node'
import { DEV_PUBLISHABLE_KEY } from '../../../supabase/local/keys'
import { startLocalBackend, type LocalBackend } from '../../../supabase/local/processes'
import { startMailCatcher, type MailCatcher } from '../../../supabase/local/mail/catcher'
import { CHROMIUM } from './browser'
import { startOpenIdProvider, type OpenIdProvider } from './openid-provider'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the app is served, e.g. http://127.0.0.1:41234. */
    appUrl: string
    backendUrl: string
    /** The mail catcher the contact function delivers to during this run (its JSON list is at /api/messages). */
    mailboxUrl: string
  }
}

/** A way of serving the app on a port, pointed at a backend: a build and its preview, or the dev server. */
export type ServeApp = (backendUrl: string, port: number) => Promise<{ close(): Promise<void> }>

// Ports handed out in this process. Both projects' global setups run at once: without this, a port one setup picked
// and released (its app is built before it listens) may be picked again by the other for its backend.
const HANDED_OUT: Set<number> = ((globalThis as { __journeyPorts?: Set<number> }).__journeyPorts ??= new Set())

function askSystemForPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

async function freePort(): Promise<number> {
  for (;;) {
    const port = await askSystemForPort()
    if (!HANDED_OUT.has(port)) {
      HANDED_OUT.add(port)
      return port
    }
  }
}

/**
 * A backend with the demo data, a mail catcher and the app served by `serveApp`, all on free ports so that a run works
 * beside `npm start` or another run; the tests learn the addresses through `inject`.
 */
export async function startJourneyServers(project: TestProject, serveApp: ServeApp): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing. Install Debian's Chromium: apt-get update && apt-get install -y chromium`)
  }
  const [backendPort, appPort] = [await freePort(), await freePort()]
  const backendLog: string[] = []
  let backend: LocalBackend | undefined
  let app: { close(): Promise<void> } | undefined
  let mailbox: MailCatcher | undefined
  let openId: OpenIdProvider | undefined
  const stop = async () => {
    await app?.close()
    await backend?.stop()
    await mailbox?.close()
    await openId?.close()
  }
  try {
    openId = await startOpenIdProvider(`http://127.0.0.1:${backendPort}/auth/v1/callback`)
    // The app's server runs the Netlify functions in this process; a set SMTP_URL wins over its local default. The
    // backend's auth e-mails (invitations) land there too, with links to this run's app.
    mailbox = await startMailCatcher({ smtpPort: 0, webPort: 0 })
    process.env.SMTP_URL = mailbox.smtpUrl
    process.env.AUTH_SMTP_URL = mailbox.smtpUrl
    process.env.SITE_URL = `http://127.0.0.1:${appPort}`
    // Every journey signs in from 127.0.0.1, browsers and API clients alike, often several accounts a minute: GoTrue's
    // token_refresh limit per address (tests/api/auth-limits.test.ts) is off here, where a burst of them would be refused.
    process.env.AUTH_RATE_LIMIT_TOKEN_REFRESH ??= '0'
    // Likewise the administrators' second-factor codes, verified at each of their sign-ins.
    process.env.AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS ??= '0'
    // « Se connecter avec Microsoft » leads to this run's OpenID provider, as Supabase's azure provider.
    Object.assign(process.env, openId.azureEnv)
    backend = await startLocalBackend({ port: backendPort, onLine: (line) => backendLog.push(line) })
    // The directory-sync and notifications functions, run by the app's server in this process, talk to this backend
    // (their service key is vite.config's).
    process.env.SUPABASE_URL = backend.url
    process.env.SUPABASE_PUBLISHABLE_KEY = DEV_PUBLISHABLE_KEY
    app = await serveApp(backend.url, appPort)
  } catch (error) {
    await stop()
    console.error(backendLog.join('\n'))
    throw error
  }
  project.provide('appUrl', `http://127.0.0.1:${appPort}`)
  project.provide('backendUrl', backend.url)
  project.provide('mailboxUrl', mailbox.webUrl)
  return stop
}
