import { createClient, type SupabaseClient, type SupabaseClientOptions } from '@supabase/supabase-js'

/**
 * The functions never subscribe to realtime, but supabase-js asks for a WebSocket when a client is created, and Node 20
 * (which runs the functions locally under Vite and `npm start`) has none: this stands in for it and refuses to be used.
 */
class NoRealtime {
  constructor() {
    throw new Error('the Netlify functions do not use realtime')
  }
}

/**
 * A supabase-js client for a function: with the service role key for the auth admin API, or with the anon key and a
 * caller's access token to act as them. No session is kept: a function serves one request.
 */
export function serverClient(url: string, key: string, accessToken?: string): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: NoRealtime as unknown as NonNullable<SupabaseClientOptions<'public'>['realtime']>['transport'] },
    ...(accessToken ? { global: { headers: { Authorization: `Bearer ${accessToken}` } } } : {}),
  })
}
