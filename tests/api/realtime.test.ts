import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import type { Database } from '../../supabase/local/database'
import { signJwt } from '../../supabase/local/keys'
import { startLocalServer, type LocalServer } from '../../supabase/local/server'
import { freshDatabase } from '../support/database'
import { DEMO_PASSWORD } from './support/server'
import { withDemoSecondFactor } from '../support/second-factor'

const THOMAS = '00000000-0000-4000-b000-000000000002'
const JULIE = '00000000-0000-4000-a000-000000000001'

type Change = { eventType: string; schema: string; table: string; commit_timestamp: string; new: Record<string, unknown>; old: Record<string, unknown>; errors: unknown }

interface Binding {
  event: '*' | 'INSERT' | 'UPDATE' | 'DELETE'
  schema: string
  table?: string
  filter?: string
}

interface Subscription {
  channel: RealtimeChannel
  changes: Change[]
  system: Array<Record<string, unknown>>
  statuses: string[]
  errors: Array<Error | undefined>
}

let db: Database
let server: LocalServer
const clients: SupabaseClient[] = []

/** Statements the server ran, each with the role its transaction had set (undefined outside a transaction). */
const statements: Array<{ text: string; role: string | undefined }> = []

/** The database as the server sees it, recording what it runs, so that a test can tell as whom a filter ran. */
function recorded(inner: Database): Database {
  return {
    ...inner,
    query: (text, params) => {
      statements.push({ text, role: undefined })
      return inner.query(text, params)
    },
    transaction: (fn) =>
      inner.transaction((tx) => {
        let role: string | undefined
        return fn({
          exec: (text) => tx.exec(text),
          query: (text, params) => {
            if (text.includes("set_config('role', $1")) role = String(params?.[0])
            statements.push({ text, role })
            return tx.query(text, params)
          },
        })
      }),
  }
}

beforeAll(async () => {
  db = await freshDatabase()
  server = await startLocalServer({ db: recorded(db), port: 0 })
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

function client(): SupabaseClient {
  // A demo administrator's or RSSI's sign-in passes their second factor, as in the app.
  const created = withDemoSecondFactor(
    createClient(server.url, server.config.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      // Node 20 has no global WebSocket.
      realtime: { transport: WebSocket as never },
    }),
  )
  clients.push(created)
  return created
}

async function signedIn(email: string): Promise<SupabaseClient> {
  const created = client()
  const { error } = await created.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  if (error) throw error
  return created
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

let channelCount = 0

/** Subscribes with supabase-js and waits until the server has answered the join. */
async function listen(on: SupabaseClient, bindings: Binding[], { wait = 'SUBSCRIBED' }: { wait?: string } = {}): Promise<Subscription> {
  const channel = on.channel(`test-${++channelCount}`)
  const subscription: Subscription = { channel, changes: [], system: [], statuses: [], errors: [] }
  for (const binding of bindings) {
    channel.on('postgres_changes', binding as never, (payload: Change) => subscription.changes.push(payload))
  }
  channel.on('system', {}, (payload: Record<string, unknown>) => subscription.system.push(payload))
  channel.subscribe((status, error) => {
    subscription.statuses.push(status)
    subscription.errors.push(error)
  })
  await waitFor(() => subscription.statuses.includes(wait), `${wait} on ${channel.topic}`)
  if (bindings.length > 0 && wait === 'SUBSCRIBED') await waitFor(() => subscription.system.length > 0, 'the postgres_changes system message')
  return subscription
}

const userRights = (event: Binding['event'] = '*', filter?: string): Binding => ({ event, schema: 'public', table: 'user_rights', filter })

async function applicationId(name: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>('select id from public.applications where name = $1', [name])
  return rows[0]!.id
}

/** The person's rights that may still change, oldest grant first: a completed campaign's rights are frozen. */
async function changeableRightsOf(userId: string): Promise<Array<{ id: string; granted_at: Date }>> {
  const { rows } = await db.query<{ id: string; granted_at: Date }>(
    `select r.id, r.granted_at from public.user_rights r left join public.campaigns c on c.id = r.campaign_id
      where r.user_id = $1 and c.status is distinct from 'completed' and c.status is distinct from 'archived'
      order by r.granted_at, r.role_name`,
    [userId],
  )
  return rows
}

async function rightOf(userId: string): Promise<string> {
  return (await changeableRightsOf(userId))[0]!.id
}

const touch = (rightId: string, justification: string) =>
  db.query('update public.user_rights set justification = $2 where id = $1', [rightId, justification])

/**
 * Proves that `subscription` received nothing for the changes made so far: a change it may read is made
 * after them, and once that one has arrived (delivery is in commit order), nothing earlier can still come.
 */
async function expectNothingBefore(subscription: Subscription, sentinel: () => Promise<unknown>, count = 0): Promise<void> {
  const before = subscription.changes.length
  await sentinel()
  await waitFor(() => subscription.changes.length > before, 'the sentinel change')
  expect(before).toBe(count)
}

describe('postgres_changes delivery', () => {
  it('delivers an insert, an update and a delete in the shape supabase-js parses', async () => {
    const admin = await listen(await signedIn('admin@example.com'), [userRights()])
    const { rows } = await db.query<{ id: string }>(
      `insert into public.user_rights (user_id, application_id, role_name) values ($1, $2, 'Reporter') returning id`,
      [THOMAS, await applicationId('GitLab')],
    )
    const id = rows[0]!.id
    await touch(id, 'Revue du code')
    await db.query('delete from public.user_rights where id = $1', [id])
    await waitFor(() => admin.changes.length === 3, `three changes, got ${JSON.stringify(admin.changes)}`)

    const [insert, update, remove] = admin.changes
    expect(insert).toMatchObject({
      eventType: 'INSERT',
      schema: 'public',
      table: 'user_rights',
      errors: null,
      new: { id, user_id: THOMAS, role_name: 'Reporter', status: 'pending', account_type: 'standard', justification: null },
      old: {},
    })
    expect(new Date(insert!.commit_timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000)
    expect(update).toMatchObject({ eventType: 'UPDATE', new: { id, justification: 'Revue du code' }, old: { id } })
    // Only the primary key of a deleted row, as Supabase sends for tables under row-level security.
    expect(remove).toMatchObject({ eventType: 'DELETE', new: {}, old: { id } })
    expect(Object.keys(remove!.old)).toEqual(['id'])
  })

  it('delivers each row of a statement that changes several, its old key beside its new row, in order', async () => {
    const admin = await listen(await signedIn('admin@example.com'), [userRights()])
    const gitlab = await applicationId('GitLab')
    const { rows } = await db.query<{ id: string; role_name: string }>(
      `insert into public.user_rights (user_id, application_id, role_name)
       select $1, $2, 'Lot ' || n from generate_series(1, 3) as n order by n returning id, role_name`,
      [THOMAS, gitlab],
    )
    await db.query(
      `update public.user_rights set justification = 'Lot revu : ' || role_name where id = any($1::uuid[])`,
      [rows.map((row) => row.id)],
    )
    await db.query('delete from public.user_rights where id = any($1::uuid[])', [rows.map((row) => row.id)])
    await waitFor(() => admin.changes.length === 9, `nine changes, got ${admin.changes.length}`)

    const inserts = admin.changes.slice(0, 3)
    expect(inserts.map((change) => [change.eventType, change.new.role_name])).toEqual(rows.map((row) => ['INSERT', row.role_name]))
    const updates = admin.changes.slice(3, 6)
    for (const update of updates) {
      expect(update.eventType).toBe('UPDATE')
      expect(update.old).toEqual({ id: update.new.id })
      expect(update.new.justification).toBe(`Lot revu : ${update.new.role_name}`)
    }
    expect(new Set(updates.map((update) => update.new.id))).toEqual(new Set(rows.map((row) => row.id)))
    const removals = admin.changes.slice(6)
    expect(removals.map((change) => change.eventType)).toEqual(['DELETE', 'DELETE', 'DELETE'])
    expect(new Set(removals.map((change) => change.old.id))).toEqual(new Set(rows.map((row) => row.id)))
  })

  it('reports the subscription with the system message realtime-js expects', async () => {
    const admin = await listen(await signedIn('admin@example.com'), [userRights()])
    expect(admin.system[0]).toEqual({
      extension: 'postgres_changes',
      status: 'ok',
      message: 'Subscribed to PostgreSQL',
      channel: admin.channel.subTopic,
    })
  })

  it('delivers committed changes only', async () => {
    const admin = await listen(await signedIn('admin@example.com'), [userRights('UPDATE')])
    const right = await rightOf(THOMAS)
    await db
      .transaction(async (tx) => {
        await tx.query('update public.user_rights set justification = $2 where id = $1', [right, 'rolled back'])
        throw new Error('roll back')
      })
      .catch(() => undefined)
    await expectNothingBefore(admin, () => touch(right, 'committed'))
    expect(admin.changes[0]?.new.justification).toBe('committed')
  })

  it('delivers rows far larger than NOTIFY’s 8000-byte payload', async () => {
    const rssi = await listen(await signedIn('rssi@example.com'), [{ event: 'INSERT', schema: 'public', table: 'audit_logs' }])
    const details = { notes: 'x'.repeat(20_000) }
    await db.query(`insert into public.audit_logs (action, resource_type, details) values ('test', 'test', $1)`, [JSON.stringify(details)])
    await waitFor(() => rssi.changes.length === 1, 'the large change')
    expect(rssi.changes[0]?.new.details).toEqual(details)
  })

  it('routes changes to the binding they match, by event', async () => {
    const admin = client()
    await admin.auth.signInWithPassword({ email: 'admin@example.com', password: DEMO_PASSWORD })
    const inserts: Change[] = []
    const updates: Change[] = []
    const channel = admin
      .channel('by-event')
      .on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'user_rights' }, (payload) => inserts.push(payload as never))
      .on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'applications' }, (payload) => updates.push(payload as never))
    const statuses: string[] = []
    channel.subscribe((status) => statuses.push(status))
    await waitFor(() => statuses.includes('SUBSCRIBED'), 'SUBSCRIBED')

    await touch(await rightOf(THOMAS), 'an update nobody listens to')
    await db.query(`update public.applications set description = 'Forge logicielle interne' where name = 'GitLab'`)
    await db.query(`insert into public.user_rights (user_id, application_id, role_name) values ($1, $2, 'Guest')`, [THOMAS, await applicationId('GitLab')])
    await waitFor(() => inserts.length === 1 && updates.length === 1, 'one insert and one update')
    expect(inserts[0]).toMatchObject({ eventType: 'INSERT', table: 'user_rights', new: { role_name: 'Guest' } })
    expect(updates[0]).toMatchObject({ eventType: 'UPDATE', table: 'applications', new: { description: 'Forge logicielle interne' } })
  })
})

describe('what is captured', () => {
  class RolledBack extends Error {}

  /** The tables, of a right's and an application's, whose change the capture queued in a transaction then rolled back. */
  async function captured(rightId: string): Promise<string[]> {
    let tables: string[] = []
    await db
      .transaction(async (tx) => {
        await tx.query(`update public.user_rights set justification = 'captured?' where id = $1`, [rightId])
        await tx.query(`update public.applications set description = 'captured?' where name = 'GitLab'`)
        const { rows } = await tx.query<{ table_name: string }>(
          `select distinct table_name from realtime_local.changes
            where txid = pg_current_xact_id()::text::bigint and table_name in ('user_rights', 'applications') order by 1`,
        )
        tables = rows.map((row) => row.table_name)
        throw new RolledBack()
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error
      })
    return tables
  }

  /** A channel left, or a socket closed, is forgotten once the server has handled it, shortly after. */
  async function capturedOnce(rightId: string, expected: string[]): Promise<void> {
    const deadline = Date.now() + 5000
    let tables = await captured(rightId)
    while (JSON.stringify(tables) !== JSON.stringify(expected) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
      tables = await captured(rightId)
    }
    expect(tables).toEqual(expected)
  }

  it('captures a table’s changes only while a channel listens to them', async () => {
    const right = await rightOf(THOMAS)
    // The previous tests' channels are gone.
    await capturedOnce(right, [])

    const admin = await signedIn('admin@example.com')
    await listen(admin, [{ event: 'UPDATE', schema: 'public', table: 'applications' }])
    expect(await captured(right)).toEqual(['applications'])
    // Another operation on the rights does not capture their updates.
    await listen(admin, [userRights('INSERT')])
    expect(await captured(right)).toEqual(['applications'])
    // A binding on a whole schema captures each of its published tables.
    const rssi = await signedIn('rssi@example.com')
    const everything = await listen(rssi, [{ event: '*', schema: 'public' }])
    expect(await captured(right)).toEqual(['applications', 'user_rights'])

    await rssi.removeChannel(everything.channel)
    await capturedOnce(right, ['applications'])
    admin.realtime.disconnect()
    await capturedOnce(right, [])
  })

  it('delivers the changes of a statement made once the join was answered', async () => {
    const right = await rightOf(JULIE)
    await capturedOnce(right, [])
    const admin = await listen(await signedIn('admin@example.com'), [userRights('UPDATE')])
    await touch(right, 'right after the join')
    await waitFor(() => admin.changes.length === 1, 'the change made right after the join')
    expect(admin.changes[0]?.new).toMatchObject({ id: right, justification: 'right after the join' })
  })
})

describe('filters', () => {
  it('delivers only the rows a filter matches', async () => {
    const admin = await signedIn('admin@example.com')
    const thomasOnly = await listen(admin, [userRights('*', `user_id=eq.${THOMAS}`)])
    const notThomas = await listen(admin, [userRights('*', `user_id=neq.${THOMAS}`)])
    const inList = await listen(admin, [userRights('UPDATE', `justification=in.(alpha,"beta, gamma")`)])
    const twoConditions = await listen(admin, [userRights('UPDATE', `user_id=eq.${JULIE},justification=not.eq.delta`)])

    await touch(await rightOf(JULIE), 'alpha')
    await touch(await rightOf(THOMAS), 'beta, gamma')
    await touch(await rightOf(THOMAS), 'delta')
    await waitFor(() => thomasOnly.changes.length === 2 && notThomas.changes.length === 1 && inList.changes.length === 2, 'filtered changes')
    await waitFor(() => twoConditions.changes.length === 1, 'the two-condition filter')

    expect(thomasOnly.changes.map((change) => change.new.justification)).toEqual(['beta, gamma', 'delta'])
    expect(notThomas.changes.map((change) => change.new.user_id)).toEqual([JULIE])
    expect(inList.changes.map((change) => change.new.justification)).toEqual(['alpha', 'beta, gamma'])
    expect(twoConditions.changes[0]?.new).toMatchObject({ user_id: JULIE, justification: 'alpha' })
  })

  it('compares with the column’s type: lt, lte, gt, gte on timestamps', async () => {
    const admin = await signedIn('admin@example.com')
    const recent = await listen(admin, [userRights('UPDATE', 'granted_at=gte.2024-01-01')])
    const old = await listen(admin, [userRights('UPDATE', 'granted_at=lt.2024-01-01T00:00:00Z')])
    const rows = await changeableRightsOf(JULIE)
    for (const row of rows) await touch(row.id, 'dated')
    const cutoff = Date.parse('2024-01-01T00:00:00Z')
    const expectedRecent = rows.filter((row) => row.granted_at.getTime() >= cutoff).length
    await waitFor(() => recent.changes.length + old.changes.length === rows.length, 'every dated change')
    expect(recent.changes).toHaveLength(expectedRecent)
    expect(expectedRecent).toBeGreaterThan(0)
    expect(old.changes.length).toBeGreaterThan(0)
  })

  it('refuses a subscription to an unknown table or with an impossible filter', async () => {
    const admin = await signedIn('admin@example.com')
    for (const binding of [
      { event: '*', schema: 'public', table: 'no_such_table' },
      userRights('*', 'no_such_column=eq.1'),
      userRights('*', 'user_id=eq.not-a-uuid'),
    ] as Binding[]) {
      const subscription = await listen(admin, [binding])
      expect(subscription.system[0]).toMatchObject({ extension: 'postgres_changes', status: 'error' })
      expect(String(subscription.system[0]?.message)).toContain('Unable to subscribe to changes with given parameters')
    }
  })

  it('accepts only Realtime’s operators and refuses the others with its parse error', async () => {
    const anonymous = client()
    const refused: Array<[string, string]> = [
      ['justification=like.a*', '["like", "a*"]'],
      ['justification=ilike.a*', '["ilike", "a*"]'],
      ['justification=is.null', '["is", "null"]'],
      ['justification=match.^a', '["match", "^a"]'],
      ['justification=imatch.^a', '["imatch", "^a"]'],
      ['justification=isdistinct.a', '["isdistinct", "a"]'],
      ['justification=fts.a', '["fts", "a"]'],
      ['justification=between.1', '["between", "1"]'],
      ['undefined', '["undefined"]'],
      ['user_id=in.1,2', '`in` filter value must be wrapped by parentheses'],
    ]
    for (const [filter, reason] of refused) {
      const subscription = await listen(anonymous, [userRights('*', filter)])
      expect(subscription.system[0], filter).toEqual({
        extension: 'postgres_changes',
        status: 'error',
        message: `Error parsing \`filter\` params: ${reason}`,
        channel: expect.any(String),
      })
    }
    for (const filter of ['user_id=eq.x', 'user_id=neq.x', 'granted_at=lt.2024-01-01', 'granted_at=lte.2024-01-01', 'granted_at=gt.2024-01-01', 'granted_at=gte.2024-01-01', `user_id=in.(${JULIE},${THOMAS})`]) {
      const subscription = await listen(anonymous, [userRights('*', filter.replace('=eq.x', `=eq.${JULIE}`).replace('=neq.x', `=neq.${JULIE}`))])
      expect(subscription.system[0], filter).toMatchObject({ status: 'ok', message: 'Subscribed to PostgreSQL' })
    }
  })

  it('evaluates a filter only on rows its subscriber may read, as that subscriber', async () => {
    const anonymous = await listen(client(), [userRights('UPDATE', `user_id=eq.${THOMAS}`)])
    const user = await listen(await signedIn('user@example.com'), [userRights('UPDATE', `user_id=eq.${JULIE}`)])
    const admin = await listen(await signedIn('admin@example.com'), [userRights('UPDATE')])
    statements.length = 0
    await touch(await rightOf(THOMAS), 'read by the admin only')
    await waitFor(() => admin.changes.length === 1, 'the admin delivery')
    await touch(await rightOf(JULIE), 'Julie’s own')
    await waitFor(() => user.changes.length === 1 && admin.changes.length === 2, 'Julie’s delivery')

    const filterRuns = statements.filter(({ text }) => / as m0\b/.test(text))
    // Only Julie's own row passed her visibility check: one filter run, under her role; none for the anonymous one.
    expect(filterRuns.map(({ role }) => role)).toEqual(['authenticated'])
    expect(anonymous.changes).toHaveLength(0)
    expect(user.changes[0]?.new).toMatchObject({ user_id: JULIE })
  })

  it('holds nothing up when an anonymous subscriber sends a catastrophic pattern', async () => {
    const pattern = String.raw`details=match.^(.*)(.*)(.*)(.*)(.*)\5\4\3\2\1$`
    const attacker = await listen(client(), [{ event: '*', schema: 'public', table: 'audit_logs', filter: pattern }])
    expect(attacker.system[0]).toMatchObject({ status: 'error', message: expect.stringContaining('Error parsing `filter` params: ["match"') })
    const rssi = await listen(await signedIn('rssi@example.com'), [{ event: 'INSERT', schema: 'public', table: 'audit_logs' }])

    // Each audited write is delivered while /auth/v1/health is asked again and again: none of its answers waits.
    const latencies: number[] = []
    let writing = true
    const probe = (async () => {
      while (writing) {
        const started = performance.now()
        const response = await fetch(`${server.url}/auth/v1/health`)
        await response.arrayBuffer()
        latencies.push(performance.now() - started)
      }
    })()
    for (let i = 0; i < 3; i++) await touch(await rightOf(THOMAS), `audited ${'x'.repeat(200)} ${i}`)
    await waitFor(() => rssi.changes.length >= 3, 'the audit rows')
    writing = false
    await probe
    expect(latencies.length).toBeGreaterThan(0)
    // Generous for a loaded machine, far below the seconds one such pattern takes on an audit row.
    expect(Math.max(...latencies)).toBeLessThan(1500)
  })
})

describe('row-level security', () => {
  it('never delivers another person’s rights to user@example.com, nor audit rows', async () => {
    const user = await signedIn('user@example.com')
    const rights = await listen(user, [userRights()])
    const audit = await listen(user, [{ event: '*', schema: 'public', table: 'audit_logs' }])
    const admin = await listen(await signedIn('admin@example.com'), [userRights()])
    const rssi = await listen(await signedIn('rssi@example.com'), [{ event: 'INSERT', schema: 'public', table: 'audit_logs' }])

    // The audit trigger writes an audit row in the same transaction as each change.
    await touch(await rightOf(THOMAS), 'not for Julie')
    await waitFor(() => admin.changes.length === 1 && rssi.changes.length === 1, 'the admin and rssi deliveries')
    expect(rssi.changes[0]?.new).toMatchObject({ resource_type: expect.any(String) })

    const own = await rightOf(JULIE)
    await expectNothingBefore(rights, () => touch(own, 'for Julie'))
    // A second change of her own, so that the audit row of the first has had its turn too.
    await expectNothingBefore(rights, () => touch(own, 'for Julie again'), 1)
    expect(rights.changes.map((change) => change.new.user_id)).toEqual([JULIE, JULIE])
    expect(audit.changes).toHaveLength(0)
  })

  it('follows the policies of other roles: a manager sees their reports’ rights', async () => {
    const manager = await listen(await signedIn('manager@example.com'), [userRights('UPDATE')])
    await touch(await rightOf(THOMAS), 'for Marc')
    await waitFor(() => manager.changes.length === 1, 'the report’s change')
    expect(manager.changes[0]?.new).toMatchObject({ user_id: THOMAS, justification: 'for Marc' })
  })

  it('delivers a delete only to those who could read the deleted row', async () => {
    const user = await listen(await signedIn('user@example.com'), [userRights('DELETE')])
    const admin = await listen(await signedIn('admin@example.com'), [userRights('DELETE')])
    const gitlab = await applicationId('GitLab')
    const insert = async (userId: string) =>
      (await db.query<{ id: string }>(`insert into public.user_rights (user_id, application_id, role_name) values ($1, $2, 'Temp') returning id`, [userId, gitlab]))
        .rows[0]!.id
    const thomasRight = await insert(THOMAS)
    const julieRight = await insert(JULIE)

    await db.query('delete from public.user_rights where id = $1', [thomasRight])
    await expectNothingBefore(user, () => db.query('delete from public.user_rights where id = $1', [julieRight]))
    expect(user.changes[0]).toMatchObject({ eventType: 'DELETE', old: { id: julieRight } })
    await waitFor(() => admin.changes.length === 2, 'both deletes for the admin')
  })

  it('delivers nothing on a protected table to an anonymous subscriber', async () => {
    const anonymous = await listen(client(), [userRights()])
    const admin = await listen(await signedIn('admin@example.com'), [userRights()])
    await touch(await rightOf(THOMAS), 'not for anon')
    await waitFor(() => admin.changes.length === 1, 'the admin delivery')
    await touch(await rightOf(JULIE), 'not for anon either')
    await waitFor(() => admin.changes.length === 2, 'the second admin delivery')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(anonymous.changes).toHaveLength(0)
  })
})

describe('access tokens', () => {
  it('acts under a refreshed token pushed on the channel', async () => {
    const userClient = await signedIn('user@example.com')
    const rights = await listen(userClient, [userRights('UPDATE')])
    const adminClient = await signedIn('admin@example.com')
    const adminToken = (await adminClient.auth.getSession()).data.session!.access_token

    await userClient.realtime.setAuth(adminToken)
    // The push is not acknowledged (as in Realtime); a heartbeat round trip orders it before what follows.
    const heartbeat = new Promise<void>((resolve) => userClient.realtime.onHeartbeat((status) => status === 'ok' && resolve()))
    await userClient.realtime.sendHeartbeat()
    await heartbeat
    await touch(await rightOf(THOMAS), 'seen under the admin token')
    await waitFor(() => rights.changes.length === 1, 'the change under the new token')
    expect(rights.changes[0]?.new.user_id).toBe(THOMAS)
  })

  it('keeps delivering after supabase-js refreshes the session', async () => {
    const userClient = await signedIn('user@example.com')
    const rights = await listen(userClient, [userRights('UPDATE')])
    const { error } = await userClient.auth.refreshSession()
    expect(error).toBeNull()
    await touch(await rightOf(JULIE), 'after refresh')
    await waitFor(() => rights.changes.length === 1, 'the change after refresh')
  })

  it('ends the channel with a system error when the pushed token is invalid or expired', async () => {
    const claims = { role: 'authenticated' as const, sub: JULIE }
    const cases: Array<[string, RegExp]> = [
      ['not-a-jwt', /^Failed to validate JWT signature$/],
      [await signJwt(claims, -30, server.config.jwtSecret), /^Token has expired \d+ seconds ago$/],
    ]
    for (const [token, message] of cases) {
      const userClient = await signedIn('user@example.com')
      const rights = await listen(userClient, [userRights()])
      await userClient.realtime.setAuth(token)
      await waitFor(() => rights.statuses.includes('CLOSED'), 'the channel to close')
      expect(rights.system.at(-1)).toMatchObject({ extension: 'system', status: 'error', message: expect.stringMatching(message) })
    }
  })

  it('refuses to join with an expired token', async () => {
    const expiredClient = client()
    await expiredClient.realtime.setAuth(await signJwt({ role: 'authenticated', sub: JULIE }, -30, server.config.jwtSecret))
    const rights = await listen(expiredClient, [userRights()], { wait: 'CHANNEL_ERROR' })
    expect(rights.errors.find(Boolean)?.message).toMatch(/^Token has expired \d+ seconds ago$/)
  })
})

/** A bare Phoenix client, for what supabase-js does not expose: frames, heartbeats, vsn 1.0.0. */
class RawSocket {
  readonly messages: unknown[] = []
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.messages.push(JSON.parse(data.toString())))
  }

  static async open(query: string): Promise<RawSocket> {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/realtime/v1/websocket?${query}`)
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    return new RawSocket(ws)
  }

  send(frame: unknown): void {
    this.ws.send(JSON.stringify(frame))
  }

  async next(predicate: (message: never) => boolean): Promise<unknown> {
    let found: unknown
    await waitFor(() => (found = this.messages.find((message) => predicate(message as never))) !== undefined, 'a frame')
    return found
  }

  close(): void {
    this.ws.terminate()
  }
}

describe('Phoenix protocol', () => {
  const anonKey = () => server.config.anonKey

  it('answers heartbeats (vsn 2.0.0, array frames)', async () => {
    const socket = await RawSocket.open(`apikey=${anonKey()}&vsn=2.0.0`)
    socket.send([null, '7', 'phoenix', 'heartbeat', {}])
    expect(await socket.next((message: unknown[]) => message[1] === '7')).toEqual([null, '7', 'phoenix', 'phx_reply', { status: 'ok', response: {} }])
    socket.close()
  })

  it('answers the heartbeats supabase-js sends', async () => {
    const realtime = client().realtime
    const statuses: string[] = []
    realtime.onHeartbeat((status) => statuses.push(status))
    realtime.connect()
    await waitFor(() => realtime.isConnected(), 'the socket to open')
    await realtime.sendHeartbeat()
    await waitFor(() => statuses.includes('ok'), 'the heartbeat reply')
    expect(statuses).toEqual(['sent', 'ok'])
  })

  it('speaks vsn 1.0.0 object frames: join, heartbeat, changes and leave', async () => {
    const { data } = await client().auth.signInWithPassword({ email: 'admin@example.com', password: DEMO_PASSWORD })
    const socket = await RawSocket.open(`apikey=${anonKey()}&vsn=1.0.0`)
    const binding = { event: 'UPDATE', schema: 'public', table: 'user_rights', filter: `user_id=eq.${THOMAS}` }
    socket.send({
      topic: 'realtime:v1',
      event: 'phx_join',
      ref: '1',
      join_ref: '1',
      payload: { config: { postgres_changes: [binding] }, access_token: data.session!.access_token },
    })
    const reply = (await socket.next((message: { ref: string }) => message.ref === '1')) as { payload: { status: string; response: { postgres_changes: Array<{ id: number }> } } }
    expect(reply).toMatchObject({ topic: 'realtime:v1', event: 'phx_reply', join_ref: '1', payload: { status: 'ok', response: { postgres_changes: [{ ...binding, id: expect.any(Number) }] } } })
    const id = reply.payload.response.postgres_changes[0]!.id

    socket.send({ topic: 'phoenix', event: 'heartbeat', ref: '2', join_ref: null, payload: {} })
    expect(await socket.next((message: { ref: string }) => message.ref === '2')).toMatchObject({ event: 'phx_reply', payload: { status: 'ok' } })

    await touch(await rightOf(THOMAS), 'over vsn 1')
    const change = (await socket.next((message: { event: string }) => message.event === 'postgres_changes')) as { payload: { ids: number[]; data: Record<string, unknown> } }
    expect(change).toMatchObject({ topic: 'realtime:v1', join_ref: null, ref: null })
    expect(change.payload.ids).toEqual([id])
    expect(change.payload.data).toMatchObject({
      schema: 'public',
      table: 'user_rights',
      type: 'UPDATE',
      record: { user_id: THOMAS, justification: 'over vsn 1' },
      errors: null,
    })
    expect(change.payload.data.columns).toContainEqual({ name: 'id', type: 'uuid' })
    expect(change.payload.data.columns).toContainEqual({ name: 'granted_at', type: 'timestamptz' })

    socket.send({ topic: 'realtime:v1', event: 'phx_leave', ref: '3', join_ref: '1', payload: {} })
    expect(await socket.next((message: { ref: string }) => message.ref === '3')).toMatchObject({ payload: { status: 'ok' } })
    socket.close()
  })

  it('answers an unjoined topic with an error and ignores malformed frames', async () => {
    const socket = await RawSocket.open(`apikey=${anonKey()}&vsn=2.0.0`)
    socket.ws.send('not json')
    socket.ws.send(Buffer.from([1, 2, 3]))
    socket.send([null, '9', 'realtime:nowhere', 'broadcast', {}])
    expect(await socket.next((message: unknown[]) => message[1] === '9')).toEqual([null, '9', 'realtime:nowhere', 'phx_reply', { status: 'error', response: { reason: 'unmatched topic' } }])
    socket.close()
  })

  it('refuses a socket without a valid API key', async () => {
    for (const query of ['vsn=2.0.0', 'apikey=nope&vsn=2.0.0']) {
      const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}/realtime/v1/websocket?${query}`)
      const status = await new Promise<number>((resolve) =>
        ws.on('unexpected-response', (request, response) => {
          request.destroy()
          resolve(response.statusCode ?? 0)
        }),
      )
      expect(status).toBe(401)
    }
  })

  it('relays broadcasts to the other subscribers of the topic', async () => {
    const [sender, receiver] = [client(), client()]
    const received: unknown[] = []
    const statuses: string[] = []
    const sending = sender.channel('room').subscribe((status) => statuses.push(status))
    receiver
      .channel('room')
      .on('broadcast', { event: 'ping' }, (message) => received.push(message))
      .subscribe((status) => statuses.push(status))
    await waitFor(() => statuses.filter((status) => status === 'SUBSCRIBED').length === 2, 'both channels')
    expect(await sending.send({ type: 'broadcast', event: 'ping', payload: { n: 1 } })).toBe('ok')
    await waitFor(() => received.length === 1, 'the broadcast')
    expect(received[0]).toMatchObject({ type: 'broadcast', event: 'ping', payload: { n: 1 } })
  })

  it('keeps delivering to others while one subscriber stops reading', async () => {
    const { data } = await client().auth.signInWithPassword({ email: 'admin@example.com', password: DEMO_PASSWORD })
    const stalled = await RawSocket.open(`apikey=${anonKey()}&vsn=2.0.0`)
    stalled.send(['1', '1', 'realtime:stalled', 'phx_join', { config: { postgres_changes: [userRights()] }, access_token: data.session!.access_token }])
    await stalled.next((message: unknown[]) => message[1] === '1')
    stalled.ws.pause()
    const admin = await listen(await signedIn('admin@example.com'), [userRights()])
    const right = await rightOf(THOMAS)
    for (let i = 0; i < 20; i++) await touch(right, `change ${i}`)
    await waitFor(() => admin.changes.length === 20, 'every change for the reading subscriber')
    stalled.close()
  })
})
