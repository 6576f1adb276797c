import { spawn } from 'node:child_process'
import { rm } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { preview } from 'vite'
import type { TestProject } from 'vitest/node'
import { DEV_PUBLISHABLE_KEY } from '../../../supabase/local/keys'
import { startJourneyServers } from './journey-servers'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
// Per run, so that two runs at once (two developers' sessions, or CI beside a developer) never share a build.
const OUT_DIR = `.tmp/e2e-dist-${process.pid}`

/**
 * `npm run build:local` for this run's backend, in a child process: inside Vitest NODE_ENV is 'test', which would
 * give React's development build.
 */
function buildApp(backendUrl: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, VITE_SUPABASE_URL: backendUrl, VITE_SUPABASE_PUBLISHABLE_KEY: DEV_PUBLISHABLE_KEY }
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

/** The journeys on a production build of the app, served by `vite preview`. */
export default async function setup(project: TestProject) {
  const stop = await startJourneyServers(project, async (backendUrl, port) => {
    await buildApp(backendUrl)
    const server = await preview({
      root: ROOT,
      mode: 'local-server',
      logLevel: 'warn',
      build: { outDir: OUT_DIR },
      preview: { host: '127.0.0.1', port, strictPort: true, open: false },
    })
    return { close: () => server.close() }
  })
  return async () => {
    await stop()
    await rm(path.join(ROOT, OUT_DIR), { recursive: true, force: true })
  }
}
