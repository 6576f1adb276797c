import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import type { Database } from '../../supabase/local/database'
import { signJwt } from '../../supabase/local/keys'
import { startLocalServer, type LocalServer } from '../../supabase/local/server'
import { freshDatabase } from '../support/database'
import { DEMO_PASSWORD } from './support/server'

// Broadcast from the database and private channels, through an unmodified supabase-js. The policies below admit only
// topics under these prefixes, so that the app's own policies on realtime.messages (other topics) do not interfere.
const OWN = 'test-broadcast:'
const ROOM = 'test-broadcast-room'
const POLICIES = `
  create policy "test-broadcast read" on realtime.messages for select to authenticated
    using (realtime.topic() = '${OWN}' || (select auth.uid())::text or realtime.topic() = '${ROOM}');
  create policy "test-broadcast write" on realtime.messages for insert to authenticated
    with check (realtime.topic() = '${OWN}' || (select auth.uid())::text);`

interface Message {
  type: string
  event: string
  payload: Record<string, unknown>
  meta?: { id: string }
}

interface Joined {
  channel: RealtimeChannel
  messages: Message[]
  system: Array<Record<string, unknown>>
  statuses: string[]
  errors: Array<Error | undefined>
}

interface User {
  client: SupabaseClient
  id: string
  token: string
}

let db: Database
let server: LocalServer
const clients: SupabaseClient[] = []

beforeAll(async () => {
  db = await freshDatabase()
  await db.exec(POLICIES)
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
  await db.exec(`drop policy "test-broadcast read" on realtime.messages; drop policy "test-broadcast write" on realtime.messages;`)
  await db.close()
})

function client(): SupabaseClient {
  const created = createClient(server.url, server.config.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // Node 20 has no global WebSocket.
    realtime: { transport: WebSocket as never },
  })
  clients.push(created)
  return created
}

async function signedIn(email: string): Promise<User> {
  const created = client()
  const { data, error } = await created.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  if (error) throw error
  return { client: created, id: data.user.id, token: data.session.access_token }
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Joins a channel with supabase-js, collecting every broadcast, and waits for the server's answer. */
async function join(
  on: SupabaseClient,
  topic: string,
  options: { private?: boolean; self?: boolean; ack?: boolean; wait?: string } = {},
): Promise<Joined> {
  const channel = on.channel(topic, { config: { private: options.private ?? false, broadcast: { self: options.self, ack: options.ack } } })
  const joined: Joined = { channel, messages: [], system: [], statuses: [], errors: [] }
  channel.on('broadcast', { event: '*' }, (message) => joined.messages.push(message as Message))
  channel.on('system', {}, (payload: Record<string, unknown>) => joined.system.push(payload))
  channel.subscribe((status, error) => {
    joined.statuses.push(status)
    joined.errors.push(error)
  })
  const wait = options.wait ?? 'SUBSCRIBED'
  await waitFor(() => joined.statuses.includes(wait), `${wait} on ${topic}`)
  return joined
}

const send = (topic: string, event: string, payload: Record<string, unknown>, isPrivate = true) =>
  db.query('select realtime.send($1::jsonb, $2, $3, $4)', [JSON.stringify(payload), event, topic, isPrivate])

/** Proves `joined` received nothing more than `count` messages so far: a later message it does receive comes after. */
async function expectNothingBefore(joined: Joined, topic: string, isPrivate: boolean, count = 0): Promise<void> {
  const before = joined.messages.length
  await send(topic, 'sentinel', {}, isPrivate)
  await waitFor(() => joined.messages.some((message) => message.event === 'sentinel'), `the sentinel on ${topic}`)
  expect(before).toBe(count)
}

describe('private channels', () => {
  it('lets a user join a topic the select policies admit, and refuses another as hosted Realtime does', async () => {
    const [julie, thomas] = [await signedIn('user@example.com'), await signedIn('manager@example.com')]
    const own = await join(julie.client, OWN + julie.id, { private: true })
    expect(own.statuses).toEqual(['SUBSCRIBED'])

    const refused = await join(julie.client, OWN + thomas.id, { private: true, wait: 'CHANNEL_ERROR' })
    expect(refused.errors.find(Boolean)?.message).toBe(`Unauthorized: You do not have permissions to read from this Channel topic: ${OWN}${thomas.id}`)
  })

  it('answers a refused join with a phx_reply error', async () => {
    const julie = await signedIn('user@example.com')
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${server.config.anonKey}&vsn=2.0.0`)
    const frames: unknown[] = []
    ws.on('message', (data) => frames.push(JSON.parse(data.toString())))
    await new Promise((resolve) => ws.once('open', resolve))
    const topic = `realtime:${OWN}someone-else`
    ws.send(JSON.stringify(['1', '1', topic, 'phx_join', { config: { private: true }, access_token: julie.token }]))
    await waitFor(() => frames.length > 0, 'the reply')
    expect(frames[0]).toEqual([
      '1',
      '1',
      topic,
      'phx_reply',
      { status: 'error', response: { reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${OWN}someone-else` } },
    ])
    ws.terminate()
  })

  it('refuses the anonymous role and admits the service role, which bypasses row-level security', async () => {
    await join(client(), OWN + 'anyone', { private: true, wait: 'CHANNEL_ERROR' })
    const service = createClient(server.url, server.config.serviceRoleKey, { realtime: { transport: WebSocket as never }, auth: { persistSession: false } })
    clients.push(service)
    await join(service, OWN + 'anyone', { private: true })
  })
})

describe('broadcast from the database', () => {
  it('delivers a committed realtime.send to the private channels of its topic only', async () => {
    const [julie, thomas] = [await signedIn('user@example.com'), await signedIn('manager@example.com')]
    const own = await join(julie.client, OWN + julie.id, { private: true })
    const other = await join(thomas.client, OWN + thomas.id, { private: true })
    // Another client: supabase-js gives back the channel it already has for a topic.
    const publicOne = await join(client(), OWN + julie.id)

    await send(OWN + julie.id, 'decision', { right: 42 })
    await waitFor(() => own.messages.length === 1, 'the message')
    expect(own.messages[0]).toEqual({ type: 'broadcast', event: 'decision', payload: { right: 42, id: expect.any(String) }, meta: { id: expect.any(String) } })
    expect(own.messages[0]?.meta?.id).toBe(own.messages[0]?.payload.id)
    await expectNothingBefore(other, OWN + thomas.id, true)
    await expectNothingBefore(publicOne, OWN + julie.id, false)
  })

  it('never delivers a message whose transaction rolled back', async () => {
    const julie = await signedIn('user@example.com')
    const own = await join(julie.client, OWN + julie.id, { private: true })
    await db
      .transaction(async (tx) => {
        await tx.query(`select realtime.send('{"n": 1}'::jsonb, 'undone', $1)`, [OWN + julie.id])
        throw new Error('roll back')
      })
      .catch(() => undefined)
    await expectNothingBefore(own, OWN + julie.id, true)
  })

  it('keeps public and private messages apart', async () => {
    const julie = await signedIn('user@example.com')
    const privateOne = await join(julie.client, OWN + julie.id, { private: true })
    const publicOne = await join(client(), OWN + julie.id)
    await send(OWN + julie.id, 'for-public', {}, false)
    await send(OWN + julie.id, 'for-private', {}, true)
    await waitFor(() => publicOne.messages.length === 1 && privateOne.messages.length === 1, 'one message each')
    expect(publicOne.messages[0]?.event).toBe('for-public')
    expect(privateOne.messages[0]?.event).toBe('for-private')
    await expectNothingBefore(privateOne, OWN + julie.id, true, 1)
    await expectNothingBefore(publicOne, OWN + julie.id, false, 1)
  })

  it('sends what realtime.broadcast_changes builds from a row trigger', async () => {
    const julie = await signedIn('user@example.com')
    const own = await join(julie.client, OWN + julie.id, { private: true })
    await db.exec(`
      create table public.test_broadcast_notes (id int primary key, owner uuid not null, body text);
      create function public.test_broadcast_notes_changed() returns trigger language plpgsql security definer as $$
      begin
        perform realtime.broadcast_changes('${OWN}' || coalesce(new.owner, old.owner)::text, tg_op, tg_op, tg_table_name, tg_table_schema, new, old);
        return null;
      end $$;
      create trigger test_broadcast_notes_changed after insert or update or delete on public.test_broadcast_notes
        for each row execute function public.test_broadcast_notes_changed();`)
    try {
      await db.query(`insert into public.test_broadcast_notes values (1, $1, 'draft')`, [julie.id])
      await db.query(`update public.test_broadcast_notes set body = 'final' where id = 1`)
      await db.query(`delete from public.test_broadcast_notes where id = 1`)
      await waitFor(() => own.messages.length === 3, 'three changes')
      const row = (body: string) => ({ id: 1, owner: julie.id, body })
      const common = { schema: 'public', table: 'test_broadcast_notes', id: expect.any(String) }
      expect(own.messages.map(({ event, payload }) => ({ event, payload }))).toEqual([
        { event: 'INSERT', payload: { ...common, operation: 'INSERT', record: row('draft'), old_record: null } },
        { event: 'UPDATE', payload: { ...common, operation: 'UPDATE', record: row('final'), old_record: row('draft') } },
        { event: 'DELETE', payload: { ...common, operation: 'DELETE', record: null, old_record: row('final') } },
      ])
    } finally {
      await db.exec('drop table public.test_broadcast_notes; drop function public.test_broadcast_notes_changed();')
    }
  })

  it('delivers every message of one statement, in order, and then deletes them', async () => {
    const julie = await signedIn('user@example.com')
    const own = await join(julie.client, OWN + julie.id, { private: true })
    const count = 5000
    await db.query(
      `insert into realtime.messages (topic, extension, event, payload, private)
       select $1, 'broadcast', 'step', jsonb_build_object('n', i), true from generate_series(1, $2::int) as i`,
      [OWN + julie.id, count],
    )
    await waitFor(() => own.messages.length === count, `${count} messages`, 20_000)
    expect(own.messages.map((message) => message.payload.n)).toEqual(Array.from({ length: count }, (_, i) => i + 1))
    await expectNothingBefore(own, OWN + julie.id, true, count)
    const remaining = async () =>
      Number((await db.query<{ n: string }>('select count(*) as n from realtime.messages where topic = $1', [OWN + julie.id])).rows[0]?.n)
    const deadline = Date.now() + 5000
    while ((await remaining()) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await remaining()).toBe(0)
  })

  it('runs realtime.send as its caller: the insert policies decide, and a refusal only warns', async () => {
    const julie = await signedIn('user@example.com')
    const own = await join(julie.client, OWN + julie.id, { private: true })
    const claims = JSON.stringify({ role: 'authenticated', sub: julie.id })
    const { rows } = await db.transaction(async (tx) => {
      await tx.query(`select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)`, [claims])
      await tx.query(`select realtime.send('{}'::jsonb, 'refused', $1)`, [`${OWN}someone-else`])
      await tx.query(`select realtime.send('{}'::jsonb, 'allowed', $1)`, [OWN + julie.id])
      return tx.query<{ ok: number }>('select 1 as ok')
    })
    expect(rows).toEqual([{ ok: 1 }])
    await waitFor(() => own.messages.length === 1, 'the allowed message')
    expect(own.messages[0]?.event).toBe('allowed')
  })
})

describe('client broadcast', () => {
  it('relays on a private channel when the insert policies allow it, to private channels only', async () => {
    const julie = await signedIn('user@example.com')
    const sender = await join(julie.client, OWN + julie.id, { private: true, self: true, ack: true })
    const publicOne = await join(client(), OWN + julie.id)
    expect(await sender.channel.send({ type: 'broadcast', event: 'ping', payload: { n: 1 } })).toBe('ok')
    await waitFor(() => sender.messages.length === 1, 'the broadcast to self')
    expect(sender.messages[0]).toMatchObject({ type: 'broadcast', event: 'ping', payload: { n: 1 } })
    await expectNothingBefore(publicOne, OWN + julie.id, false)
  })

  it('drops without a reply a broadcast the insert policies refuse', async () => {
    const [julie, thomas] = [await signedIn('user@example.com'), await signedIn('manager@example.com')]
    const listener = await join(thomas.client, ROOM, { private: true })
    const sender = await join(julie.client, ROOM, { private: true, ack: true })
    expect(await sender.channel.send({ type: 'broadcast', event: 'ping', payload: {} }, { timeout: 500 })).toBe('timed out')
    await expectNothingBefore(listener, ROOM, true)
  })

  it('keeps a public channel from reaching the private channels of its topic', async () => {
    const julie = await signedIn('user@example.com')
    const privateOne = await join(julie.client, OWN + julie.id, { private: true })
    const publicOne = await join(client(), OWN + julie.id, { ack: true })
    const publicOther = await join(client(), OWN + julie.id)
    expect(await publicOne.channel.send({ type: 'broadcast', event: 'ping', payload: {} })).toBe('ok')
    await waitFor(() => publicOther.messages.length === 1, 'the public broadcast')
    await expectNothingBefore(privateOne, OWN + julie.id, true)
  })
})

describe('access tokens on private channels', () => {
  it('ends the channel when a new token may no longer read its topic', async () => {
    const [julie, thomas] = [await signedIn('user@example.com'), await signedIn('manager@example.com')]
    const own = await join(julie.client, OWN + julie.id, { private: true })
    await julie.client.realtime.setAuth(thomas.token)
    await waitFor(() => own.statuses.includes('CLOSED'), 'the channel to close')
    expect(own.system.at(-1)).toMatchObject({
      extension: 'system',
      status: 'error',
      message: `You do not have permissions to read from this Channel topic: ${OWN}${julie.id}`,
    })
  })

  it('stops delivering when the token expires', async () => {
    const julie = await signedIn('user@example.com')
    const short = client()
    await short.realtime.setAuth(await signJwt({ role: 'authenticated', sub: julie.id }, 2, server.config.jwtSecret))
    const own = await join(short, OWN + julie.id, { private: true })
    await waitFor(() => own.statuses.includes('CLOSED'), 'the channel to close at expiry', 6000)
    expect(own.system.at(-1)).toMatchObject({ status: 'error', message: expect.stringMatching(/^Token has expired/) })
    const watcher = await join(julie.client, OWN + julie.id, { private: true })
    await send(OWN + julie.id, 'after-expiry', {})
    await waitFor(() => watcher.messages.length === 1, 'the message on a live channel')
    expect(own.messages).toHaveLength(0)
  })
})
