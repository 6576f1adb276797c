/**
 * Where the browser finds the backend. Production builds must name a hosted project; development (and an
 * explicitly local build) fall back to the local server that `npm start` runs.
 */
export interface SupabaseConfig {
  url: string
  anonKey: string
}

// The Supabase CLI's public development anon key, the one the local server accepts. Copied rather than
// imported because the browser code never depends on supabase/local.
export const LOCAL_SUPABASE: SupabaseConfig = {
  url: 'http://127.0.0.1:54321',
  anonKey:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
}

export interface EnvSource {
  VITE_SUPABASE_URL?: string
  VITE_SUPABASE_ANON_KEY?: string
}

/** The configured project, else `localFallback` when neither variable is set (and a fallback is allowed). */
export function resolveSupabaseConfig(env: EnvSource, localFallback: SupabaseConfig | null): SupabaseConfig {
  const url = env.VITE_SUPABASE_URL?.trim()
  const anonKey = env.VITE_SUPABASE_ANON_KEY?.trim()
  if (url && anonKey) return { url, anonKey }
  if (!url && !anonKey && localFallback) return localFallback
  throw new Error(
    'Configuration incomplète : VITE_SUPABASE_URL et VITE_SUPABASE_ANON_KEY doivent être définies toutes les deux.',
  )
}
