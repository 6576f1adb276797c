/**
 * A light Realtime client for the bench: one WebSocket speaking Phoenix's protocol (vsn 2.0.0, as realtime-js),
 * joining private topics as the SPA does (src/lib/realtime.ts: `channel(topic, { config: { private: true } })`),
 * heartbeating and noting when each 'broadcast' frame arrived, without a supabase-js client per connection: ten
 * thousand of these hold tens of megabytes, not gigabytes.
 */
import WebSocket from 'ws'

/** A clock shared by the bench's processes on one machine: milliseconds since the epoch, sub-millisecond. */
export const now = () => performance.timeOrigin + performance.now()

/** realtime-js heartbeats every 25 s; the server closes a socket silent for 60 s. */
export const HEARTBEAT_MS = 25_000

type Frame = [joinRef: string | null, ref: string | null, topic: string, event: string, payload: unknown]

export interface Receipt {
  /** The topic without its `realtime:` prefix, e.g. user:<id>. */
  topic: string
  event: string
  /** now() when the frame was read. */
  at: number
}

/** The join payload realtime-js sends for a private channel with no presence and no postgres_changes. */
function joinPayload(token: string) {
  return {
    config: { broadcast: { ack: false, self: false }, presence: { key: '', enabled: false }, postgres_changes: [], private: true },
    access_token: token,
  }
}

export class LiveSocket {
  private readonly ws: WebSocket
  private ref = 0
  private readonly replies = new Map<string, (payload: { status?: string; response?: unknown }) => void>()
  lastHeartbeat = now()

  private constructor(ws: WebSocket, onReceipt: (receipt: Receipt) => void) {
    this.ws = ws
    ws.on('message', (data) => {
      const at = now()
      let frame: Frame
      try {
        frame = JSON.parse(String(data)) as Frame
      } catch {
        return
      }
      const [, ref, topic, event, payload] = frame
      if (event === 'phx_reply' && ref !== null) {
        this.replies.get(ref)?.(payload as { status?: string; response?: unknown })
        this.replies.delete(ref)
        return
      }
      if (event === 'broadcast') {
        const inner = payload as { event?: string } | null
        onReceipt({ topic: topic.replace(/^realtime:/, ''), event: inner?.event ?? '', at })
      }
    })
  }

  /** Opens a socket to the backend's /realtime/v1/websocket with the anon key, as supabase-js does. */
  static open(backendUrl: string, apiKey: string, onReceipt: (receipt: Receipt) => void): Promise<LiveSocket> {
    const url = `${backendUrl.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(apiKey)}&vsn=2.0.0`
    const ws = new WebSocket(url, { perMessageDeflate: false })
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        ws.off('error', reject)
        // A socket that fails later is counted as closed by the caller; it must not crash the process.
        ws.on('error', () => undefined)
        resolve(new LiveSocket(ws, onReceipt))
      })
      ws.once('error', reject)
    })
  }

  private push(joinRef: string | null, topic: string, event: string, payload: unknown): Promise<{ status?: string; response?: unknown }> {
    const ref = String(++this.ref)
    return new Promise((resolve) => {
      this.replies.set(ref, resolve)
      this.ws.send(JSON.stringify([joinRef, ref, topic, event, payload] satisfies Frame))
    })
  }

  /** Joins a private topic (without `realtime:`) under the token; rejects with the server's reason when refused. */
  async join(topic: string, token: string, timeoutMs = 30_000): Promise<void> {
    const joinRef = String(this.ref + 1)
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`join of ${topic} timed out`)), timeoutMs)
    })
    try {
      const reply = await Promise.race([this.push(joinRef, `realtime:${topic}`, 'phx_join', joinPayload(token)), timeout])
      if (reply.status !== 'ok') throw new Error(`join of ${topic} refused: ${JSON.stringify(reply.response)}`)
    } finally {
      clearTimeout(timer)
    }
  }

  heartbeat(): void {
    this.lastHeartbeat = now()
    if (this.ws.readyState !== WebSocket.OPEN) return
    // The reply is not awaited: the server answers each heartbeat, and only a silent socket is closed.
    const ref = String(++this.ref)
    this.ws.send(JSON.stringify([null, ref, 'phoenix', 'heartbeat', {}] satisfies Frame))
  }

  get open(): boolean {
    return this.ws.readyState === WebSocket.OPEN
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve()
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve())
      this.ws.close()
      setTimeout(() => {
        this.ws.terminate()
        resolve()
      }, 2_000).unref()
    })
  }
}
