import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { LOCAL_SUPABASE, resolveSupabaseConfig, type SupabaseConfig } from './env'
import { rememberMeStorage } from './remember-me-storage'
import type { Database } from './database.types'

/** The client typed by the generated schema: rows, RPC arguments and embeds (a to-one embed is an object). */
export type AppSupabaseClient = SupabaseClient<Database>

let client: AppSupabaseClient | undefined

// Decided at build time, so that a production bundle does not even contain the local server's address and key.
// 'local-server' is the mode of `npm run build:local` (netlify/build-target.ts); a literal, so the minifier folds it.
const LOCAL_FALLBACK_ALLOWED = import.meta.env.DEV || import.meta.env.MODE === 'local-server'

export function getSupabaseConfig(): SupabaseConfig {
  return resolveSupabaseConfig(import.meta.env, LOCAL_FALLBACK_ALLOWED ? LOCAL_SUPABASE : null)
}

/** The one browser client. Created on first use so that a configuration error surfaces in the UI, not as a blank page. */
export function getSupabase(): AppSupabaseClient {
  if (!client) {
    const { url, anonKey } = getSupabaseConfig()
    client = createClient<Database>(url, anonKey, {
      auth: {
        storage: rememberMeStorage,
        persistSession: true,
        autoRefreshToken: true,
        flowType: 'pkce',
        // /auth/callback exchanges the code itself, once, so that it can report the provider's error in French.
        detectSessionInUrl: false,
      },
    })
  }
  return client
}
