import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { Database } from '../../supabase/local/database'
import { openPgliteThread } from '../../supabase/local/pglite-thread'
import { startLocalServer, type LocalServer } from '../../supabase/local/server'
import { freshDatabase } from '../support/database'
import { DEMO_PASSWORD } from './support/server'

// A runaway statement holds nothing but itself: on PostgreSQL each API statement runs under its role's timeout as
// hosted (authenticated 8 s, or a called function's own setting) and answers PostgREST's 57014 (500); on PGlite's
// thread, the server's own, a statement past that timeout ends the thread, answers the same, and the statements
// waiting behind it run on a new thread at once. On PGlite the catastrophic pattern is refused before it runs. Either
// way /auth/v1/health, asked again and again meanwhile, answers at once.

const CATASTROPHIC = String.raw`^(.*)(.*)(.*)(.*)(.*)\5\4\3\2\1$`
const THOMAS = '00000000-0000-4000-b000-000000000002'

let db: Database
let server: LocalServer
let adminToken: string

beforeAll(async () => {
  db = await freshDatabase()
  // A text on which the pattern backtracks for minutes (20 s cut short at 121 characters on PostgreSQL 15).
  await db.query('update public.users set department = $2 where id = $1', [THOMAS, `${'a'.repeat(120)}b`])
  // A function with its own timeout, which PostgREST applies to the call instead of the role's.
  await db.exec(`create function public.timeout_probe(seconds float8) returns void language sql
                   set statement_timeout = '1s' as $$ select pg_sleep(seconds) $$;
                 grant execute on function public.timeout_probe(float8) to authenticated;
                 create function public.sleep_probe(seconds float8) returns void language sql as $$ select pg_sleep(seconds) $$;
                 grant execute on function public.sleep_probe(float8) to anon, service_role`)
  server = await startLocalServer({ db, port: 0 })
  adminToken = await adminAccessToken(server)
}, 60_000)

async function adminAccessToken(on: LocalServer): Promise<string> {
  const response = await fetch(`${on.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: on.config.anonKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: DEMO_PASSWORD }),
  })
  return ((await response.json()) as { access_token: string }).access_token
}

afterAll(async () => {
  await server.close()
  await db.close()
})

/** Runs `request` while /auth/v1/health is asked in a loop; returns its answer, its time and the slowest health answer. */
async function whileProbingHealth(request: () => Promise<Response>, on = server) {
  let running = true
  const latencies: number[] = []
  const probe = (async () => {
    while (running) {
      const started = performance.now()
      await (await fetch(`${on.url}/auth/v1/health`)).arrayBuffer()
      latencies.push(performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  })()
  const started = performance.now()
  const response = await request()
  const body = (await response.json()) as Record<string, unknown>
  const elapsed = performance.now() - started
  running = false
  await probe
  return { status: response.status, body, elapsed, slowestHealth: Math.max(...latencies), probes: latencies.length }
}

/** A 3.5 s sleep: the anonymous role is cut after its 3 s, not earlier; the service role's 8 s let it finish. */
async function expectAnonCutServiceRunsPast(on: LocalServer): Promise<void> {
  const call = (key: string) =>
    fetch(`${on.url}/rest/v1/rpc/sleep_probe`, {
      method: 'POST',
      headers: { apikey: key, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ seconds: 3.5 }),
    })
  const started = performance.now()
  const anon = await call(on.config.anonKey)
  expect(anon.status).toBe(500)
  expect(await anon.json()).toMatchObject({ code: '57014' })
  expect(performance.now() - started).toBeGreaterThan(2900)
  expect((await call(on.config.serviceRoleKey)).status).toBe(204)
}

const asAdmin = (path: string, init: RequestInit = {}, on = server, token = adminToken) =>
  fetch(`${on.url}/rest/v1/${path}`, {
    ...init,
    headers: { apikey: on.config.anonKey, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...init.headers },
  })

describe('a runaway statement', () => {
  it('a regular expression filter with the catastrophic pattern holds no other request', async () => {
    const outcome = await whileProbingHealth(() => asAdmin(`users?select=id&department=match.${encodeURIComponent(CATASTROPHIC)}`))
    expect(outcome.probes).toBeGreaterThan(0)
    // Far below the 8 s the statement may take, on a loaded machine too.
    expect(outcome.slowestHealth).toBeLessThan(1500)
    if (db.kind === 'postgres') {
      expect(outcome.status).toBe(500)
      expect(outcome.body).toEqual({ code: '57014', details: null, hint: null, message: 'canceling statement due to statement timeout' })
      expect(outcome.elapsed).toBeGreaterThan(7500)
      expect(outcome.elapsed).toBeLessThan(8000 + 5000)
    } else {
      expect(outcome.status).toBe(400)
      expect(outcome.body).toMatchObject({ code: '2201B', message: expect.stringContaining('back-references') })
      expect(outcome.elapsed).toBeLessThan(1500)
    }
  }, 30_000)

  it('still answers a regular expression without back-references', async () => {
    const response = await asAdmin(`users?select=id&department=match.${encodeURIComponent('^a+b$')}`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([{ id: THOMAS }])
  })

  it('on PGlite, refuses only the patterns whose cost is not about linear in the text', async ({ skip }) => {
    if (db.kind !== 'pglite') skip('PostgreSQL bounds every pattern with its statement timeout')
    const status = async (pattern: string) => (await asAdmin(`users?select=id&department=match.${encodeURIComponent(pattern)}`)).status
    for (const pattern of [CATASTROPHIC, '(a)\\1', 'x(?=a)', '(?<!a)b', '(.{1,255}){1,255}c', 'a{21}', 'a{2,21}', 'x'.repeat(1001)]) {
      expect(await status(pattern), pattern).toBe(400)
    }
    for (const pattern of ['^a+b$', '\\d{4}', 'a{2,20}', 'a{3,}', '\\{300\\}', '[a-z]+@example', '(?:ab)+', 'x'.repeat(1000)]) {
      expect(await status(pattern), pattern).toBe(200)
    }
  })

  it('cuts the anonymous role at 3 s and lets the service role run past it (PostgreSQL)', async ({ skip }) => {
    if (db.kind !== 'postgres') skip('PGlite has no statement timeout')
    await expectAnonCutServiceRunsPast(server)
  }, 30_000)

  it('a function’s own statement_timeout replaces its role’s (PostgreSQL)', async ({ skip }) => {
    if (db.kind !== 'postgres') skip('PGlite has no statement timeout')
    const started = performance.now()
    const cut = await asAdmin('rpc/timeout_probe', { method: 'POST', body: JSON.stringify({ seconds: 3 }) })
    expect(cut.status).toBe(500)
    expect(await cut.json()).toMatchObject({ code: '57014' })
    expect(performance.now() - started).toBeLessThan(2900)
    const quick = await asAdmin('rpc/timeout_probe', { method: 'POST', body: JSON.stringify({ seconds: 0.1 }) })
    expect(quick.status).toBe(204)
  }, 30_000)
})

describe.runIf(inject('databaseTemplate').kind === 'pglite')("a runaway statement on PGlite's thread", () => {
  let threadDb: Database
  let threadServer: LocalServer
  let token: string

  beforeAll(async () => {
    threadDb = (await openPgliteThread({ kind: 'seeded' })).db
    await threadDb.exec(`create function public.spin_probe(seconds float8) returns void language plpgsql
                           set statement_timeout = '1s' as $$
                         declare stop timestamptz := clock_timestamp() + make_interval(secs => seconds);
                         begin while clock_timestamp() < stop loop end loop; end $$;
                         grant execute on function public.spin_probe(float8) to authenticated;
                         create function public.sleep_probe(seconds float8) returns void language sql as $$ select pg_sleep(seconds) $$;
                         grant execute on function public.sleep_probe(float8) to anon, service_role`)
    threadServer = await startLocalServer({ db: threadDb, port: 0 })
    token = await adminAccessToken(threadServer)
  }, 60_000)

  afterAll(async () => {
    await threadServer?.close()
    await threadDb?.close()
  })

  it('refuses the catastrophic pattern before it runs, holding nothing', async () => {
    const outcome = await whileProbingHealth(
      () => asAdmin(`users?select=id&department=match.${encodeURIComponent(CATASTROPHIC)}`, {}, threadServer, token),
      threadServer,
    )
    expect(outcome.status).toBe(400)
    expect(outcome.body).toMatchObject({ code: '2201B' })
    expect(outcome.slowestHealth).toBeLessThan(1500)
  })

  it('cuts a statement at its timeout with 57014, and answers the requests waiting behind it soon after', async () => {
    let other: Promise<{ status: number; elapsed: number }> | undefined
    const outcome = await whileProbingHealth(() => {
      const started = performance.now()
      const runaway = asAdmin('rpc/spin_probe', { method: 'POST', body: JSON.stringify({ seconds: 120 }) }, threadServer, token)
      // Another user's read, sent while the runaway runs: it waits for PGlite, which the runaway holds.
      other = new Promise((resolve) => setTimeout(resolve, 300)).then(async () => {
        const response = await asAdmin('campaigns?select=id&limit=1', {}, threadServer, token)
        await response.arrayBuffer()
        return { status: response.status, elapsed: performance.now() - started }
      })
      return runaway
    }, threadServer)
    expect(outcome.status).toBe(500)
    expect(outcome.body).toEqual({ code: '57014', details: null, hint: null, message: 'canceling statement due to statement timeout' })
    expect(outcome.elapsed).toBeGreaterThan(900)
    // Its timeout (1 s) and a new thread on the same data: seconds on a loaded machine, never the runaway's 120 s.
    const answered = await other!
    expect(answered.status).toBe(200)
    expect(answered.elapsed).toBeLessThan(1000 + 15_000)
    expect(outcome.slowestHealth).toBeLessThan(1500)
  }, 60_000)

  it("cuts the anonymous role at 3 s and lets the service role's 8 s run past it", async () => {
    await expectAnonCutServiceRunsPast(threadServer)
  }, 60_000)
})
