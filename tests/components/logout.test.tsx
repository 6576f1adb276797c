import { screen, waitFor, within } from '@testing-library/react'
import { LOGGED_OUT_FLAG_KEY } from '@/auth/session'
import { renderApp } from './support/render-app'
import { createFakeGateway, makeUser } from './support/fake-auth'

function seedBrowserState() {
  localStorage.setItem('sb-127-auth-token', '{"access_token":"t"}')
  localStorage.setItem('supabase.auth.token', 'legacy')
  localStorage.setItem('oauth-state', 'x')
  localStorage.setItem('recertif.remember-me', 'tab')
  sessionStorage.setItem('anything', 'y')
  document.cookie = 'tracking=1; path=/'
}

async function logOutThroughMenu(user: ReturnType<typeof renderApp>['user']) {
  await user.click(await screen.findByRole('button', { name: /Menu utilisateur/ }))
  await user.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Déconnexion' }))
}

describe('Logout', () => {
  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
  })

  it('signs out globally, clears storage and cookies, sets the flag, then leaves for /login?logged_out=true', async () => {
    seedBrowserState()
    const gateway = createFakeGateway({ sessionUser: makeUser('manager') })
    const redirect = vi.fn(() => {
      // Everything must already be clean when the page is left.
      gateway.calls.push('redirect')
      expect(localStorage.getItem('sb-127-auth-token')).toBeNull()
      expect(localStorage.getItem(LOGGED_OUT_FLAG_KEY)).toBe('true')
    })
    const { user } = renderApp({ path: '/app/dashboard', gateway, redirect })
    await logOutThroughMenu(user)

    await waitFor(() => expect(redirect).toHaveBeenCalledWith('/login?logged_out=true'))
    expect(gateway.calls.slice(-2)).toEqual(['signOut:global', 'redirect'])
    expect(localStorage.getItem('supabase.auth.token')).toBeNull()
    expect(localStorage.getItem('oauth-state')).toBeNull()
    expect(localStorage.getItem('recertif.remember-me')).toBe('tab')
    expect(sessionStorage.length).toBe(0)
    expect(document.cookie).toBe('')
  })

  it('treats session_not_found as a normal end', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    const gateway = createFakeGateway({
      sessionUser: makeUser('user'),
      signOutFailure: { status: 403, code: 'session_not_found', message: 'Session from session_id claim in JWT does not exist' },
    })
    const redirect = vi.fn()
    const { user } = renderApp({ path: '/app/dashboard', gateway, redirect })
    await logOutThroughMenu(user)
    await waitFor(() => expect(redirect).toHaveBeenCalled())
    expect(consoleError).not.toHaveBeenCalled()
    consoleError.mockRestore()
  })

  it('logs any other sign-out failure and still clears the browser', async () => {
    seedBrowserState()
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    const gateway = createFakeGateway({ sessionUser: makeUser('user'), signOutFailure: { status: 500, message: 'boom' } })
    const redirect = vi.fn()
    const { user } = renderApp({ path: '/app/dashboard', gateway, redirect })
    await logOutThroughMenu(user)
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('/login?logged_out=true'))
    expect(consoleError).toHaveBeenCalled()
    expect(localStorage.getItem('sb-127-auth-token')).toBeNull()
    expect(localStorage.getItem(LOGGED_OUT_FLAG_KEY)).toBe('true')
    consoleError.mockRestore()
  })

  it('shows no signed-in page while signing out', async () => {
    const gateway = createFakeGateway({ sessionUser: makeUser('user') })
    gateway.signOut.mockImplementationOnce(() => new Promise(() => {}))
    const { user } = renderApp({ path: '/app/dashboard', gateway })
    await logOutThroughMenu(user)
    expect(await screen.findByRole('status')).toHaveTextContent('Déconnexion')
    expect(screen.queryByRole('navigation', { name: 'Menu principal' })).not.toBeInTheDocument()
  })

  it('does not restore a kept session while the logged-out flag is set, until the next sign-in', async () => {
    localStorage.setItem(LOGGED_OUT_FLAG_KEY, 'true')
    const gateway = createFakeGateway({ sessionUser: makeUser('admin', { email: 'admin@example.com' }), accounts: [makeUser('admin', { email: 'admin@example.com' })] })
    const { user, currentPath } = renderApp({ path: '/app/dashboard', gateway })
    await waitFor(() => expect(currentPath()).toBe('/login'))
    expect(gateway.restoreSession).not.toHaveBeenCalled()

    await user.click(await screen.findByRole('button', { name: /admin@example.com/ }))
    await user.click(screen.getByRole('button', { name: 'Se connecter' }))
    await waitFor(() => expect(currentPath()).toBe('/app/dashboard'))
    expect(localStorage.getItem(LOGGED_OUT_FLAG_KEY)).toBeNull()
  })
})
