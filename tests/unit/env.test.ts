import { LOCAL_SUPABASE, resolveSupabaseConfig } from '@/lib/env'
import { DEV_ANON_KEY } from '../../supabase/local/keys'

describe('resolveSupabaseConfig', () => {
  it('uses the configured project, even where the local fallback is allowed', () => {
    const env = { VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'key' }
    expect(resolveSupabaseConfig(env, null)).toEqual({ url: 'https://abc.supabase.co', anonKey: 'key' })
    expect(resolveSupabaseConfig(env, LOCAL_SUPABASE)).toEqual({ url: 'https://abc.supabase.co', anonKey: 'key' })
  })

  it('falls back to the local server when allowed and nothing is configured', () => {
    expect(resolveSupabaseConfig({}, LOCAL_SUPABASE)).toBe(LOCAL_SUPABASE)
  })

  it("carries the local server's address and anon key", () => {
    expect(LOCAL_SUPABASE).toEqual({ url: 'http://127.0.0.1:54321', anonKey: DEV_ANON_KEY })
  })

  it('refuses a missing configuration without fallback, and a half configuration anywhere', () => {
    expect(() => resolveSupabaseConfig({}, null)).toThrow(/VITE_SUPABASE_URL/)
    expect(() => resolveSupabaseConfig({ VITE_SUPABASE_URL: 'https://abc.supabase.co' }, LOCAL_SUPABASE)).toThrow()
  })
})
