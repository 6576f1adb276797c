import { readFileSync } from 'node:fs'
import { OIDC_PROVIDERS, oidcProvidersFromEnv } from '../../supabase/local/auth/oidc-config'

// Sign-in with Microsoft (and Google) as supabase/config.toml declares it for the Supabase CLI and as `npm start`'s
// backend reads it from AUTH_EXTERNAL_<PROVIDER>_*.

/** config.toml's [auth.external.*] sections, with the values of their simple keys (strings, booleans). */
function externalProviders(toml: string): Map<string, Record<string, unknown>> {
  const sections = new Map<string, Record<string, unknown>>()
  let current: Record<string, unknown> | null = null
  for (const line of toml.split('\n')) {
    const header = /^\[auth\.external\.([a-z_]+)\]\s*$/.exec(line)
    if (header) sections.set(header[1]!, (current = {}))
    else if (/^\[/.test(line)) current = null
    const pair = /^([a-z_]+)\s*=\s*(.+?)\s*$/.exec(line)
    if (current && pair) current[pair[1]!] = JSON.parse(pair[2]!)
  }
  return sections
}

describe('supabase/config.toml’s external providers', () => {
  const providers = externalProviders(readFileSync('supabase/config.toml', 'utf8'))

  it('declares azure, off until an app registration exists, its secrets and tenant URL read from the environment', () => {
    expect(providers.get('azure')).toEqual({
      enabled: false,
      client_id: 'env(SUPABASE_AUTH_AZURE_CLIENT_ID)',
      secret: 'env(SUPABASE_AUTH_AZURE_SECRET)',
      url: 'env(SUPABASE_AUTH_AZURE_URL)',
      skip_nonce_check: false,
    })
  })

  it('declares only providers the local backend can run, and no client id or secret in clear', () => {
    expect([...providers.keys()].sort()).toEqual([...OIDC_PROVIDERS].sort())
    for (const provider of providers.values()) {
      expect(provider.client_id).toMatch(/^env\([A-Z_]+\)$/)
      expect(provider.secret).toMatch(/^env\([A-Z_]+\)$/)
    }
  })
})

describe('the local backend’s providers, from AUTH_EXTERNAL_<PROVIDER>_*', () => {
  const credentials = (name: string) => ({ [`AUTH_EXTERNAL_${name}_CLIENT_ID`]: `${name}-id`, [`AUTH_EXTERNAL_${name}_SECRET`]: `${name}-secret` })

  it('reads azure as it reads google, each off without its client id and secret', () => {
    expect([...oidcProvidersFromEnv({}).keys()]).toEqual([])
    expect([...oidcProvidersFromEnv({ AUTH_EXTERNAL_AZURE_CLIENT_ID: 'id' }).keys()]).toEqual([])
    const both = oidcProvidersFromEnv({ ...credentials('AZURE'), ...credentials('GOOGLE') })
    expect(both.get('azure')).toEqual({ name: 'azure', issuer: 'https://login.microsoftonline.com/common/v2.0', clientId: 'AZURE-id', clientSecret: 'AZURE-secret' })
    expect(both.get('google')).toEqual({ name: 'google', issuer: 'https://accounts.google.com', clientId: 'GOOGLE-id', clientSecret: 'GOOGLE-secret' })
  })

  it('takes a Microsoft tenant as Supabase’s tenant URL gives it or as its issuer, and any other issuer as it is', () => {
    const issuer = (url: string) => oidcProvidersFromEnv({ ...credentials('AZURE'), AUTH_EXTERNAL_AZURE_URL: url }).get('azure')?.issuer
    const tenant = 'https://login.microsoftonline.com/0f6c1d4e-1111-2222-3333-444455556666'
    expect(issuer(tenant)).toBe(`${tenant}/v2.0`)
    expect(issuer(`${tenant}/`)).toBe(`${tenant}/v2.0`)
    expect(issuer(`${tenant}/v2.0`)).toBe(`${tenant}/v2.0`)
    expect(issuer('http://127.0.0.1:41234/')).toBe('http://127.0.0.1:41234')
  })
})
