// New passwords follow the project's strength policy as GoTrue applies it (Recertif's: 12 characters, letters and
// digits), checked by the auth server whatever the screen let through: sign-ups, a person's own change, an
// administrator's change. GoTrue's admin user creation checks only the length (supabase/auth#1959), and so does ours.
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { Database } from '../../supabase/local/database'
import { passwordPolicyFromEnv } from '../../supabase/local/auth/password-policy'
import { startLocalServer, type LocalServer } from '../../supabase/local/server'
import { freshDatabase } from '../support/database'

let db: Database
let server: LocalServer
const options = {
  auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  // Node 20 has no global WebSocket; supabase-js needs one to construct its realtime client.
  realtime: { transport: WebSocket as never },
}

beforeAll(async () => {
  db = await freshDatabase()
  server = await startLocalServer({ db, port: 0, config: { ...passwordPolicyFromEnv({}), enableSignup: true, mailerAutoconfirm: true } })
})

afterAll(async () => {
  await server?.close()
  await db?.close()
})

const anon = () => createClient(server.url, server.config.anonKey, options)
const service = () => createClient(server.url, server.config.serviceRoleKey, options)
const address = (name: string) => `${name}.${Date.now().toString(36)}@example.org`

describe('the password policy, at the auth server', () => {
  it('refuses a short sign-up password and one without digits, naming each rule it misses', async () => {
    const short = await anon().auth.signUp({ email: address('court'), password: 'abc' })
    expect(short.error).toMatchObject({ status: 422, code: 'weak_password' })
    expect(short.error?.message).toBe(
      'Password should be at least 12 characters. Password should contain at least one character of each: ' +
        'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, 0123456789.',
    )
    expect((short.error as { reasons?: string[] }).reasons).toEqual(['length', 'characters'])
    const letters = await anon().auth.signUp({ email: address('lettres'), password: 'seulementdeslettres' })
    expect((letters.error as { reasons?: string[] } | null)?.reasons).toEqual(['characters'])
    const fine = await anon().auth.signUp({ email: address('bien'), password: 'Bienvenue2026!' })
    expect(fine.error).toBeNull()
  })

  it('holds a person’s own change and an administrator’s change to it, and lets the admin API create with the length alone', async () => {
    const email = address('personne')
    const created = await service().auth.admin.createUser({ email, password: 'Demo1234!', email_confirm: true })
    expect(created.error).toBeNull()
    const person = anon()
    expect((await person.auth.signInWithPassword({ email, password: 'Demo1234!' })).error).toBeNull()
    expect((await person.auth.updateUser({ password: 'Court123' })).error).toMatchObject({ code: 'weak_password' })
    expect((await person.auth.updateUser({ password: 'Nouveau2026Mdp' })).error).toBeNull()
    const byAdmin = await service().auth.admin.updateUserById(created.data.user!.id, { password: 'Demo1234!' })
    expect(byAdmin.error).toMatchObject({ status: 422, code: 'weak_password' })
    // The refused changes changed nothing: the last accepted password still signs in.
    expect((await anon().auth.signInWithPassword({ email, password: 'Nouveau2026Mdp' })).error).toBeNull()
  })
})

describe('the policy the backend of npm start applies', () => {
  it('is 12 characters with letters and digits, unless the environment says otherwise', () => {
    expect(passwordPolicyFromEnv({}).passwordMinLength).toBe(12)
    expect(passwordPolicyFromEnv({ AUTH_PASSWORD_MIN_LENGTH: '8', AUTH_PASSWORD_REQUIRED_CHARACTERS: '' })).toEqual({
      passwordMinLength: 8,
      passwordRequiredCharacters: [],
    })
    expect(() => passwordPolicyFromEnv({ AUTH_PASSWORD_MIN_LENGTH: 'douze' })).toThrow('AUTH_PASSWORD_MIN_LENGTH must be a whole number')
  })
})
