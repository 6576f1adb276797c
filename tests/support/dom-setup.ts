import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach, vi } from 'vitest'

// Pages are lazy chunks that jsdom tests transform on first use; on a busy machine that alone can take several
// seconds, and a findBy* must not fail for it. Well under the project's testTimeout, so a missing element still
// fails with Testing Library's description of the screen rather than a bare timeout.
configure({ asyncUtilTimeout: 10_000 })

// Screens subscribe to live changes on mount. Against the real client that opens a socket to the default URL,
// which fails or succeeds depending on whether the developer's own backend is running on 54321, and jsdom cannot
// even handle a successful connection. The in-memory channels make every run the same.
vi.mock('@supabase/supabase-js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@supabase/supabase-js')>()
  const { withFakeRealtime } = await import('../components/support/fake-realtime')
  const createClient: typeof actual.createClient = (...args) => withFakeRealtime(actual.createClient(...args))
  return { ...actual, createClient }
})

// Any other way out of the process is a test that did not stub its neighbour: it must fail the same way whether or not
// something listens at the address (as a browser offline would: fetch rejects with a TypeError), and say what to stub.
// Plain assignments rather than vi.stubGlobal, so that a test's vi.unstubAllGlobals() brings back the guard, not the network.
function blocked(what: string): TypeError {
  return new TypeError(`Component tests never use the network: ${what} was blocked. Stub it in the test (vi.mock the API module or @/lib/supabase).`)
}

globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET')
  throw blocked(`fetch ${method} ${input instanceof Request ? input.url : String(input)}`)
}
globalThis.WebSocket = class BlockedWebSocket {
  constructor(url: string | URL) {
    throw blocked(`WebSocket ${String(url)}`)
  }
} as unknown as typeof WebSocket

afterEach(() => cleanup())
