import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { DEV_ANON_KEY, DEV_SERVICE_ROLE_KEY } from '../../../supabase/local/keys'
import type { Database } from '../../../src/lib/database.types'
import { DEMO_PASSWORD } from './browser'

export type Api = SupabaseClient<Database>

const OPTIONS = {
  auth: { persistSession: false, autoRefreshToken: false },
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
