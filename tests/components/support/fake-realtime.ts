type MessageCallback = (message: { payload?: unknown }) => void
type StatusCallback = (status: string, error?: Error) => void

/** A realtime channel that lives in memory: the server never answers unless a test speaks for it. */
export interface FakeRealtimeChannel {
  topic: string
  /** Whether it was joined as a private channel (the database authorises those). */
  private: boolean
  removed: boolean
  /** Delivers a broadcast message to the channel's listeners of that event, as the database's realtime.send would. */
  broadcast(event: string, payload: unknown): void
  /** Reports a channel status ('SUBSCRIBED', 'CHANNEL_ERROR', ...) to the subscribe callback. */
  setStatus(status: string): void
}

const channels: FakeRealtimeChannel[] = []

/** The channels the app has opened and not removed, optionally only the one on a topic. */
export function openRealtimeChannels(topic?: string): FakeRealtimeChannel[] {
  return channels.filter((channel) => !channel.removed && (topic === undefined || channel.topic === topic))
}

/** Announces, on every open channel, that data of these kinds changed: what the database's live triggers send. */
export function announce(...kinds: string[]): void {
  for (const channel of openRealtimeChannels()) channel.broadcast('changed', { kinds })
}

function createChannel(topic: string, options: { config?: { private?: boolean } } = {}) {
  const listeners: { event: string; callback: MessageCallback }[] = []
  let onStatus: StatusCallback = () => {}
  const fake: FakeRealtimeChannel = {
    topic,
    private: options.config?.private === true,
    removed: false,
    broadcast: (event, payload) =>
      listeners.filter((listener) => listener.event === event).forEach((listener) => listener.callback({ payload })),
    setStatus: (status) => onStatus(status),
  }
  const api = {
    topic,
    on(type: string, filter: { event?: string }, callback: MessageCallback) {
      if (type === 'broadcast' && filter.event) listeners.push({ event: filter.event, callback })
      return api
    },
    subscribe(callback?: StatusCallback) {
      if (callback) onStatus = callback
      return api
    },
    async unsubscribe() {
      fake.removed = true
      return 'ok' as const
    },
  }
  channels.push(fake)
  return { api, fake }
}

/**
 * Replaces the client's realtime entry points with in-memory channels, so that a rendered screen subscribes
 * without ever opening a socket; everything else (auth, REST, RPC) is the real client.
 */
export function withFakeRealtime<Client extends object>(client: Client): Client {
  const fakeOf = new Map<object, FakeRealtimeChannel>()
  const live = () => [...fakeOf].filter(([, fake]) => !fake.removed).map(([api]) => api)
  Object.assign(client, {
    channel(topic: string, options?: { config?: { private?: boolean } }) {
      const { api, fake } = createChannel(topic, options)
      fakeOf.set(api, fake)
      return api
    },
    getChannels: live,
    async removeChannel(channel: object) {
      const fake = fakeOf.get(channel)
      if (fake) fake.removed = true
      return 'ok' as const
    },
    async removeAllChannels() {
      return live().map((api) => {
        fakeOf.get(api)!.removed = true
        return 'ok' as const
      })
    },
  })
  return client
}
