/**
 * Guards `vite build`: a production bundle must point at a hosted Supabase project, never at the local
 * development server (whose keys are public). `npm run build:local` (Vite mode "local") is the explicit way round.
 */
import { DEV_API_KEYS } from '../supabase/local/keys.js'

export const LOCAL_BUILD_MODE = 'local-server'

// The values .env.example ships with: a copied file that was never filled in builds a site that reaches nothing.
const PLACEHOLDER_URL = 'https://your-project.supabase.co'
const PLACEHOLDER_KEYS = new Set(['your-publishable-key', 'your-anon-key'])

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '0.0.0.0', '[::1]', '::1'])

export function isLocalSupabaseUrl(url: string): boolean {
  try {
    const { hostname } = new URL(url)
    return LOOPBACK_HOSTS.has(hostname) || hostname.endsWith('.localhost') || hostname.startsWith('127.')
  } catch {
    return false
  }
}

function isPlaceholderUrl(url: string): boolean {
  try {
    return new URL(url.trim()).hostname === new URL(PLACEHOLDER_URL).hostname
  } catch {
    return false
  }
}

interface BuildTarget {
  mode: string
  url: string | undefined
  /** VITE_SUPABASE_PUBLISHABLE_KEY, else the legacy VITE_SUPABASE_ANON_KEY. */
  anonKey: string | undefined
}

/** Why this build must not go ahead, or null when it may. */
export function buildRefusal({ mode, url, anonKey }: BuildTarget): string | null {
  if (mode === LOCAL_BUILD_MODE) return null
  const hint =
    'Set VITE_SUPABASE_URL and VITE_SUPABASE_PUBLISHABLE_KEY to your hosted Supabase project (environment or .env.production), ' +
    'or run `npm run build:local` to build deliberately against the local development server.'
  if (!url?.trim()) return `Refusing to build: VITE_SUPABASE_URL is not set.\n${hint}`
  if (isLocalSupabaseUrl(url)) return `Refusing to build: VITE_SUPABASE_URL (${url}) is the local development server.\n${hint}`
  if (isPlaceholderUrl(url)) {
    return `Refusing to build: VITE_SUPABASE_URL (${url}) is the placeholder from .env.example, not a project.\n${hint}`
  }
  const key = anonKey?.trim()
  if (!key) return `Refusing to build: VITE_SUPABASE_PUBLISHABLE_KEY is not set.\n${hint}`
  if (PLACEHOLDER_KEYS.has(key)) {
    return `Refusing to build: VITE_SUPABASE_PUBLISHABLE_KEY is the placeholder from .env.example, not a key.\n${hint}`
  }
  if ((DEV_API_KEYS as readonly string[]).includes(key)) {
    return `Refusing to build: VITE_SUPABASE_PUBLISHABLE_KEY is a local development key, which is public.\n${hint}`
  }
  // A secret key in a browser bundle would hand anyone the whole database, bypassing row-level security.
  if (key.startsWith('sb_secret_')) return `Refusing to build: VITE_SUPABASE_PUBLISHABLE_KEY is a secret key.\n${hint}`
  return null
}
