import { AuthApiError, AuthRetryableFetchError, type SupabaseClient } from '@supabase/supabase-js'
import { createSupabaseAuthGateway, findOrCreateProfile, isOAuthSignInEnabled } from '@/auth/api'
import { SignInError } from '@/auth/errors'
import { createFakeSupabase } from './support/fake-supabase'

const julie = {
  id: 'admin-made-id',
  email: 'Julie.Martin@example.com',
  first_name: 'Julie',
  last_name: 'Martin',
  role: 'user',
  position: 'Comptable',
  department: 'Finance',
  manager_id: 'marc',
  last_login: null,
  created_at: 'c',
  updated_at: 'u',
}
const marc = { ...julie, id: 'marc', email: 'marc@example.com', first_name: 'Marc', last_name: 'Dubois', role: 'manager', manager_id: null }

describe('findOrCreateProfile', () => {
  it('finds the profile by id, with the manager name', async () => {
    const { client, log } = createFakeSupabase([{ ...julie, id: 'auth-id' }, marc])
    const user = await findOrCreateProfile(client, { id: 'auth-id', email: 'julie.martin@example.com', fullName: null })
    expect(user).toMatchObject({ id: 'auth-id', firstName: 'Julie', managerName: 'Marc Dubois', role: 'user' })
    expect(log).toEqual(['select profile where id = auth-id'])
  })

  it('links a profile found by e-mail to the signed-in account with update_user_id', async () => {
    const { client, log } = createFakeSupabase([julie, marc])
    const user = await findOrCreateProfile(client, { id: 'auth-id', email: 'julie.martin@example.com', fullName: 'Julie Martin' })
    expect(user).toMatchObject({ id: 'auth-id', email: 'Julie.Martin@example.com', managerName: 'Marc Dubois' })
    expect(log).toEqual([
      'select profile where id = auth-id',
      'select id where email ilike julie.martin@example.com',
      'rpc update_user_id admin-made-id -> auth-id',
      'select profile where id = auth-id',
    ])
  })

  it('does not let LIKE wildcards in an e-mail match someone else', async () => {
    const { client, log } = createFakeSupabase([{ ...julie, email: 'firstXlast@example.com' }])
    await findOrCreateProfile(client, { id: 'auth-id', email: 'first_last@example.com', fullName: 'First Last' })
    expect(log).not.toContain('rpc update_user_id admin-made-id -> auth-id')
    expect(log.at(-1)).toMatch(/^insert /)
  })

  it('creates a profile with role user at first sign-in, the name split on the first space', async () => {
    const { client, log } = createFakeSupabase([])
    const user = await findOrCreateProfile(client, { id: 'new-id', email: 'jean@example.com', fullName: 'Jean Pierre Dupont' })
    expect(log.at(-1)).toBe(
      'insert {"id":"new-id","email":"jean@example.com","first_name":"Jean","last_name":"Pierre Dupont","role":"user"}',
    )
    expect(user).toMatchObject({ id: 'new-id', firstName: 'Jean', lastName: 'Pierre Dupont', role: 'user', managerName: null })
  })

  it("uses 'User' and 'Unknown' when the account has no name", async () => {
    const { client } = createFakeSupabase([])
    const user = await findOrCreateProfile(client, { id: 'new-id', email: 'x@example.com', fullName: null })
    expect(user).toMatchObject({ firstName: 'User', lastName: 'Unknown' })
  })

  it.each([
    ['select profile where id = auth-id', /Profile lookup by id failed/],
    ['rpc', /update_user_id failed/],
  ])('fails when %s fails', async (step, message) => {
    const { client } = createFakeSupabase([julie], { failOn: step })
    await expect(findOrCreateProfile(client, { id: 'auth-id', email: 'julie.martin@example.com', fullName: null })).rejects.toThrow(message)
  })

  it('fails when the profile cannot be created', async () => {
    const { client } = createFakeSupabase([], { failOn: 'insert' })
    await expect(findOrCreateProfile(client, { id: 'n', email: 'n@example.com', fullName: null })).rejects.toThrow(/Profile creation failed/)
  })
})

function fakeAuthClient(auth: Record<string, unknown>, users = createFakeSupabase([])) {
  return { client: { ...(users.client as object), from: users.client.from, rpc: users.client.rpc, auth } as unknown as SupabaseClient, users }
}

function deps(overrides: Partial<Parameters<typeof createSupabaseAuthGateway>[1]> = {}) {
  return { storage: { setRemembered: () => {} }, providerEnabled: async () => true, ...overrides }
}

describe('Supabase auth gateway', () => {
  const supabaseUser = { id: 'auth-id', email: 'julie@example.com', user_metadata: { full_name: 'Julie Martin' } }

  it('stores the remember-me choice before signing in with the password', async () => {
    const order: string[] = []
    const storage = { setRemembered: vi.fn((value: boolean) => order.push(`remember:${value}`)) }
    const signInWithPassword = vi.fn(async () => {
      order.push('signIn')
      return { data: { user: supabaseUser, session: {} }, error: null }
    })
    const { client } = fakeAuthClient({ signInWithPassword })
    const identity = await createSupabaseAuthGateway(client, deps({ storage })).signInWithPassword({ email: 'julie@example.com', password: 'pw', remember: false })
    expect(order).toEqual(['remember:false', 'signIn'])
    expect(signInWithPassword).toHaveBeenCalledWith({ email: 'julie@example.com', password: 'pw' })
    expect(identity).toEqual({ id: 'auth-id', email: 'julie@example.com', fullName: 'Julie Martin' })
  })

  it('reports refused credentials apart from an unreachable service', async () => {
    const refuse = { signInWithPassword: async () => ({ data: { user: null, session: null }, error: new AuthApiError('Invalid login credentials', 400, 'invalid_credentials') }) }
    const unreachable = { signInWithPassword: async () => ({ data: { user: null, session: null }, error: new AuthRetryableFetchError('Failed to fetch', 0) }) }
    const input = { email: 'a@example.com', password: 'x', remember: true }
    await expect(createSupabaseAuthGateway(fakeAuthClient(refuse).client, deps()).signInWithPassword(input)).rejects.toMatchObject({
      kind: 'credentials',
    })
    await expect(createSupabaseAuthGateway(fakeAuthClient(unreachable).client, deps()).signInWithPassword(input)).rejects.toBeInstanceOf(SignInError)
    await expect(createSupabaseAuthGateway(fakeAuthClient(unreachable).client, deps()).signInWithPassword(input)).rejects.toMatchObject({
      kind: 'unavailable',
    })
  })

  it('asks Google to come back to the given callback', async () => {
    const signInWithOAuth = vi.fn(async () => ({ data: {}, error: null }))
    await createSupabaseAuthGateway(fakeAuthClient({ signInWithOAuth }).client, deps()).signInWithOAuth({
      provider: 'google',
      redirectTo: 'https://app.example.com/auth/callback',
      remember: true,
    })
    expect(signInWithOAuth).toHaveBeenCalledWith({ provider: 'google', options: { redirectTo: 'https://app.example.com/auth/callback' } })
  })

  it("asks Microsoft (Supabase's azure provider) for the e-mail, coming back to the same callback", async () => {
    const signInWithOAuth = vi.fn(async () => ({ data: {}, error: null }))
    await createSupabaseAuthGateway(fakeAuthClient({ signInWithOAuth }).client, deps()).signInWithOAuth({
      provider: 'azure',
      redirectTo: 'https://app.example.com/auth/callback',
      remember: false,
    })
    expect(signInWithOAuth).toHaveBeenCalledWith({
      provider: 'azure',
      options: { scopes: 'email', redirectTo: 'https://app.example.com/auth/callback' },
    })
  })

  it('does not leave for a provider the project has not enabled', async () => {
    const signInWithOAuth = vi.fn()
    const setRemembered = vi.fn()
    const onlyGoogle = deps({ storage: { setRemembered }, providerEnabled: async (provider) => provider === 'google' })
    const disabled = createSupabaseAuthGateway(fakeAuthClient({ signInWithOAuth }).client, onlyGoogle)
    await expect(disabled.signInWithOAuth({ provider: 'azure', redirectTo: 'x', remember: true })).rejects.toMatchObject({
      kind: 'azureDisabled',
      message: "La connexion avec Microsoft n'est pas activée pour cette application.",
    })
    const unknown = createSupabaseAuthGateway(fakeAuthClient({ signInWithOAuth }).client, deps({ providerEnabled: () => Promise.reject(new Error('offline')) }))
    await expect(unknown.signInWithOAuth({ provider: 'google', redirectTo: 'x', remember: true })).rejects.toMatchObject({ kind: 'unavailable' })
    expect(signInWithOAuth).not.toHaveBeenCalled()
    expect(setRemembered).not.toHaveBeenCalled()
  })

  it('reads whether a provider is enabled from the auth settings', async () => {
    const fetchImpl = vi.fn(async () => Response.json({ external: { google: true, azure: false, email: true } }))
    expect(await isOAuthSignInEnabled('google', fetchImpl)).toBe(true)
    expect(fetchImpl).toHaveBeenCalledWith('http://127.0.0.1:54321/auth/v1/settings', { headers: { apikey: expect.any(String) } })
    expect(await isOAuthSignInEnabled('azure', fetchImpl)).toBe(false)
    expect(await isOAuthSignInEnabled('azure', async () => Response.json({ external: { azure: true } }))).toBe(true)
    await expect(isOAuthSignInEnabled('google', async () => new Response('', { status: 500 }))).rejects.toThrow()
  })

  it('exchanges the callback code for a session', async () => {
    const exchangeCodeForSession = vi.fn(async () => ({ data: { user: supabaseUser, session: {} }, error: null }))
    const identity = await createSupabaseAuthGateway(fakeAuthClient({ exchangeCodeForSession }).client, deps()).exchangeCode('c0de')
    expect(exchangeCodeForSession).toHaveBeenCalledWith('c0de')
    expect(identity.id).toBe('auth-id')
  })

  it('signs out with the scope asked and returns the failure instead of throwing', async () => {
    const signOut = vi.fn(async () => ({ error: new AuthApiError('session_not_found', 403, 'session_not_found') }))
    const failure = await createSupabaseAuthGateway(fakeAuthClient({ signOut }).client, deps()).signOut('global')
    expect(signOut).toHaveBeenCalledWith({ scope: 'global' })
    expect(failure).toEqual({ status: 403, code: 'session_not_found', message: 'session_not_found' })
  })

  it('restores the kept session, if any', async () => {
    const withSession = { getSession: async () => ({ data: { session: { user: supabaseUser } }, error: null }) }
    const without = { getSession: async () => ({ data: { session: null }, error: null }) }
    expect(await createSupabaseAuthGateway(fakeAuthClient(withSession).client, deps()).restoreSession()).toMatchObject({ id: 'auth-id' })
    expect(await createSupabaseAuthGateway(fakeAuthClient(without).client, deps()).restoreSession()).toBeNull()
  })

  it('passes only SIGNED_OUT on to its listener', () => {
    let emit: (event: string) => void = () => {}
    const unsubscribe = vi.fn()
    const onAuthStateChange = (callback: (event: string) => void) => {
      emit = callback
      return { data: { subscription: { unsubscribe } } }
    }
    const listener = vi.fn()
    const stop = createSupabaseAuthGateway(fakeAuthClient({ onAuthStateChange }).client, deps()).onSignedOut(listener)
    emit('TOKEN_REFRESHED')
    emit('SIGNED_IN')
    expect(listener).not.toHaveBeenCalled()
    emit('SIGNED_OUT')
    expect(listener).toHaveBeenCalledTimes(1)
    stop()
    expect(unsubscribe).toHaveBeenCalled()
  })

  it('records the sign-in time on the own profile', async () => {
    const users = createFakeSupabase([{ ...julie, id: 'auth-id' }])
    const { client } = fakeAuthClient({}, users)
    await createSupabaseAuthGateway(client, deps()).recordLogin('auth-id')
    expect(users.log).toEqual(['update last_login where id = auth-id'])
    expect(Date.parse(String(users.users[0]?.last_login))).not.toBeNaN()
  })
})
