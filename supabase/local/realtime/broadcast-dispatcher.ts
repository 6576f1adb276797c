import type { Database } from '../database'
import { forgetBroadcasts, readBroadcasts, type BroadcastRow } from './broadcasts'
import type { Hub } from './channel'

// A large transaction is written to the sockets in chunks, between which they flush and in-process clients read.
const CHUNK_SIZE = 500

/** The frame payload realtime-js expects for a broadcast: the client-broadcast shape, plus the message's id. */
export function broadcastFrame(message: { id: string; event: string; payload: unknown }): Record<string, unknown> {
  return { type: 'broadcast', event: message.event, payload: message.payload, meta: { id: message.id } }
}

/**
 * Delivers the messages that committed transactions inserted into realtime.messages, one transaction at a time in
 * commit order and each in insertion order, to the channels joined to `realtime:<topic>` of the same kind: a private
 * message to private channels whose select policies admitted broadcasts, a public one to public channels. Channels
 * are found by topic, so a message costs its own topic's channels only. Sockets are only written to, never awaited.
 */
export class BroadcastDispatcher {
  private queue: Promise<void> = Promise.resolve()

  constructor(
    private readonly db: Database,
    private readonly hub: Hub,
  ) {}

  notify(txid: string): void {
    if (!/^\d{1,19}$/.test(txid)) return
    this.queue = this.queue.then(() =>
      this.process(txid).catch((error: unknown) => console.error('[realtime] delivering a broadcast failed:', error)),
    )
  }

  /** Resolves once every notification received so far has been handled. */
  drained(): Promise<void> {
    return this.queue
  }

  private async process(txid: string): Promise<void> {
    try {
      const rows = this.hub.empty ? [] : await readBroadcasts(this.db, txid)
      for (let start = 0; start < rows.length; start += CHUNK_SIZE) {
        if (start > 0) await new Promise((resolve) => setImmediate(resolve))
        for (const row of rows.slice(start, start + CHUNK_SIZE)) this.deliver(row)
      }
    } finally {
      await forgetBroadcasts(this.db, txid)
    }
  }

  /** Hosted Realtime drops a message without a topic, an event or a payload. */
  private deliver(row: BroadcastRow): void {
    const { id, topic, event, payload } = row
    if (id === null || topic === null || event === null || payload === null || payload === undefined) return
    const frame = broadcastFrame({ id, event, payload })
    const isPrivate = row.private === true
    for (const channel of this.hub.onTopic(`realtime:${topic}`)) {
      if (channel.isPrivate === isPrivate && channel.receivesBroadcasts && channel.authorized) channel.deliver('broadcast', frame)
    }
  }
}
