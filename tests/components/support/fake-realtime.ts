type ChangeCallback = (payload: unknown) => void
type StatusCallback = (status: string, error?: Error) => void

/** A realtime channel that lives in memory: the server never answers unless a test speaks for it. */
export interface FakeRealtimeChannel {
  topic: string
  /** The table of the last postgres_changes listener, when there is one. */
  table: string | undefined
  removed: boolean
  /** Delivers a change to every postgres_changes listener, as the server would after a write the caller may see. */
  emit(payload?: unknown): void
  /** Reports a channel status ('SUBSCRIBED', 'CHANNEL_ERROR', ...) to the subscribe callback. */
  setStatus(status: string): void
}

const channels: FakeRealtimeChannel[] = []

/** The channels the app has opened and not removed, optionally only those on one table. */
export function openRealtimeChannels(table?: string): FakeRealtimeChannel[] {
  return channels.filter((channel) => !channel.removed && (table === undefined || channel.table === table))
}

function createChannel(topic: string) {
  const listeners: ChangeCallback[] = []
  let onStatus: StatusCallback = () => {}
  const fake: FakeRealtimeChannel = {
    topic,
    table: undefined,
    removed: false,
    emit: (payload = {}) => listeners.forEach((listener) => listener(payload)),
    setStatus: (status) => onStatus(status),
  }
  const api = {
    topic,
    on(type: string, filter: { table?: string }, callback: ChangeCallback) {
      if (type === 'postgres_changes') {
        fake.table = filter.table
        listeners.push(callback)
      }
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
    channel(topic: string) {
      const { api, fake } = createChannel(topic)
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
