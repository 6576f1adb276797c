import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import type { Database } from '../../supabase/local/database'
import { startLocalServer, type LocalServer } from '../../supabase/local/server'
import { freshDatabase } from '../support/database'
import { DEMO_PASSWORD } from './support/server'
import { withDemoSecondFactor } from '../support/second-factor'

// The app's live topics through an unmodified supabase-js, on the real migrations: who may join which private topic,
// and what a decision announces to whom.
const ACTIVE_CAMPAIGN = '00000000-0000-4000-c000-000000000002'

let db: Database
let server: LocalServer
const clients: SupabaseClient[] = []

beforeAll(async () => {
  db = await freshDatabase()
  server = await startLocalServer({ db, port: 0 })
})
afterEach(async () => {
  for (const client of clients.splice(0)) {
    await client.removeAllChannels()
    client.realtime.disconnect()
  }
})
afterAll(async () => {
  await server.close()
  await db.close()
})

async function signedIn(email: string): Promise<{ client: SupabaseClient; id: string }> {
  // A demo administrator's or RSSI's sign-in passes their second factor, as in the app.
  const client = withDemoSecondFactor(
    createClient(server.url, server.config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
    }),
  )
  clients.push(client)
  const { data, error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  if (error) throw error
  return { client, id: data.user.id }
}

/** Joins a private topic and resolves with how the join ended, and the 'changed' messages received afterwards. */
async function join(client: SupabaseClient, topic: string) {
  const received: unknown[] = []
  const channel = client.channel(topic, { config: { private: true } })
  channel.on('broadcast', { event: 'changed' }, (message: { payload: unknown }) => received.push(message.payload))
  const outcome = await new Promise<{ status: string; error?: string }>((resolve) => {
    channel.subscribe((status, error) => {
      if (status === 'SUBSCRIBED' || status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') resolve({ status, error: error?.message })
    })
  })
  return { outcome, received }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('live topics', () => {
  it('leaves none of the seed’s announcements, sent while no server ran, in realtime.messages', async () => {
    const { rows } = await db.query<{ count: number }>(`select count(*)::int as count from realtime.messages`)
    expect(rows[0]!.count).toBe(0)
  })

  it('lets a person join their own topic, and refuses someone else’s and the administrators’', async () => {
    const julie = await signedIn('user@example.com')
    const manager = await signedIn('manager@example.com')
    expect((await join(julie.client, `user:${julie.id}`)).outcome).toEqual({ status: 'SUBSCRIBED', error: undefined })
    const theirs = await join(julie.client, `user:${manager.id}`)
    expect(theirs.outcome.status).toBe('CHANNEL_ERROR')
    expect(theirs.outcome.error).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: user:${manager.id}`)
    expect((await join(julie.client, 'admin')).outcome.status).toBe('CHANNEL_ERROR')
    expect((await join(julie.client, 'rssi')).outcome.status).toBe('CHANNEL_ERROR')
  })

  it('tells the holder and the admin of a decision, with the kinds that changed and nothing of the right', async () => {
    const julie = await signedIn('user@example.com')
    const admin = await signedIn('admin@example.com')
    const outsider = await signedIn('rssi@example.com')
    const hers = await join(julie.client, `user:${julie.id}`)
    const staff = await join(admin.client, 'admin')
    const other = await join(outsider.client, `user:${outsider.id}`)
    expect([hers.outcome.status, staff.outcome.status, other.outcome.status]).toEqual(['SUBSCRIBED', 'SUBSCRIBED', 'SUBSCRIBED'])

    const { rows } = await db.query<{ id: string }>(
      `select id::text from public.user_rights where user_id = $1 and campaign_id = $2 and status = 'pending' limit 1`,
      [julie.id, ACTIVE_CAMPAIGN],
    )
    // As after a quiet second: the admin topic's last message (the sign-ins' own changes) is not within the second.
    await db.query(`update private.live_throttled_topics set sent_at = '-infinity'`)
    const { error } = await julie.client.rpc('validate_user_right', { right_id: rows[0]!.id, new_status: 'validated_user' })
    expect(error).toBeNull()

    await until(() => hers.received.length > 0 && staff.received.length > 0, 'the holder’s and the admin’s messages')
    expect(hers.received).toContainEqual(expect.objectContaining({ kinds: ['user_rights'] }))
    for (const payload of [...hers.received, ...staff.received]) {
      expect(Object.keys(payload as object).sort()).toEqual(['id', 'kinds'])
    }
    // One message for the admins: the right and the audit trail's entry, with whatever else was held for them.
    expect(staff.received).toHaveLength(1)
    expect(staff.received[0]).toMatchObject({ kinds: expect.arrayContaining(['audit_logs', 'user_rights']) })
    // Neither holder nor reviewer of the right: the RSSI's own topic hears nothing of it (her role's topic does).
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(other.received.filter((payload) => JSON.stringify(payload).includes('user_rights'))).toEqual([])
  })
  it('sends the admin topic a message a second at most while a reviewer decides one right after another', async () => {
    const manager = await signedIn('manager@example.com')
    const admin = await signedIn('admin@example.com')
    const staff = await join(admin.client, 'admin')
    const own = await join(manager.client, `user:${manager.id}`)
    expect([staff.outcome.status, own.outcome.status]).toEqual(['SUBSCRIBED', 'SUBSCRIBED'])
    const { rows } = await db.query<{ id: string }>(
      `select ur.id::text from public.user_rights ur join public.users h on h.id = ur.user_id
        where h.manager_id = $1 and ur.campaign_id = $2 and ur.status = 'pending' limit 8`,
      [manager.id, ACTIVE_CAMPAIGN],
    )
    expect(rows.length).toBeGreaterThanOrEqual(3)
    await db.query(`update private.live_throttled_topics set sent_at = '-infinity'`)
    const started = Date.now()
    for (const { id } of rows) {
      const { error } = await manager.client.rpc('validate_user_right', { right_id: id, new_status: 'validated_manager' })
      expect(error).toBeNull()
    }
    const seconds = Math.ceil((Date.now() - started) / 1000)
    // The reviewer hears of each decision on their own topic; the admins, of the first at once and of the rest later.
    await until(() => own.received.length >= rows.length && staff.received.length >= 1, 'the messages of the decisions')
    expect(staff.received.length).toBeLessThanOrEqual(seconds)
    expect(staff.received[0]).toMatchObject({ kinds: expect.arrayContaining(['audit_logs', 'user_rights']) })
  })
})
