/**
 * The open browsers of the live-updates measure, in a process of their own (started by live-updates.ts): one
 * WebSocket per person, signed in by a token minted with the local backend's development secret (as its auth server
 * signs them: HS256, the same claims), joined to the private topics the SPA joins (src/lib/realtime.ts: the person's
 * own, and admin's or rssi's for those roles), heartbeating every 25 s as realtime-js does, and noting when each
 * broadcast arrived on which topic.
 */
import { randomUUID } from 'node:crypto'
import { DEV_ANON_KEY, signJwt } from '../../../supabase/local/keys'
import { serveHelper } from '../support/ipc'
import { HEARTBEAT_MS, LiveSocket, now, type Receipt } from '../support/phoenix'

export interface Person {
  id: string
  email: string
  role: string
}

export interface OpenInput {
  backendUrl: string
  people: Person[]
  /** Sockets opened and joined at once. */
  concurrency: number
}

export interface OpenResult {
  opened: number
  failed: number
  firstFailure: string | null
  durationMs: number
  /** Sockets open in all, after this call. */
  open: number
}

/** Broadcast frames by topic, their arrival times (now()) in order, since the last take. */
export interface Receipts {
  frames: number
  byTopic: Record<string, number[]>
  /** Frames of another event than 'changed'. */
  otherEvents: number
}

const TOKEN_LIFETIME_S = 6 * 3600

const sockets: LiveSocket[] = []
let byTopic = new Map<string, number[]>()
let frames = 0
let otherEvents = 0

function onReceipt(receipt: Receipt): void {
  frames++
  if (receipt.event !== 'changed') otherEvents++
  const list = byTopic.get(receipt.topic)
  if (list) list.push(receipt.at)
  else byTopic.set(receipt.topic, [receipt.at])
}

/** The topics src/lib/realtime.ts joins for a person (liveTopicsFor). */
const topicsOf = (person: Person) => [`user:${person.id}`, ...(person.role === 'admin' || person.role === 'rssi' ? [person.role] : [])]

async function tokenFor(backendUrl: string, person: Person): Promise<string> {
  return signJwt(
    {
      iss: `${backendUrl}/auth/v1`,
      sub: person.id,
      aud: 'authenticated',
      email: person.email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: {},
      role: 'authenticated',
      // As a session that passed its second factor, which the roles of admin and rssi need for their topics.
      aal: 'aal2',
      amr: [
        { method: 'totp', timestamp: Math.floor(Date.now() / 1000) },
        { method: 'password', timestamp: Math.floor(Date.now() / 1000) },
      ],
      session_id: randomUUID(),
      is_anonymous: false,
    },
    TOKEN_LIFETIME_S,
  )
}

async function openOne(backendUrl: string, person: Person): Promise<void> {
  const token = await tokenFor(backendUrl, person)
  const socket = await LiveSocket.open(backendUrl, DEV_ANON_KEY, onReceipt)
  try {
    for (const topic of topicsOf(person)) await socket.join(topic, token)
  } catch (error) {
    await socket.close()
    throw error
  }
  sockets.push(socket)
}

// One sweep a second heartbeats the sockets whose last one is 25 s old: each socket every 25 s, spread as they opened.
setInterval(() => {
  const due = now() - HEARTBEAT_MS
  for (const socket of sockets) if (socket.lastHeartbeat <= due) socket.heartbeat()
}, 1000)

serveHelper({
  async open(input: OpenInput): Promise<OpenResult> {
    const started = now()
    let next = 0
    let opened = 0
    const failures: string[] = []
    await Promise.all(
      Array.from({ length: Math.max(1, input.concurrency) }, async () => {
        while (next < input.people.length) {
          const person = input.people[next++]!
          try {
            await openOne(input.backendUrl, person)
            opened++
          } catch (error) {
            failures.push(`${person.email}: ${error instanceof Error ? error.message : String(error)}`)
          }
        }
      }),
    )
    return { opened, failed: failures.length, firstFailure: failures[0] ?? null, durationMs: Math.round(now() - started), open: sockets.filter((socket) => socket.open).length }
  },
  /** The broadcasts received since the last take (or clear), then forgets them. */
  take(): Receipts {
    const taken: Receipts = { frames, byTopic: Object.fromEntries(byTopic), otherEvents }
    byTopic = new Map()
    frames = 0
    otherEvents = 0
    return taken
  },
  /** When the last broadcast arrived (now()), and how many since the last take: to wait until deliveries stop. */
  lastReceipt(): { frames: number; at: number | null } {
    let last: number | null = null
    for (const list of byTopic.values()) {
      const at = list[list.length - 1]!
      if (last === null || at > last) last = at
    }
    return { frames, at: last }
  },
  openCount(): number {
    return sockets.filter((socket) => socket.open).length
  },
  async closeAll(): Promise<void> {
    await Promise.all(sockets.splice(0).map((socket) => socket.close()))
  },
})
