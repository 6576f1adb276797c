import type { Claims } from '../keys'
import type { ChannelAccess } from './authorization'
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

export interface ChannelOptions {
  broadcastSelf: boolean
  broadcastAck: boolean
  /** A private channel's access, as the policies on realtime.messages gave it; undefined for a public channel. */
  access: ChannelAccess | undefined
}

/** A joined channel: its topic, whose token it acts under, and what it listens to. */
export class Channel {
  bindings: Binding[] = []
  open = true
  readonly broadcastSelf: boolean
  readonly broadcastAck: boolean
  access: ChannelAccess | undefined
  private expiry: NodeJS.Timeout | undefined

  constructor(
    readonly sink: ChannelSink,
    readonly topic: string,
    readonly joinRef: string | null,
    public token: string,
    public claims: Claims,
    options: ChannelOptions,
  ) {
    this.broadcastSelf = options.broadcastSelf
    this.broadcastAck = options.broadcastAck
    this.access = options.access
  }

  /** Private and public channels of one topic are two rooms: a broadcast in one never reaches the other. */
  get isPrivate(): boolean {
    return this.access !== undefined
  }

  /** Whether broadcasts of its room reach this channel: always when public, by the select policies when private. */
  get receivesBroadcasts(): boolean {
    return this.open && (this.access === undefined || this.access.broadcastRead)
  }

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

/** Every joined channel of every socket, also by topic so that a broadcast costs only its topic's channels. */
export class Hub {
  private readonly channels = new Set<Channel>()
  private readonly byTopic = new Map<string, Set<Channel>>()

  /** `changed` is told of every channel added or removed (the capture follows what is listened to). */
  constructor(private readonly changed: () => Promise<void> = () => Promise.resolve()) {}

  /** Resolves once what the channel listens to is being captured. */
  add(channel: Channel): Promise<void> {
    this.channels.add(channel)
    const sameTopic = this.byTopic.get(channel.topic) ?? new Set<Channel>()
    sameTopic.add(channel)
    this.byTopic.set(channel.topic, sameTopic)
    return this.changed()
  }

  remove(channel: Channel): void {
    if (!this.channels.delete(channel)) return
    const sameTopic = this.byTopic.get(channel.topic)
    sameTopic?.delete(channel)
    if (sameTopic?.size === 0) this.byTopic.delete(channel.topic)
    // A failure is logged where it happens; the channel is gone either way.
    this.changed().catch(() => undefined)
  }

  listening(): Channel[] {
    return [...this.channels].filter((channel) => channel.open && channel.bindings.length > 0)
  }

  /** The open channels joined to a topic ("realtime:<name>"). */
  onTopic(topic: string): Channel[] {
    return [...(this.byTopic.get(topic) ?? [])].filter((channel) => channel.open)
  }

  /** Whether any channel is joined at all. */
  get empty(): boolean {
    return this.channels.size === 0
  }
}
