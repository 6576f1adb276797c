import { act, fireEvent, screen } from '@testing-library/react'
import { INACTIVITY_TIMEOUT_MS } from '@/auth/inactivity'
import { renderApp } from './support/render-app'
import { createFakeGateway, makeUser } from './support/fake-auth'

describe('Inactivity sign-out', () => {
  beforeEach(() => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  async function signedIn() {
    const redirect = vi.fn()
    const gateway = createFakeGateway({ sessionUser: makeUser('user') })
    renderApp({ path: '/app/dashboard', gateway, redirect })
    await screen.findByRole('heading', { name: 'Tableau de bord' })
    return { redirect, gateway }
  }

  it('signs out after five minutes without activity', async () => {
    const { redirect, gateway } = await signedIn()
    await act(() => vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS - 1_000))
    expect(gateway.signOut).not.toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(1_000))
    expect(gateway.signOut).toHaveBeenCalledWith('global')
    expect(redirect).toHaveBeenCalledWith('/login?logged_out=true&reason=inactivity')
  })

  it.each(['mouseDown', 'mouseMove', 'keyPress', 'scroll', 'touchStart'] as const)('restarts the five minutes on %s', async (event) => {
    const { redirect } = await signedIn()
    await act(() => vi.advanceTimersByTimeAsync(4 * 60_000))
    fireEvent[event](document.body, { key: 'a', charCode: 97 })
    await act(() => vi.advanceTimersByTimeAsync(4 * 60_000))
    expect(redirect).not.toHaveBeenCalled()
    await act(() => vi.advanceTimersByTimeAsync(60_000))
    expect(redirect).toHaveBeenCalledWith('/login?logged_out=true&reason=inactivity')
  })

  it('does not run on public pages', async () => {
    const redirect = vi.fn()
    renderApp({ path: '/faq', gateway: createFakeGateway({ sessionUser: makeUser('user') }), redirect })
    await screen.findByRole('heading', { name: 'Questions fréquentes' })
    await act(() => vi.advanceTimersByTimeAsync(INACTIVITY_TIMEOUT_MS * 2))
    expect(redirect).not.toHaveBeenCalled()
  })
})
