import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { Agent as HttpAgent } from 'node:http'
import { Agent as HttpsAgent } from 'node:https'
import nodeFetch from 'node-fetch'
import WebSocket from 'ws'
import { DEV_ANON_KEY, DEV_SERVICE_ROLE_KEY } from '../../../supabase/local/keys'
import type { Database } from '../../../src/lib/database.types'
import { DEMO_PASSWORD } from './browser'

export type Api = SupabaseClient<Database>

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }

/**
 * The bench's clients stand for browsers, each on a machine of its own; here they share the 2 cores with the server
 * and the database they measure. Node's built-in fetch (undici) spent 1.0-1.3 ms of CPU per decision in the reviewers'
 * process, node-fetch over a keep-alive agent 0.7-0.9 ms: 0.4 ms a decision less taken from the server under test.
 * The bench prints what the reviewers' clients spent (budgets.ts, « the reviewers' clients' own CPU »).
 */
const benchFetch = ((input: string | URL, init?: RequestInit) =>
  nodeFetch(String(input), {
    ...init,
    agent: (url: URL) => (url.protocol === 'https:' ? agents.https : agents.http),
  })) as unknown as typeof fetch

const OPTIONS = {
  auth: { persistSession: false, autoRefreshToken: false },
  global: { fetch: benchFetch },
  // Node 20 has no global WebSocket and supabase-js builds its realtime client anyway; the bench never subscribes.
  realtime: { transport: WebSocket as never },
}

/** A signed-in supabase-js client in Node. */
export async function apiAs(backendUrl: string, email: string): Promise<Api> {
  const client = createClient<Database>(backendUrl, DEV_ANON_KEY, OPTIONS)
  const { error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  if (error) throw new Error(`Sign-in of ${email} failed: ${error.message}`)
  return client
}

export function serviceApi(backendUrl: string): Api {
  return createClient<Database>(backendUrl, DEV_SERVICE_ROLE_KEY, OPTIONS)
}
