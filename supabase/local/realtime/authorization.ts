import type { Database, Sql } from '../database'
import type { Claims } from '../keys'

/** What the policies on realtime.messages let a private channel's user do on its topic, as hosted Realtime tracks it. */
export interface ChannelAccess {
  broadcastRead: boolean
  presenceRead: boolean
  /** Checked at the channel's first broadcast, then kept until the token changes. */
  broadcastWrite: boolean | undefined
}

/** Who is asking, as hosted Realtime sets it on the connection that checks the policies. */
export interface Requester {
  claims: Claims
  /** The WebSocket upgrade's headers, for request.headers. */
  headers: Record<string, string>
}

const NO_ACCESS: ChannelAccess = { broadcastRead: false, presenceRead: false, broadcastWrite: undefined }

/** The role, JWT claims, topic and headers of the requester, transaction-local, as the policies read them. */
async function actAs(tx: Sql, requester: Requester, subTopic: string): Promise<void> {
  await tx.query(
    `select set_config('role', $1, true), set_config('realtime.topic', $2, true),
            set_config('request.jwt.claims', $3, true), set_config('request.headers', $4, true),
            set_config('statement_timeout', '5s', true)`,
    [requester.claims.role, subTopic, JSON.stringify(requester.claims), JSON.stringify(requester.headers)],
  )
}

/** Runs fn inside a savepoint that is always rolled back: probes leave nothing behind, not even a notification. */
function probe<T>(db: Database, fn: (tx: Sql) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.query('savepoint realtime_probe')
    try {
      return await fn(tx)
    } finally {
      await tx.query('rollback to savepoint realtime_probe')
    }
  })
}

/**
 * Hosted Realtime's read check at a private join: as the server, one broadcast and one presence message of the topic
 * are inserted; then, as the user, the ones the select policies let them read tell what they may receive. A policy
 * that fails counts as a refusal, as hosted answers it.
 */
export async function readAccess(db: Database, requester: Requester, subTopic: string): Promise<ChannelAccess> {
  try {
    return await probe(db, async (tx) => {
      const { rows: probes } = await tx.query<{ id: string; extension: string }>(
        `insert into realtime.messages (topic, extension) values ($1, 'broadcast'), ($1, 'presence') returning id, extension`,
        [subTopic],
      )
      await actAs(tx, requester, subTopic)
      const { rows } = await tx.query<{ extension: string }>(
        'select extension from realtime.messages where topic = $1 and id = any ($2::uuid[])',
        [subTopic, probes.map((row) => row.id)],
      )
      const readable = new Set(rows.map((row) => row.extension))
      return { broadcastRead: readable.has('broadcast'), presenceRead: readable.has('presence'), broadcastWrite: undefined }
    })
  } catch (error) {
    console.warn(`[realtime] read policy check failed on ${subTopic}:`, (error as Error).message)
    return NO_ACCESS
  }
}

/** Hosted Realtime's write check: whether the insert policies let the user insert a broadcast message of the topic. */
export async function broadcastWriteAccess(db: Database, requester: Requester, subTopic: string): Promise<boolean> {
  try {
    return await probe(db, async (tx) => {
      await actAs(tx, requester, subTopic)
      await tx.query(`insert into realtime.messages (topic, extension) values ($1, 'broadcast')`, [subTopic])
      return true
    })
  } catch (error) {
    // 42501: no grant, or a row the policies refuse. Anything else is a failing policy, which refuses too.
    if ((error as { code?: string }).code !== '42501') {
      console.warn(`[realtime] write policy check failed on ${subTopic}:`, (error as Error).message)
    }
    return false
  }
}

/** Hosted Realtime's refusal of a private join that no select policy admits. */
export const unauthorizedReason = (subTopic: string) => `You do not have permissions to read from this Channel topic: ${subTopic}`
