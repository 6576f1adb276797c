import { readFileSync } from 'node:fs'
import { buildRefusal, isLocalSupabaseUrl, LOCAL_BUILD_MODE } from '../../netlify/build-target'
import { DEV_ANON_KEY, DEV_PUBLISHABLE_KEY, DEV_SECRET_KEY, DEV_SERVICE_ROLE_KEY } from '../../supabase/local/keys'

describe('build guard', () => {
  it('lets a production build through when it names a hosted project', () => {
    expect(buildRefusal({ mode: 'production', url: 'https://abc.supabase.co', anonKey: 'key' })).toBeNull()
  })

  it('refuses a production build without VITE_SUPABASE_URL', () => {
    expect(buildRefusal({ mode: 'production', url: undefined, anonKey: 'key' })).toMatch(/VITE_SUPABASE_URL is not set/)
    expect(buildRefusal({ mode: 'production', url: '  ', anonKey: 'key' })).toMatch(/not set/)
  })

  it('refuses a production build aimed at the local server, saying how to build locally on purpose', () => {
    const refusal = buildRefusal({ mode: 'production', url: 'http://127.0.0.1:54321', anonKey: 'key' })
    expect(refusal).toMatch(/local development server/)
    expect(refusal).toMatch(/npm run build:local/)
  })

  it('refuses a production build without a publishable key', () => {
    expect(buildRefusal({ mode: 'production', url: 'https://abc.supabase.co', anonKey: '' })).toMatch(/VITE_SUPABASE_PUBLISHABLE_KEY/)
  })

  it('refuses the public development keys of every form even with a hosted URL', () => {
    for (const key of [DEV_PUBLISHABLE_KEY, DEV_SECRET_KEY, DEV_ANON_KEY, DEV_SERVICE_ROLE_KEY]) {
      expect(buildRefusal({ mode: 'production', url: 'https://abc.supabase.co', anonKey: ` ${key} ` })).toMatch(/local development key/)
    }
  })

  it("refuses a project's secret key in the browser bundle", () => {
    expect(buildRefusal({ mode: 'production', url: 'https://abc.supabase.co', anonKey: 'sb_secret_abc' })).toMatch(/secret key/)
  })

  it('refuses the local keys however the configuration names them', () => {
    const config = readFileSync(new URL('../../vite.config.ts', import.meta.url), 'utf8')
    expect(config).toContain('anonKey: env.VITE_SUPABASE_PUBLISHABLE_KEY || env.VITE_SUPABASE_ANON_KEY')
  })

  it('refuses the placeholders of .env.example, copied without being filled in', () => {
    const example = Object.fromEntries(
      readFileSync(new URL('../../.env.example', import.meta.url), 'utf8')
        .split('\n')
        .filter((line) => /^VITE_SUPABASE_(URL|PUBLISHABLE_KEY)=/.test(line))
        .map((line) => line.split(/=(.*)/s, 2) as [string, string]),
    )
    expect(buildRefusal({ mode: 'production', url: example.VITE_SUPABASE_URL, anonKey: example.VITE_SUPABASE_PUBLISHABLE_KEY })).toMatch(
      /VITE_SUPABASE_URL \(https:\/\/your-project\.supabase\.co\) is the placeholder from \.env\.example/,
    )
    expect(buildRefusal({ mode: 'production', url: 'HTTPS://Your-Project.supabase.co/ ', anonKey: 'key' })).toMatch(/placeholder/)
    expect(buildRefusal({ mode: 'production', url: 'https://abc.supabase.co', anonKey: example.VITE_SUPABASE_PUBLISHABLE_KEY })).toMatch(
      /VITE_SUPABASE_PUBLISHABLE_KEY is the placeholder from \.env\.example/,
    )
  })

  it('accepts anything when asked for a local build', () => {
    expect(buildRefusal({ mode: LOCAL_BUILD_MODE, url: undefined, anonKey: undefined })).toBeNull()
  })

  it('uses the mode the app itself treats as local, and the one npm run build:local passes', () => {
    const supabaseModule = readFileSync(new URL('../../src/lib/supabase.ts', import.meta.url), 'utf8')
    expect(supabaseModule).toContain(`import.meta.env.MODE === '${LOCAL_BUILD_MODE}'`)
    const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts
    expect(scripts['build:local']).toBe(`vite build --mode ${LOCAL_BUILD_MODE}`)
  })

  it('recognises loopback URLs', () => {
    for (const url of ['http://127.0.0.1:54321', 'http://localhost:8000', 'http://[::1]:54321', 'http://api.localhost']) {
      expect(isLocalSupabaseUrl(url)).toBe(true)
    }
    expect(isLocalSupabaseUrl('https://abc.supabase.co')).toBe(false)
    expect(isLocalSupabaseUrl('not a url')).toBe(false)
  })
})
