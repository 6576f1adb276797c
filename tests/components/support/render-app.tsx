import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient } from '@tanstack/react-query'
import { MemoryRouter, useLocation, type Location } from 'react-router-dom'
import { afterEach, vi } from 'vitest'
import { AppProviders } from '@/app/providers'
import { AppRoutes } from '@/app/routes'
import { createFakeGateway, type FakeGateway } from './fake-auth'

// Session rules live in the browser's storage: every test starts from a browser that has never signed in.
afterEach(() => {
  localStorage.clear()
  sessionStorage.clear()
})

interface RenderAppOptions {
  path?: string
  /** Router state of the first entry, e.g. the `from` a guard leaves. */
  state?: unknown
  gateway?: FakeGateway
  /** Replaces the full page load that ends a logout. */
  redirect?: (url: string) => void
  /** Options for userEvent, e.g. advanceTimers with fake timers. */
  userEventOptions?: Parameters<typeof userEvent.setup>[0]
}

/** Renders the whole route tree with its providers, on a memory router, against a fake authentication backend. */
export function renderApp({ path = '/', state, gateway = createFakeGateway(), redirect = vi.fn(), userEventOptions }: RenderAppOptions = {}) {
  const location: { current: Location | null } = { current: null }
  function LocationSpy() {
    location.current = useLocation()
    return null
  }
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  const user = userEvent.setup(userEventOptions)
  const { pathname, search } = new URL(path, 'http://recertif.test')
  const result = render(
    <MemoryRouter initialEntries={[{ pathname, search, state }]}>
      <AppProviders
        queryClient={queryClient}
        auth={{ loadGateway: async () => gateway, redirect, storedSessionExists: () => gateway.hasSession() }}
      >
        <AppRoutes />
        <LocationSpy />
      </AppProviders>
    </MemoryRouter>,
  )
  return {
    ...result,
    user,
    gateway,
    redirect,
    /** The router's current path and query. */
    currentPath: () => (location.current ? `${location.current.pathname}${location.current.search}` : null),
  }
}
