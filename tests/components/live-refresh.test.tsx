import { act, render } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { vi } from 'vitest'
import type { LiveTable } from '@/lib/realtime'

// The neighbour stubbed here is the supabase-js client: what is under test is how the app shares channels and
// turns a burst of changes into refetches. The real socket is exercised by tests/api/realtime and the browser suite.
type FakeChannel = {
  name: string
  table?: string
  emit: () => void
  setStatus: (status: string) => void
  removed: boolean
}
const channels: FakeChannel[] = []
const fakeOf = new WeakMap<object, FakeChannel>()

vi.mock('@/lib/supabase', () => ({
  getSupabase: () => ({
    channel(name: string) {
      const fake: FakeChannel = { name, emit: () => {}, setStatus: () => {}, removed: false }
      channels.push(fake)
      const api = {
        on(_type: string, filter: { table: string }, callback: () => void) {
          fake.table = filter.table
          fake.emit = callback
          return api
        },
        subscribe(callback: (status: string) => void) {
          fake.setStatus = callback
          return api
        },
      }
      fakeOf.set(api, fake)
      return api
    },
    async removeChannel(channel: object) {
      fakeOf.get(channel)!.removed = true
      return 'ok'
    },
  }),
}))

const { useLiveInvalidation } = await import('@/lib/realtime')

function Live({ tables, queryKey }: { tables: LiveTable[]; queryKey: string[] }) {
  useLiveInvalidation(tables, queryKey)
  return null
}

function setup(ui: React.ReactNode) {
  const queryClient = new QueryClient()
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue()
  const view = render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>)
  return { invalidate, view }
}

const open = (table: string) => channels.filter((channel) => channel.table === table && !channel.removed)

beforeEach(() => {
  channels.length = 0
  vi.useFakeTimers()
})
afterEach(() => vi.useRealTimers())

describe('Live refresh', () => {
  it('shares one channel per table between the lists that show it, and closes it with the last one', () => {
    const { view } = setup(
      <>
        <Live tables={['user_rights', 'campaigns']} queryKey={['reviews']} />
        <Live tables={['user_rights']} queryKey={['team']} />
      </>,
    )
    expect(open('user_rights')).toHaveLength(1)
    expect(open('campaigns')).toHaveLength(1)
    view.unmount()
    expect(open('user_rights')).toHaveLength(0)
    expect(open('campaigns')).toHaveLength(0)
  })

  it('refreshes each list once after a burst of changes, not once per change', () => {
    const { invalidate } = setup(
      <>
        <Live tables={['user_rights']} queryKey={['reviews']} />
        <Live tables={['user_rights']} queryKey={['team']} />
      </>,
    )
    const [channel] = open('user_rights')
    act(() => {
      for (let i = 0; i < 50; i += 1) channel!.emit()
    })
    expect(invalidate).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(300))
    expect(invalidate).toHaveBeenCalledTimes(2)
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['reviews'] })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['team'] })
  })

  it('still refreshes during an endless stream of changes, at most two seconds after the first', () => {
    const { invalidate } = setup(<Live tables={['user_rights']} queryKey={['reviews']} />)
    const [channel] = open('user_rights')
    act(() => {
      for (let elapsed = 0; elapsed < 2000; elapsed += 100) {
        channel!.emit()
        vi.advanceTimersByTime(100)
      }
    })
    expect(invalidate).toHaveBeenCalledTimes(1)
  })

  it('refetches after the channel rejoins, since changes may have been missed while it was down', () => {
    const { invalidate } = setup(<Live tables={['applications']} queryKey={['applications']} />)
    const [channel] = open('applications')
    act(() => channel!.setStatus('SUBSCRIBED'))
    act(() => vi.advanceTimersByTime(1000))
    expect(invalidate).not.toHaveBeenCalled()
    act(() => {
      channel!.setStatus('CHANNEL_ERROR')
      channel!.setStatus('SUBSCRIBED')
    })
    act(() => vi.advanceTimersByTime(300))
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['applications'] })
  })

  it('stops refreshing a list once it is gone', () => {
    const { invalidate, view } = setup(<Live tables={['users']} queryKey={['users']} />)
    const [channel] = open('users')
    act(() => channel!.emit())
    view.unmount()
    act(() => vi.advanceTimersByTime(5000))
    expect(invalidate).not.toHaveBeenCalled()
  })
})
