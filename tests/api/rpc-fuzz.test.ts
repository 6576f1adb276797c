import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { campaignIds, demo, teamMembers, type DemoRole } from '../db/support/actors'
import { startRestBackend, type RestBackend } from './support/rest'

// Every function of the public schema (read from the catalog, so a new one is fuzzed without being listed here),
// called through the real HTTP API as each role with wrong types, sizes, nulls, missing and unknown arguments, and
// in whatever states the calls before have left the campaigns, rights and people in. No answer may be a 5xx, and
// every error has PostgREST's shape. Seeded: a failure names the request that gave it.

const SEED = 0x33f022
const CALLS_PER_FUNCTION_AND_ROLE = 3
const CONCURRENCY = 4

type Caller = DemoRole | 'anon' | 'service_role'
const CALLERS: Caller[] = ['anon', 'user', 'manager', 'ra', 'admin', 'rssi', 'service_role']

interface Param {
  name: string
  type: string
  optional: boolean
}
interface Routine {
  name: string
  params: Param[]
  volatile: boolean
}

let backend: RestBackend
let routines: Routine[]
let enums: Map<string, string[]>
let sample: { rights: string[]; applications: string[]; delegations: string[]; notifications: string[] }

beforeAll(async () => {
  backend = await startRestBackend()
  const { db } = backend
  const { rows } = await db.query<{ name: string; names: string[] | null; types: string[]; defaults: number; volatile: boolean }>(
    `select p.proname as name, p.proargnames as names, p.provolatile = 'v' as volatile, p.pronargdefaults::int as defaults,
            array(select t::regtype::text from unnest(p.proargtypes::oid[]) with ordinality as a(t, i) order by i) as types
       from pg_proc p
      where p.pronamespace = 'public'::regnamespace and p.prokind = 'f' and p.prorettype <> 'trigger'::regtype
      order by p.proname`,
  )
  routines = rows.map((row) => ({
    name: row.name,
    volatile: row.volatile,
    params: row.types.map((type, i) => ({ name: row.names?.[i] ?? '', type, optional: i >= row.types.length - row.defaults })),
  }))
  const { rows: labels } = await db.query<{ type: string; labels: string[] }>(
    `select t.typname as type, array_agg(e.enumlabel::text order by e.enumsortorder) as labels
       from pg_enum e join pg_type t on t.oid = e.enumtypid
      where t.typnamespace = 'public'::regnamespace group by t.typname`,
  )
  enums = new Map(labels.map((row) => [row.type, row.labels]))
  const ids = async (sql: string) => (await db.query<{ id: string }>(sql)).rows.map((row) => row.id)
  sample = {
    rights: await ids('select id::text from public.user_rights order by id limit 20'),
    applications: await ids('select id::text from public.applications order by id limit 10'),
    delegations: await ids('select id::text from public.review_delegations order by id limit 5').catch(() => []),
    notifications: await ids('select id::text from public.notifications order by id limit 5').catch(() => []),
  }
}, 120_000)
afterAll(() => backend.close())

function mulberry32(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const random = mulberry32(SEED)
const int = (max: number) => Math.floor(random() * max)
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!

const people = () => [...Object.values(demo).map((person) => person.id), ...Object.values(teamMembers)]
const uuids = () => [
  ...Object.values(campaignIds),
  ...people(),
  ...sample.rights,
  ...sample.applications,
  ...sample.delegations,
  ...sample.notifications,
  crypto.randomUUID(),
]
const LONG_TEXT = 'é'.repeat(100_000)
const WRONG = [{}, [], 'not-a-value', -1, 1e308, true, '', '\u0000', LONG_TEXT, { nested: { deeper: [1, 2, 3] } }]

/** A decision or import line, well or badly formed, for the jsonb parameters that take lists of rows. */
function row(): Record<string, unknown> {
  const fields: Record<string, () => unknown> = {
    line: () => pick([2, -1, 'x', null, 1e10]),
    right_id: () => pick([...sample.rights, 'bad', null]),
    decision: () => pick(['approved', 'revoked', 'nope', null, 5]),
    comment: () => pick(['ok', '', LONG_TEXT.slice(0, 5000), null]),
    email: () => pick(['new.person@example.com', demo.user.email, 'not-an-email', '', null]),
    first_name: () => pick(['Ana', '', ' ', null, 'x'.repeat(500)]),
    last_name: () => pick(['Martin', '', null]),
    role: () => pick(['user', 'admin', 'nope', null]),
    manager_email: () => pick([demo.manager.email, 'unknown@example.com', null]),
    name: () => pick(['Appli', '', null, 'x'.repeat(1000)]),
    application: () => pick(['GitLab', 'nope', null]),
    account: () => pick(['jdoe', '', null]),
    role_name: () => pick(['Reporter', '', null]),
    user_id: () => pick([...people(), 'bad', null]),
    status: () => pick(['ok', 'failed', 'nope', null]),
  }
  const out: Record<string, unknown> = {}
  for (const [name, make] of Object.entries(fields)) if (random() < 0.5) out[name] = make()
  return out
}

function rows(): unknown {
  const size = pick([0, 1, 3, 50, 2001])
  return Array.from({ length: size }, row)
}

function validish(type: string): unknown {
  const base = type.replace(/\[\]$/, '')
  if (type.endsWith('[]')) return Array.from({ length: pick([0, 1, 3, 5000]) }, () => validish(base))
  if (enums.has(type)) return pick(enums.get(type)!)
  switch (type) {
    case 'uuid':
      return pick(uuids())
    case 'text':
      return pick(['GitLab', 'Thomas', 'a%_\\', '', 'Europe/Paris', 'Mars/Olympus', 'manager', 'privileged', 'leaver', 'mine', 'team', '漢字', LONG_TEXT])
    case 'integer':
    case 'bigint':
      return pick([0, 1, 10, 100, -5, 2147483648, 1000000])
    case 'boolean':
      return pick([true, false])
    case 'date':
      return pick(['2026-01-01', '2026-12-31', '1900-01-01', '9999-12-31', 'infinity', '2026-02-30'])
    case 'timestamp with time zone':
      return pick([new Date().toISOString(), '2026-01-01T00:00:00Z', '2100-01-01T00:00:00Z', 'infinity', '-infinity', '1970-01-01'])
    case 'jsonb':
    case 'json':
      return pick([rows(), row(), {}, [], 'text', 5, { rows: rows() }])
    default:
      return pick(['x', 1, null])
  }
}

function argumentValue(param: Param): unknown {
  const roll = random()
  if (roll < 0.6) return validish(param.type)
  if (roll < 0.8) return pick(WRONG)
  return null
}

function callArguments(routine: Routine): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  for (const param of routine.params) {
    if (param.name === '') continue
    // Leave out an optional argument now and then, and a required one rarely (PGRST202).
    if (random() < (param.optional ? 0.3 : 0.05)) continue
    args[param.name] = argumentValue(param)
  }
  if (random() < 0.05) args.p_unknown = 1
  return args
}

async function authorization(caller: Caller): Promise<string> {
  if (caller === 'anon') return backend.server.config.anonKey
  if (caller === 'service_role') return backend.server.config.serviceRoleKey
  return backend.token(caller)
}

interface Outcome {
  request: string
  status: number
  body: string
}

async function call(caller: Caller, routine: Routine): Promise<Outcome> {
  const args = callArguments(routine)
  // A GET's arguments go in the URL, which Node caps with the headers at 16 KB: long texts go in POST bodies only.
  const asGet =
    !routine.volatile &&
    random() < 0.3 &&
    Object.values(args).every((value) => value === null || (typeof value !== 'object' && String(value).length < 1000))
  const headers: Record<string, string> = { Authorization: `Bearer ${await authorization(caller)}` }
  let path = `/rpc/${routine.name}`
  const init: RequestInit & { headers: Record<string, string> } = { method: asGet ? 'GET' : 'POST', headers }
  if (asGet) {
    path += `?${new URLSearchParams(Object.entries(args).map(([name, value]) => [name, String(value)]))}`
  } else {
    headers['Content-Type'] = 'application/json'
    init.body = JSON.stringify(args)
  }
  const request = `${caller} ${init.method} ${path.slice(0, 200)} ${String(init.body ?? '').slice(0, 300)}`
  try {
    const response = await backend.rest(path, init).catch((error: unknown) => {
      // The test shares its event loop with the server: a socket the server just closed as idle may be picked for a
      // GET, which a browser would send again, as here.
      if (init.method === 'GET') return backend.rest(path, init)
      throw error
    })
    return { request, status: response.status, body: await response.text() }
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause
    return { request, status: 599, body: `no answer: ${(error as Error).message} (${cause?.message ?? ''})` }
  }
}

/** What is wrong with an answer, or undefined: no 5xx, and an error is PostgREST's four keys. */
function problem({ status, body }: Outcome): string | undefined {
  if (status >= 500) return `${status} ${body.slice(0, 300)}`
  if (status < 400) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return `${status} with a body that is not JSON: ${body.slice(0, 200)}`
  }
  const keys = typeof parsed === 'object' && parsed !== null ? Object.keys(parsed).sort().join() : ''
  return keys === 'code,details,hint,message' ? undefined : `${status} not in PostgREST's shape: ${body.slice(0, 200)}`
}

describe('every RPC of the public schema', () => {
  it('answers every caller’s wrong, missing, oversized and null arguments with a 4xx in PostgREST’s shape, never a 5xx', async () => {
    expect(routines.length).toBeGreaterThan(40)
    const jobs: Array<() => Promise<Outcome>> = []
    for (const routine of routines) {
      for (const caller of CALLERS) {
        for (let i = 0; i < CALLS_PER_FUNCTION_AND_ROLE; i++) jobs.push(() => call(caller, routine))
      }
    }
    // Shuffled, so that each function meets the states the others leave.
    for (let i = jobs.length - 1; i > 0; i--) {
      const j = int(i + 1)
      ;[jobs[i], jobs[j]] = [jobs[j]!, jobs[i]!]
    }
    const problems: string[] = []
    const statuses = new Map<number, number>()
    let next = 0
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < jobs.length) {
          const outcome = await jobs[next++]!()
          statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1)
          const wrong = problem(outcome)
          if (wrong) problems.push(`${outcome.request}\n  → ${wrong}`)
        }
      }),
    )
    expect(problems).toEqual([])
    // The fuzz reaches the functions' bodies, not only the API's checks: some calls succeed.
    expect((statuses.get(200) ?? 0) + (statuses.get(204) ?? 0)).toBeGreaterThan(jobs.length / 20)
  }, 600_000)
})
