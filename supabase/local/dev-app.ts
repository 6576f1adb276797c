import { fileURLToPath } from 'node:url'
import { createServer, type ViteDevServer } from 'vite'
import { DEV_PUBLISHABLE_KEY } from './keys'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The app as `npm start` serves it: Vite's dev server (React Fast Refresh, modules transformed on request) pointed at
 * a local backend. Variables already in the environment win over .env files, so the app talks to this backend whatever
 * .env says.
 */
export async function startDevApp({ backendUrl, port }: { backendUrl: string; port: number }): Promise<ViteDevServer> {
  process.env.VITE_SUPABASE_URL = backendUrl
  process.env.VITE_SUPABASE_PUBLISHABLE_KEY = DEV_PUBLISHABLE_KEY
  delete process.env.VITE_SUPABASE_ANON_KEY
  const vite = await createServer({ root: ROOT, server: { host: '127.0.0.1', port, strictPort: true } })
  try {
    await vite.listen()
  } catch (error) {
    await vite.close()
    throw error
  }
  return vite
}
