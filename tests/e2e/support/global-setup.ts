import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { preview, type PreviewServer } from 'vite'
import type { TestProject } from 'vitest/node'
import { DEV_ANON_KEY } from '../../../supabase/local/keys'
import { startLocalBackend, type LocalBackend } from '../../../supabase/local/processes'
import { startMailCatcher, type MailCatcher } from '../../../supabase/local/mail/catcher'
import { CHROMIUM } from './browser'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the built app is served, e.g. http://127.0.0.1:41234. */
    appUrl: string
    backendUrl: string
    /** The mail catcher the contact function delivers to during this run (its JSON list is at /api/messages). */
    mailboxUrl: string
  }
}

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
// Per run, so that two runs at once (two developers' sessions, or CI beside a developer) never share a build.
const OUT_DIR = `.tmp/e2e-dist-${process.pid}`

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/**
 * `npm run build:local` for this run's backend, in a child process: inside Vitest NODE_ENV is 'test', which would
 * give React's development build.
 */
function buildApp(backendUrl: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, VITE_SUPABASE_URL: backendUrl, VITE_SUPABASE_ANON_KEY: DEV_ANON_KEY }
  delete env.NODE_ENV
  const vite = fileURLToPath(new URL('../../../node_modules/vite/bin/vite.js', import.meta.url))
  const child = spawn(process.execPath, [vite, 'build', '--mode', 'local-server', '--outDir', OUT_DIR, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`The app build failed (exit code ${code})`))))
  })
}

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing. Install Debian's Chromium: apt-get update && apt-get install -y chromium`)
  }
  const [backendPort, appPort] = [await freePort(), await freePort()]
  const backendLog: string[] = []
  let backend: LocalBackend | undefined
  let server: PreviewServer | undefined
  let mailbox: MailCatcher | undefined
  try {
    // The preview server runs the contact function in this process; a set SMTP_URL wins over its local default. The
    // backend's auth e-mails (invitations) land there too, with links to this run's app.
    mailbox = await startMailCatcher({ smtpPort: 0, webPort: 0 })
    process.env.SMTP_URL = mailbox.smtpUrl
    process.env.AUTH_SMTP_URL = mailbox.smtpUrl
    process.env.SITE_URL = `http://127.0.0.1:${appPort}`
    backend = await startLocalBackend({ port: backendPort, onLine: (line) => backendLog.push(line) })
    // The directory-sync function, run by the preview server in this process, talks to this backend.
    process.env.SUPABASE_URL = backend.url
    process.env.SUPABASE_ANON_KEY = DEV_ANON_KEY
    // The notifications-send function ("Envoyer maintenant") reaches this backend; its service key is vite.config's.
    process.env.SUPABASE_URL = backend.url
    process.env.SUPABASE_ANON_KEY = DEV_ANON_KEY
    await buildApp(backend.url)
    server = await preview({
      root: ROOT,
      mode: 'local-server',
      logLevel: 'warn',
      build: { outDir: OUT_DIR },
      preview: { host: '127.0.0.1', port: appPort, strictPort: true, open: false },
    })
  } catch (error) {
    await server?.close()
    await backend?.stop()
    await mailbox?.close()
    console.error(backendLog.join('\n'))
    throw error
  }

  project.provide('appUrl', `http://127.0.0.1:${appPort}`)
  project.provide('backendUrl', backend.url)
  project.provide('mailboxUrl', mailbox.webUrl)
  return async () => {
    await server?.close()
    await backend?.stop()
    await mailbox?.close()
    await rm(path.join(ROOT, OUT_DIR), { recursive: true, force: true })
  }
}
