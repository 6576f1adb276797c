import type { Claims } from '../keys'
import type { Condition } from './filters'
import type { Frame } from './protocol'

export type ChangeEvent = 'INSERT' | 'UPDATE' | 'DELETE'

/** One postgres_changes binding of a joined channel. */
export interface Binding {
  /** Realtime's id for the binding; the client routes each change by the ids it carries. */
  id: number
  /** The binding exactly as the client sent it, plus the id: realtime-js compares it field by field. */
  echo: Record<string, unknown>
  event: ChangeEvent | '*'
  /** '*' for every schema. */
  schema: string
  /** Undefined for every table of the schema. */
  table: string | undefined
  conditions: Condition[]
  select: string[] | undefined
}

export interface ChannelSink {
  send(frame: Frame): void
}

/** A joined channel: its topic, whose token it acts under, and what it listens to. */
export class Channel {
  bindings: Binding[] = []
  open = true
  private expiry: NodeJS.Timeout | undefined

  constructor(
    readonly sink: ChannelSink,
    readonly topic: string,
    readonly joinRef: string | null,
    public token: string,
    public claims: Claims,
    readonly broadcastSelf: boolean,
    readonly broadcastAck: boolean,
  ) {}

  get subTopic(): string {
    return this.topic.replace(/^realtime:/i, '')
  }

  /** Whether the channel's token is still good: a change is never delivered under an expired token. */
  get authorized(): boolean {
    return typeof this.claims.exp === 'number' && this.claims.exp * 1000 > Date.now()
  }

  /** A message of this join (system, phx_close, presence_state): it carries the join ref. */
  push(event: string, payload: unknown, ref: string | null = null): void {
    if (this.open) this.sink.send({ joinRef: this.joinRef, ref, topic: this.topic, event, payload })
  }

  /** A message fanned out to subscribers (postgres_changes, broadcast): Realtime sends these without refs. */
  deliver(event: string, payload: unknown): void {
    if (this.open) this.sink.send({ joinRef: null, ref: null, topic: this.topic, event, payload })
  }

  /** Arms `onExpiry` for when the current token expires (Realtime shuts the channel down then). */
  watchExpiry(onExpiry: () => void): void {
    clearTimeout(this.expiry)
    const exp = typeof this.claims.exp === 'number' ? this.claims.exp * 1000 : Date.now()
    // setTimeout's limit is about 24.8 days; a longer-lived token is re-armed when that timer fires.
    const delay = Math.min(Math.max(0, exp - Date.now()), 2 ** 31 - 1)
    this.expiry = setTimeout(() => (this.authorized ? this.watchExpiry(onExpiry) : onExpiry()), delay)
    this.expiry.unref()
  }

  dispose(): void {
    this.open = false
    clearTimeout(this.expiry)
  }
}

/** Every joined channel of every socket. */
export class Hub {
  private readonly channels = new Set<Channel>()

  /** `changed` is told of every channel added or removed (the capture follows what is listened to). */
  constructor(private readonly changed: () => Promise<void> = () => Promise.resolve()) {}

  /** Resolves once what the channel listens to is being captured. */
  add(channel: Channel): Promise<void> {
    this.channels.add(channel)
    return this.changed()
  }

  remove(channel: Channel): void {
    this.channels.delete(channel)
    // A failure is logged where it happens; the channel is gone either way.
    this.changed().catch(() => undefined)
  }

  listening(): Channel[] {
    return [...this.channels].filter((channel) => channel.open && channel.bindings.length > 0)
  }

  onTopic(topic: string): Channel[] {
    return [...this.channels].filter((channel) => channel.open && channel.topic === topic)
  }
}
