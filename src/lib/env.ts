/**
 * Where the browser finds the backend. Production builds must name a hosted project; development (and an
 * explicitly local build) fall back to the local server that `npm start` runs.
 */
export interface SupabaseConfig {
  url: string
  /** The publishable key (sb_publishable_…), or a legacy anon JWT: both stand for the anonymous role. */
  anonKey: string
}

// The local server's public development publishable key, the Supabase CLI's. Copied rather than imported because
// the browser code never depends on supabase/local.
export const LOCAL_SUPABASE: SupabaseConfig = {
  url: 'http://127.0.0.1:54321',
  anonKey: 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH',
}

export interface EnvSource {
  VITE_SUPABASE_URL?: string
  VITE_SUPABASE_PUBLISHABLE_KEY?: string
  /** The legacy name, still read when the new one is not set. */
  VITE_SUPABASE_ANON_KEY?: string
}

/** The configured project, else `localFallback` when neither the URL nor a key is set (and a fallback is allowed). */
export function resolveSupabaseConfig(env: EnvSource, localFallback: SupabaseConfig | null): SupabaseConfig {
  const url = env.VITE_SUPABASE_URL?.trim()
  const anonKey = env.VITE_SUPABASE_PUBLISHABLE_KEY?.trim() || env.VITE_SUPABASE_ANON_KEY?.trim()
  if (url && anonKey) return { url, anonKey }
  if (!url && !anonKey && localFallback) return localFallback
  throw new Error(
    'Configuration incomplète : VITE_SUPABASE_URL et VITE_SUPABASE_PUBLISHABLE_KEY doivent être définies toutes les deux.',
  )
}
