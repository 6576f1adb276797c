/**
 * The project's URL and keys as the functions read them: the new names first (SUPABASE_PUBLISHABLE_KEY,
 * SUPABASE_SECRET_KEY), the legacy ones still read (SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY), the app's own
 * VITE_ variables last. The secret key stays on the server.
 */
export function supabaseUrlFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return firstSet(env.SUPABASE_URL, env.VITE_SUPABASE_URL)
}

export function publishableKeyFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return firstSet(env.SUPABASE_PUBLISHABLE_KEY, env.VITE_SUPABASE_PUBLISHABLE_KEY, env.SUPABASE_ANON_KEY, env.VITE_SUPABASE_ANON_KEY)
}

export function secretKeyFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  return firstSet(env.SUPABASE_SECRET_KEY, env.SUPABASE_SERVICE_ROLE_KEY)
}

function firstSet(...values: Array<string | undefined>): string | undefined {
  return values.map((value) => value?.trim()).find((value) => !!value)
}
