import { render, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { vi } from 'vitest'
import { getSupabase } from '@/lib/supabase'
import { useLiveInvalidation, useLiveTopics } from '@/lib/realtime'
import { announce, openRealtimeChannels } from './fake-realtime'

// What every component test relies on: the real supabase client, yet the same result whether or not the developer's
// own backend is listening on the default port.

function LiveUsers() {
  useLiveTopics({ id: 'u1', role: 'admin' })
  useLiveInvalidation(['users'], ['users'], { debounceMs: 0, maxWaitMs: 0 })
  return null
}

describe('Component test isolation', () => {
  it('lets a screen follow live changes through in-memory channels that a test can drive', async () => {
    const queryClient = new QueryClient()
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue()
    const view = render(
      <QueryClientProvider client={queryClient}>
        <LiveUsers />
      </QueryClientProvider>,
    )
    expect(openRealtimeChannels().map((channel) => channel.topic).sort()).toEqual(['admin', 'user:u1'])
    announce('users')
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: ['users'] }))
    view.unmount()
    expect(openRealtimeChannels()).toHaveLength(0)
  })

  it('fails a request nobody stubbed, saying what to stub', async () => {
    // Without retry(false), postgrest-js would spend 7 s backing off before giving the same answer.
    const { error } = await getSupabase().from('users').select('id').retry(false)
    expect(error?.message).toMatch(/Component tests never use the network: fetch GET .*\/rest\/v1\/users.* was blocked/)
  })

  it('refuses to open a socket', () => {
    expect(() => new WebSocket('ws://recertif.test/realtime/v1/websocket')).toThrow(/Component tests never use the network: WebSocket/)
  })
})
