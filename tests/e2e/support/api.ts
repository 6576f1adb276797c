import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { inject } from 'vitest'
import WebSocket from 'ws'
import { DEV_PUBLISHABLE_KEY, DEV_SECRET_KEY } from '../../../supabase/local/keys'
import type { Database } from '../../../src/lib/database.types'
import { passDemoSecondFactor } from '../../support/second-factor'
import { DEMO_PASSWORD } from './browser'

export type ApiClient = SupabaseClient<Database>

function apiClient(key: string): ApiClient {
  return createClient<Database>(inject('backendUrl'), key, {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket; supabase-js needs one to construct its realtime client.
    realtime: { transport: WebSocket as never },
  })
}

/** The backend as the service role sees it: what a test arranges or checks behind the users' backs. */
export const serviceClient = (): ApiClient => apiClient(DEV_SECRET_KEY)

/**
 * supabase-js signed in as a demo account (with its second factor if it has one), or as anyone with the password given,
 * for checking what the server says to that person.
 */
export async function signedInClient(email: string, password = DEMO_PASSWORD): Promise<ApiClient> {
  const client = apiClient(DEV_PUBLISHABLE_KEY)
  const { error } = await client.auth.signInWithPassword({ email, password })
  if (error) throw error
  await passDemoSecondFactor(client as never, email)
  return client
}
