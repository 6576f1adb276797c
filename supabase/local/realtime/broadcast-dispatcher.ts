import type { Database } from '../database'
import { takeBroadcasts, type BroadcastRow } from './broadcasts'
import type { Hub } from './channel'

// A large transaction is written to the sockets in chunks, between which they flush and in-process clients read.
const CHUNK_SIZE = 500
// Committed transactions taken off the queue together, at most.
const BATCH_SIZE = 500

/** The frame payload realtime-js expects for a broadcast: the client-broadcast shape, plus the message's id. */
export function broadcastFrame(message: { id: string; event: string; payload: unknown }): Record<string, unknown> {
  return { type: 'broadcast', event: message.event, payload: message.payload, meta: { id: message.id } }
}

/**
 * Delivers the messages that committed transactions inserted into realtime.messages, in commit order (the order of
 * their notifications) and each transaction's in insertion order, to the channels joined to `realtime:<topic>` of the
 * same kind: a private message to private channels whose select policies admitted broadcasts, a public one to public
 * channels. The transactions notified while a batch was being delivered are taken together in the next, so that a
 * burst costs a statement per batch, not per transaction. Channels are found by topic, so a message costs its own
 * topic's channels only. Sockets are only written to, never awaited.
 */
export class BroadcastDispatcher {
  private readonly pending: string[] = []
  private running: Promise<void> | null = null

  /**
   * `gatherMs`: how long a drain waits for more transactions before taking them, where every take is a statement the
   * API's requests wait for (PGlite's one connection).
   */
  constructor(
    private readonly db: Database,
    private readonly hub: Hub,
    private readonly gatherMs = 0,
  ) {}

  notify(txid: string): void {
    if (!/^\d{1,19}$/.test(txid)) return
    this.pending.push(txid)
    this.running ??= this.drain()
  }

  /** Resolves once every notification received so far has been handled. */
  async drained(): Promise<void> {
    await this.running
  }

  private async drain(): Promise<void> {
    if (this.gatherMs > 0) await new Promise((resolve) => setTimeout(resolve, this.gatherMs))
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, BATCH_SIZE)
      try {
        await this.process(batch)
      } catch (error) {
        console.error('[realtime] delivering a broadcast failed:', error)
      }
    }
    this.running = null
  }

  private async process(txids: string[]): Promise<void> {
    const rows = await takeBroadcasts(this.db, txids)
    if (this.hub.empty || rows.length === 0) return
    const commitOrder = new Map(txids.map((txid, index) => [txid, index]))
    rows.sort((a, b) => commitOrder.get(a.txid)! - commitOrder.get(b.txid)! || compareIds(a.queueId, b.queueId))
    for (let start = 0; start < rows.length; start += CHUNK_SIZE) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve))
      for (const row of rows.slice(start, start + CHUNK_SIZE)) this.deliver(row)
    }
  }

  /** Hosted Realtime drops a message without a topic, an event or a payload. */
  private deliver(row: BroadcastRow): void {
    const { id, topic, event, payload } = row
    if (topic === null || event === null || payload === null || payload === undefined) return
    const frame = broadcastFrame({ id, event, payload })
    const isPrivate = row.private === true
    for (const channel of this.hub.onTopic(`realtime:${topic}`)) {
      if (channel.isPrivate === isPrivate && channel.receivesBroadcasts && channel.authorized) channel.deliver('broadcast', frame)
    }
  }
}

/** Two bigserial ids as decimal text, numerically. */
const compareIds = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
