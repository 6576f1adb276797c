import { LOCAL_SUPABASE, resolveSupabaseConfig } from '@/lib/env'
import { DEV_PUBLISHABLE_KEY } from '../../supabase/local/keys'

describe('resolveSupabaseConfig', () => {
  it('uses the configured project, even where the local fallback is allowed', () => {
    const env = { VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'key' }
    expect(resolveSupabaseConfig(env, null)).toEqual({ url: 'https://abc.supabase.co', anonKey: 'key' })
    expect(resolveSupabaseConfig(env, LOCAL_SUPABASE)).toEqual({ url: 'https://abc.supabase.co', anonKey: 'key' })
  })

  it('falls back to the local server when allowed and nothing is configured', () => {
    expect(resolveSupabaseConfig({}, LOCAL_SUPABASE)).toBe(LOCAL_SUPABASE)
  })

  it('prefers the publishable key and still reads the legacy anon key', () => {
    const url = 'https://abc.supabase.co'
    expect(resolveSupabaseConfig({ VITE_SUPABASE_URL: url, VITE_SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_x', VITE_SUPABASE_ANON_KEY: 'eyJ' }, null)).toEqual({
      url,
      anonKey: 'sb_publishable_x',
    })
    expect(resolveSupabaseConfig({ VITE_SUPABASE_URL: url, VITE_SUPABASE_PUBLISHABLE_KEY: ' ', VITE_SUPABASE_ANON_KEY: 'eyJ' }, null).anonKey).toBe('eyJ')
  })

  it("carries the local server's address and publishable key", () => {
    expect(LOCAL_SUPABASE).toEqual({ url: 'http://127.0.0.1:54321', anonKey: DEV_PUBLISHABLE_KEY })
  })

  it('refuses a missing configuration without fallback, and a half configuration anywhere', () => {
    expect(() => resolveSupabaseConfig({}, null)).toThrow(/VITE_SUPABASE_URL/)
    expect(() => resolveSupabaseConfig({ VITE_SUPABASE_URL: 'https://abc.supabase.co' }, LOCAL_SUPABASE)).toThrow()
  })
})
