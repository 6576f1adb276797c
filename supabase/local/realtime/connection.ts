import WebSocket from 'ws'
import type { Database } from '../database'
import type { ServerConfig } from '../context'
import type { Claims } from '../keys'
import { broadcastWriteAccess, readAccess, unauthorizedReason, type ChannelAccess } from './authorization'
import { prepareBindings } from './bindings'
import type { Catalog } from './catalog'
import { Channel, type ChannelSink, type Hub } from './channel'
import { checkToken } from './jwt'
import { decodeFrame, encodeFrame, type Frame, type Vsn } from './protocol'

export interface RealtimeContext {
  db: Database
  config: ServerConfig
  hub: Hub
  catalog: Catalog
}

// Phoenix closes a socket that has been silent this long; realtime-js heartbeats every 25 seconds.
const IDLE_TIMEOUT_MS = 60_000
// A client that does not read its messages is cut off rather than buffered without end.
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024
// Frames are handled one at a time; a client that floods faster than that is cut off.
const MAX_PENDING_FRAMES = 256
// Realtime's max_channels_per_client.
const MAX_CHANNELS = 100

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** One client socket speaking Phoenix to Realtime: channels, heartbeats, token refreshes, broadcasts. */
export class Connection implements ChannelSink {
  private readonly channels = new Map<string, Channel>()
  private queue: Promise<void> = Promise.resolve()
  private pending = 0
  private idle: NodeJS.Timeout | undefined
  private closed = false

  constructor(
    private readonly ws: WebSocket,
    private readonly vsn: Vsn,
    private readonly apiKey: string,
    private readonly context: RealtimeContext,
    /** The upgrade request's headers: request.headers when the policies on realtime.messages are checked. */
    private readonly headers: Record<string, string>,
  ) {
    ws.on('message', (data, isBinary) => this.receive(data, isBinary))
    ws.on('close', () => this.dispose())
    ws.on('error', () => ws.terminate())
    this.touch()
  }

  send(frame: Frame): void {
    if (this.ws.readyState !== WebSocket.OPEN) return
    if (this.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.ws.terminate()
      return
    }
    this.ws.send(encodeFrame(frame, this.vsn))
  }

  terminate(): void {
    this.ws.terminate()
    this.dispose()
  }

  private touch(): void {
    clearTimeout(this.idle)
    this.idle = setTimeout(() => this.terminate(), IDLE_TIMEOUT_MS)
    this.idle.unref()
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    this.touch()
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)
    const frame = decodeFrame(bytes, isBinary, this.vsn)
    if (!frame) return
    if (this.pending >= MAX_PENDING_FRAMES) {
      this.ws.close(1008, 'Too many messages')
      return
    }
    this.pending++
    this.queue = this.queue
      .then(() => this.handle(frame))
      .catch((error: unknown) => console.error('[realtime] message handling failed:', error))
      .finally(() => this.pending--)
  }

  private reply(frame: Frame, status: 'ok' | 'error', response: unknown): void {
    this.send({ joinRef: frame.joinRef, ref: frame.ref, topic: frame.topic, event: 'phx_reply', payload: { status, response } })
  }

  private async handle(frame: Frame): Promise<void> {
    if (frame.topic === 'phoenix') {
      if (frame.event === 'heartbeat') this.reply(frame, 'ok', {})
      return
    }
    if (frame.event === 'phx_join') return this.join(frame)
    const channel = this.channels.get(frame.topic)
    if (!channel || (frame.joinRef !== null && frame.joinRef !== channel.joinRef)) {
      this.reply(frame, 'error', { reason: 'unmatched topic' })
      return
    }
    switch (frame.event) {
      case 'phx_leave':
        this.remove(channel)
        this.reply(frame, 'ok', {})
        return
      case 'access_token':
        return this.refreshToken(channel, frame.payload)
      case 'broadcast':
        return this.broadcast(channel, frame)
      // Presence is accepted but not tracked: the product does not use it.
      case 'presence':
        this.reply(frame, 'ok', {})
        return
    }
  }

  private async join(frame: Frame): Promise<void> {
    const { topic } = frame
    if (!topic.startsWith('realtime:')) return this.reply(frame, 'error', { reason: 'unmatched topic' })
    if (topic === 'realtime:') return this.reply(frame, 'error', { reason: 'You must provide a topic name' })
    const previous = this.channels.get(topic)
    if (previous) {
      // Phoenix closes the existing channel on a duplicate join and joins anew.
      previous.push('phx_close', {}, previous.joinRef)
      this.remove(previous)
    }
    if (this.channels.size >= MAX_CHANNELS) return this.reply(frame, 'error', { reason: 'Too many channels' })

    const payload = isObject(frame.payload) ? frame.payload : {}
    const config = isObject(payload.config) ? payload.config : {}
    const subTopic = topic.slice('realtime:'.length)
    const rawBindings = config.postgres_changes ?? []
    if (!Array.isArray(rawBindings) || !rawBindings.every(isObject)) {
      return this.reply(frame, 'error', { reason: 'postgres_changes must be a list of bindings' })
    }
    const token =
      typeof payload.access_token === 'string' && payload.access_token !== '' ? payload.access_token : this.apiKey
    const check = await checkToken(token, this.context.config)
    if (!check.ok) return this.reply(frame, 'error', { reason: check.reason })
    const access = config.private === true ? await this.privateAccess(check.claims, subTopic) : undefined
    if (access && !access.broadcastRead && !access.presenceRead) {
      return this.reply(frame, 'error', { reason: `Unauthorized: ${unauthorizedReason(subTopic)}` })
    }

    const prepared = await prepareBindings(this.context.db, this.context.catalog, rawBindings)
    // The socket may have gone while the join was checked: registering the channel then would leak it.
    if (this.closed) return
    const broadcast = isObject(config.broadcast) ? config.broadcast : {}
    const channel = new Channel(this, topic, frame.joinRef, token, check.claims, {
      broadcastSelf: broadcast.self === true,
      broadcastAck: broadcast.ack === true,
      access,
    })
    if (prepared.ok) channel.bindings = prepared.bindings
    this.channels.set(topic, channel)
    await this.context.hub.add(channel)
    channel.watchExpiry(() => this.shutdown(channel, 'Token has expired 0 seconds ago'))

    const echoed = prepared.ok
      ? prepared.bindings.map((binding) => binding.echo)
      : rawBindings.map((binding) => ({ ...binding, id: 0 }))
    this.reply(frame, 'ok', { postgres_changes: echoed })
    if (rawBindings.length > 0) {
      channel.push('system', {
        extension: 'postgres_changes',
        status: prepared.ok ? 'ok' : 'error',
        message: prepared.ok ? 'Subscribed to PostgreSQL' : prepared.message,
        channel: subTopic,
      })
    }
    if (isObject(config.presence) && config.presence.enabled === true) channel.push('presence_state', {})
  }

  /** The policies' answer on a private channel's topic for these claims. */
  private privateAccess(claims: Claims, subTopic: string): Promise<ChannelAccess> {
    return readAccess(this.context.db, { claims, headers: this.headers }, subTopic)
  }

  /**
   * A refreshed token replaces the channel's; an invalid one ends the channel as Realtime ends it. A private channel
   * is authorized again under it, and ended as hosted Realtime ends it when it may no longer read.
   */
  private async refreshToken(channel: Channel, payload: unknown): Promise<void> {
    const token = isObject(payload) ? payload.access_token : undefined
    if (typeof token !== 'string' || token === '' || token === channel.token) return
    const check = await checkToken(token, this.context.config)
    if (!channel.open) return
    if (!check.ok) {
      this.shutdown(channel, check.reason)
      return
    }
    const previous = channel.access
    const access = previous ? await this.privateAccess(check.claims, channel.subTopic) : undefined
    if (!channel.open) return
    const refusal = previous && access ? revokedReason(previous, access, channel.subTopic) : undefined
    if (refusal) {
      this.shutdown(channel, refusal)
      return
    }
    channel.access = access
    channel.token = token
    channel.claims = check.claims
    channel.watchExpiry(() => this.shutdown(channel, 'Token has expired 0 seconds ago'))
  }

  /**
   * Relays a client's broadcast to the channels of its room: public channels of the topic from a public channel; from
   * a private one, only if the insert policies let its user write to the topic (checked once per token, as hosted
   * does; refused broadcasts are dropped without a reply), to the private channels that may read it.
   */
  private async broadcast(channel: Channel, frame: Frame): Promise<void> {
    if (!isObject(frame.payload)) return
    const access = channel.access
    if (access && access.broadcastWrite === undefined) {
      const requester = { claims: channel.claims, headers: this.headers }
      access.broadcastWrite = await broadcastWriteAccess(this.context.db, requester, channel.subTopic)
    }
    if (!channel.open || access?.broadcastWrite === false) return
    for (const other of this.context.hub.onTopic(channel.topic)) {
      if (other.isPrivate !== channel.isPrivate || !other.receivesBroadcasts) continue
      if (other !== channel || channel.broadcastSelf) other.deliver('broadcast', frame.payload)
    }
    if (channel.broadcastAck) this.reply(frame, 'ok', {})
  }

  /** Realtime's shutdown: a system error the client shows, then phx_close, which ends the channel client-side. */
  private shutdown(channel: Channel, message: string): void {
    if (!channel.open) return
    channel.push('system', { extension: 'system', status: 'error', message, channel: channel.subTopic })
    channel.push('phx_close', {}, channel.joinRef)
    this.remove(channel)
  }

  private remove(channel: Channel): void {
    channel.dispose()
    this.context.hub.remove(channel)
    if (this.channels.get(channel.topic) === channel) this.channels.delete(channel.topic)
  }

  private dispose(): void {
    this.closed = true
    clearTimeout(this.idle)
    for (const channel of this.channels.values()) this.remove(channel)
  }
}

/** Hosted Realtime's reason for ending a private channel whose new token lost read access; undefined if it kept it. */
function revokedReason(previous: ChannelAccess, current: ChannelAccess, subTopic: string): string | undefined {
  if (!current.broadcastRead && !current.presenceRead) return unauthorizedReason(subTopic)
  const lost = (previous.broadcastRead && !current.broadcastRead) || (previous.presenceRead && !current.presenceRead)
  return lost ? `You no longer have permission to read from this Channel topic: ${subTopic}` : undefined
}
