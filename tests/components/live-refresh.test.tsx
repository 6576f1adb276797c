import { act, render } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { vi } from 'vitest'
import { THROTTLED_CATCH_UP_MS, useLiveCampaign, useLiveInvalidation, useLiveTopics, type LiveKind } from '@/lib/realtime'
import { announce, openRealtimeChannels } from './support/fake-realtime'

// The neighbour stubbed here is the supabase-js client's realtime (tests/support/dom-setup.ts): what is under test is
// which topics the app joins and how it turns a burst of announcements into refetches. The real socket, the database's
// announcements and its authorisation of each topic are exercised by tests/api and the browser suite.

function Session({ id, role }: { id: string; role: string }) {
  useLiveTopics({ id, role })
  return null
}

function Live({ kinds, queryKey }: { kinds: LiveKind[]; queryKey: string[] }) {
  useLiveInvalidation(kinds, queryKey)
  return null
}

function CampaignProgress({ campaignId, role }: { campaignId: string; role: string }) {
  useLiveCampaign(campaignId, { role })
  return null
}

function setup(ui: React.ReactNode) {
  const queryClient = new QueryClient()
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries').mockResolvedValue()
  const view = render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>)
  return { invalidate, view }
}

const topics = () => openRealtimeChannels().map((channel) => `${channel.topic}${channel.private ? '' : ' (public)'}`).sort()

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('Live refresh', () => {
  it('joins the person’s own private topic, and the role’s for admin and rssi, once per session', () => {
    const reviewer = setup(<Session id="p1" role="manager" />)
    expect(topics()).toEqual(['user:p1'])
    reviewer.view.unmount()
    const admin = setup(<Session id="p2" role="admin" />)
    expect(topics()).toEqual(['admin', 'user:p2'])
    admin.view.unmount()
    const rssi = setup(
      <>
        <Session id="p3" role="rssi" />
        <Live kinds={['user_rights']} queryKey={['a']} />
        <Live kinds={['campaigns']} queryKey={['b']} />
      </>,
    )
    expect(topics()).toEqual(['rssi', 'user:p3'])
    rssi.view.unmount()
    expect(topics()).toEqual([])
  })

  it('refreshes each list showing a kind once after a burst of announcements, and no other list', () => {
    const { invalidate } = setup(
      <>
        <Session id="p1" role="manager" />
        <Live kinds={['user_rights']} queryKey={['reviews']} />
        <Live kinds={['user_rights', 'users']} queryKey={['team']} />
        <Live kinds={['control_rules']} queryKey={['controls']} />
      </>,
    )
    act(() => {
      for (let i = 0; i < 50; i += 1) announce('user_rights')
    })
    expect(invalidate).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(300))
    expect(invalidate).toHaveBeenCalledTimes(2)
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['reviews'] })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['team'] })
  })

  it('ignores a message that names no kind it knows', () => {
    const { invalidate } = setup(
      <>
        <Session id="p1" role="user" />
        <Live kinds={['user_rights']} queryKey={['rights']} />
      </>,
    )
    const [channel] = openRealtimeChannels('user:p1')
    act(() => {
      channel!.broadcast('changed', { kinds: ['secrets'] })
      channel!.broadcast('changed', 'user_rights')
      channel!.broadcast('other', { kinds: ['user_rights'] })
      vi.advanceTimersByTime(5000)
    })
    expect(invalidate).not.toHaveBeenCalled()
  })

  it('still refreshes during an endless stream of announcements, at most two seconds after the first', () => {
    const { invalidate } = setup(
      <>
        <Session id="p1" role="admin" />
        <Live kinds={['user_rights']} queryKey={['reviews']} />
      </>,
    )
    act(() => {
      for (let elapsed = 0; elapsed < 2000; elapsed += 100) {
        announce('user_rights')
        vi.advanceTimersByTime(100)
      }
    })
    expect(invalidate).toHaveBeenCalledTimes(1)
  })

  it('refetches after a topic rejoins, since announcements may have been missed while it was down', () => {
    const { invalidate } = setup(
      <>
        <Session id="p1" role="admin" />
        <Live kinds={['applications']} queryKey={['applications']} />
      </>,
    )
    const [channel] = openRealtimeChannels('admin')
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
    const { invalidate, view } = setup(
      <>
        <Session id="p1" role="admin" />
        <Live kinds={['users']} queryKey={['users']} />
      </>,
    )
    act(() => announce('users'))
    view.rerender(
      <QueryClientProvider client={new QueryClient()}>
        <Session id="p1" role="admin" />
      </QueryClientProvider>,
    )
    act(() => vi.advanceTimersByTime(5000))
    expect(invalidate).not.toHaveBeenCalled()
  })

  it('looks again once a throttled topic has been quiet, for the last change of a burst the database held', () => {
    const { invalidate } = setup(
      <>
        <Session id="p1" role="admin" />
        <Live kinds={['users']} queryKey={['users']} />
        <Live kinds={['control_rules']} queryKey={['controls']} />
      </>,
    )
    const [admin] = openRealtimeChannels('admin')
    act(() => admin!.broadcast('changed', { kinds: ['user_rights'] }))
    act(() => vi.advanceTimersByTime(THROTTLED_CATCH_UP_MS - 1))
    // Neither list shows rights: nothing yet.
    expect(invalidate).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(1 + 300))
    // A change of any kind may have been held within the second after that message.
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['users'] })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['controls'] })
    invalidate.mockClear()
    act(() => vi.advanceTimersByTime(10_000))
    expect(invalidate).not.toHaveBeenCalled()
  })

  it('looks again once joined to a throttled topic, for a change held after a message sent before the join', () => {
    const { invalidate } = setup(
      <>
        <Session id="p1" role="admin" />
        <Live kinds={['campaigns']} queryKey={['alerts']} />
      </>,
    )
    const [own] = openRealtimeChannels('user:p1')
    const [admin] = openRealtimeChannels('admin')
    act(() => own!.setStatus('SUBSCRIBED'))
    act(() => vi.advanceTimersByTime(10_000))
    expect(invalidate).not.toHaveBeenCalled()
    act(() => admin!.setStatus('SUBSCRIBED'))
    act(() => vi.advanceTimersByTime(THROTTLED_CATCH_UP_MS + 300 - 1))
    expect(invalidate).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(1))
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['alerts'] })
  })

  it('does not look again after a message on the person’s own topic, which the database never holds', () => {
    const { invalidate } = setup(
      <>
        <Session id="p1" role="manager" />
        <Live kinds={['users']} queryKey={['users']} />
      </>,
    )
    const [own] = openRealtimeChannels('user:p1')
    act(() => own!.broadcast('changed', { kinds: ['user_rights'] }))
    act(() => vi.advanceTimersByTime(10_000))
    expect(invalidate).not.toHaveBeenCalled()
  })

  it('joins a campaign’s topic while its progress is on screen, unless the role’s topic already carries it', () => {
    const reviewer = setup(
      <>
        <Session id="p1" role="manager" />
        <CampaignProgress campaignId="c1" role="manager" />
      </>,
    )
    expect(topics()).toEqual(['campaign:c1', 'user:p1'])
    reviewer.view.rerender(
      <QueryClientProvider client={new QueryClient()}>
        <Session id="p1" role="manager" />
      </QueryClientProvider>,
    )
    expect(topics()).toEqual(['user:p1'])
    reviewer.view.unmount()
    const admin = setup(
      <>
        <Session id="p2" role="admin" />
        <CampaignProgress campaignId="c1" role="admin" />
      </>,
    )
    expect(topics()).toEqual(['admin', 'user:p2'])
    admin.view.unmount()
  })
})
