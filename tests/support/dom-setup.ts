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

// jsdom has no HTMLDialogElement.showModal() or close() (jsdom 29), which src/components/ui/Dialog.tsx relies on. This is
// the least of what browsers do that the component tests observe: `open` set and cleared, `close` fired on closing,
// and Escape anywhere in the document firing a cancelable `cancel` at the topmost modal dialog, which closes it unless
// cancelled. Inertness of the page behind and the top layer are not emulated; the browser tests check those.
if (typeof HTMLDialogElement !== 'undefined' && !('showModal' in HTMLDialogElement.prototype)) {
  const modals: HTMLDialogElement[] = []
  Object.assign(HTMLDialogElement.prototype, {
    showModal(this: HTMLDialogElement) {
      if (this.open) throw new DOMException('The dialog is already open.', 'InvalidStateError')
      this.setAttribute('open', '')
      modals.push(this)
    },
    close(this: HTMLDialogElement) {
      if (!this.open) return
      this.removeAttribute('open')
      modals.splice(modals.indexOf(this), 1)
      this.dispatchEvent(new Event('close'))
    },
  })
  document.addEventListener('keydown', (event) => {
    const top = modals.at(-1)
    if (event.key !== 'Escape' || !top?.isConnected) return
    if (top.dispatchEvent(new Event('cancel', { cancelable: true }))) top.close()
  })
}

afterEach(() => cleanup())
