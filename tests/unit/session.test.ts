import {
  clearAuthKeys,
  clearCookies,
  hasStoredSession,
  isLoggedOutFlagSet,
  isSessionNotFound,
  LOGGED_OUT_FLAG_KEY,
  loginPathAfterLogout,
  performLogout,
} from '@/auth/session'
import { MemoryStorage } from './support/memory-storage'

/** document.cookie semantics, enough to see which cookies a logout expires. */
function cookieJar(names: string[]) {
  const live = new Set(names)
  const writes: string[] = []
  return {
    writes,
    get cookie() {
      return [...live].map((name) => `${name}=v`).join('; ')
    },
    set cookie(value: string) {
      writes.push(value)
      if (value.includes('expires=Thu, 01 Jan 1970')) live.delete(value.split('=')[0] ?? '')
    },
  }
}

describe('performLogout', () => {
  function setup(signOut: () => Promise<{ status?: number; code?: string; message: string } | null>) {
    const order: string[] = []
    const local = new MemoryStorage({
      'sb-127-auth-token': 'token',
      'sb-127-auth-token-code-verifier': 'verifier',
      'supabase.auth.token': 'legacy',
      'oauth-state': 'state',
      'recertif.remember-me': 'tab',
    })
    const session = new MemoryStorage({ 'recertif.return-to': '/app/audit' })
    const doc = cookieJar(['sb-access-token', 'other'])
    const track = <T extends object>(name: string, target: T, methods: Array<keyof T>) => {
      for (const method of methods) {
        const original = (target[method] as (...args: unknown[]) => unknown).bind(target)
        ;(target[method] as unknown) = (...args: unknown[]) => {
          order.push(`${name}.${String(method)}${args.length ? `(${String(args[0])})` : ''}`)
          return original(...args)
        }
      }
    }
    track('local', local, ['removeItem', 'setItem'])
    track('session', session, ['clear'])
    const redirect = vi.fn(() => order.push('redirect'))
    const steps = {
      signOut: vi.fn(async () => {
        order.push('signOut')
        return signOut()
      }),
      localStorage: local,
      sessionStorage: session,
      document: doc,
      redirect,
    }
    return { steps, order, local, session, doc, redirect }
  }

  it('signs out, clears storage and cookies, sets the flag, then redirects, in that order', async () => {
    const { steps, order, local, session, doc } = setup(async () => null)
    await performLogout(steps)
    expect(order).toEqual([
      'signOut',
      'local.removeItem(sb-127-auth-token)',
      'local.removeItem(sb-127-auth-token-code-verifier)',
      'local.removeItem(supabase.auth.token)',
      'local.removeItem(oauth-state)',
      'session.clear',
      `local.setItem(${LOGGED_OUT_FLAG_KEY})`,
      'redirect',
    ])
    expect(local.keys()).toEqual(['recertif.remember-me', LOGGED_OUT_FLAG_KEY])
    expect(session.length).toBe(0)
    expect(doc.cookie).toBe('')
    expect(isLoggedOutFlagSet(local)).toBe(true)
  })

  it('treats a 403 session_not_found as normal', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { steps, redirect } = setup(async () => ({ status: 403, message: 'session_not_found' }))
    await performLogout(steps)
    expect(consoleError).not.toHaveBeenCalled()
    expect(redirect).toHaveBeenCalled()
    consoleError.mockRestore()
  })

  it.each([
    ['a reported failure', async () => ({ status: 500, message: 'Internal error' })],
    ['a thrown error', async () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('logs %s and clears the client state anyway', async (_label, signOut) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { steps, local, redirect } = setup(signOut)
    await performLogout(steps)
    expect(consoleError).toHaveBeenCalledTimes(1)
    expect(local.getItem('sb-127-auth-token')).toBeNull()
    expect(isLoggedOutFlagSet(local)).toBe(true)
    expect(redirect).toHaveBeenCalled()
    consoleError.mockRestore()
  })
})

describe('session helpers', () => {
  it('recognises session_not_found by code or by 403 message', () => {
    expect(isSessionNotFound({ code: 'session_not_found', status: 404, message: 'x' })).toBe(true)
    expect(isSessionNotFound({ status: 403, message: 'Session from session_id claim in JWT does not exist (session_not_found)' })).toBe(true)
    expect(isSessionNotFound({ status: 403, message: 'forbidden' })).toBe(false)
    expect(isSessionNotFound({ status: 500, message: 'session_not_found' })).toBe(false)
  })

  it('clears only the keys that name sb-, supabase or auth', () => {
    const storage = new MemoryStorage({ 'sb-x-auth-token': '1', 'my-supabase-cache': '2', oauth: '3', theme: 'dark' })
    clearAuthKeys(storage)
    expect(storage.keys()).toEqual(['theme'])
  })

  it('expires every cookie at the root and at the current path', () => {
    const jar = cookieJar(['a', 'b'])
    clearCookies(jar)
    expect(jar.cookie).toBe('')
    expect(jar.writes).toContain('a=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/')
  })

  it('sees a stored Supabase session in either storage', () => {
    expect(hasStoredSession(new MemoryStorage(), new MemoryStorage({ 'sb-127-auth-token': 't' }))).toBe(true)
    expect(hasStoredSession(new MemoryStorage({ 'sb-127-auth-token-code-verifier': 'v' }))).toBe(false)
  })

  it('says why in the login URL after an inactivity sign-out', () => {
    expect(loginPathAfterLogout('user')).toBe('/login?logged_out=true')
    expect(loginPathAfterLogout('inactivity')).toBe('/login?logged_out=true&reason=inactivity')
  })
})
