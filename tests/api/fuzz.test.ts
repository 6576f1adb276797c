import http from 'node:http'
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signJwt } from '../../supabase/local/keys'
import { demo } from '../db/support/actors'
import { startRestBackend, type RestBackend } from './support/rest'

// A bounded, seeded fuzz of the local server: thousands of random and malformed requests over /rest/v1 and
// /auth/v1. Every answer must be a client error or a success with a JSON body, never a 5xx, and the server must
// still answer normally afterwards. The seed makes a failure reproducible: rerun and read the logged request.

const SEED = 0x5eed2026
const REQUESTS = 3000
const CONCURRENCY = 8

let backend: RestBackend
beforeAll(async () => {
  backend = await startRestBackend()
})
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
const chance = (p: number) => random() < p
const int = (max: number) => Math.floor(random() * max)
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!

const TABLES = ['users', 'applications', 'campaigns', 'user_rights', 'right_decisions', 'control_rules', 'audit_logs', 'nope', 'Users', 'rpc', 'a b', '"users"', 'ü', '']
const FUNCTIONS = ['validate_user_right', 'create_application', 'update_application', 'delete_application', 'update_user_id', 'import_user_rights', 'nope', 'users', '']
const COLUMNS = ['id', 'email', 'first_name', 'role', 'manager_id', 'name', 'status', 'user_id', 'application_id', 'parameters', 'details', 'created_at', 'ra_id', 'enabled', 'nope', 'count', '*', 'a-b', '"q,uo)ted"', 'é']
const RELATIONS = ['users', 'applications', 'user_rights', 'campaigns', 'manager_id', 'ra_id', 'right_decisions', 'nope', 'applications_ra_id_fkey', 'control_rules']
const OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'in', 'is', 'isdistinct', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj', 'fts', 'plfts', 'phfts', 'wfts', 'fts(french)', 'eq(any)', 'like(all)', 'nope', '']
const SPECIAL = ['(', ')', ',', '.', ':', '::', '!', '*', '"', '\\', '->', '->>', '{', '}', '[', ']', '%', '&', '=', '+', ' ', "'", ';', '--', 'é', '€', '\u{1F600}', '\u0000', '\u0001']
const VALUES = ['1', '-1', '0', '3.14', '1e400', 'null', 'NULL', 'true', 'unknown', 'not_null', 'abc', '00000000-0000-4000-a000-000000000001', 'not-a-uuid', '(1,2)', '("a,b",c)', '{a,b}', '{"a":1}', '[1,10)', "*a*", '^.*$', '(((', "'; drop table users; --", 'x'.repeat(300), '2026-01-01', '']

function mutate(text: string): string {
  let out = text
  const edits = int(3)
  for (let i = 0; i < edits; i++) {
    const at = int(out.length + 1)
    if (chance(0.6)) out = out.slice(0, at) + pick(SPECIAL) + out.slice(at)
    else out = out.slice(0, at) + out.slice(at + 1 + int(3))
  }
  return out
}

function selectItem(depth: number): string {
  const roll = random()
  if (roll < 0.15) return '*'
  if (roll < 0.55) {
    let item = pick(COLUMNS)
    if (chance(0.2)) item = `${pick(['a', 'x', 'alias', '"al ias"'])}:${item}`
    if (chance(0.2)) item += pick(['->a', '->>b', '->0', '->-1', '->a->>b'])
    if (chance(0.2)) item += `::${pick(['text', 'int', 'integer', 'double precision', 'jsonb', 'nosuchtype', 'user_role'])}`
    if (chance(0.05)) item += pick(['.sum()', '.count()', '.max()'])
    return item
  }
  if (depth > 3) return pick(COLUMNS)
  const children = Array.from({ length: 1 + int(3) }, () => selectItem(depth + 1)).join(',')
  const prefix = chance(0.15) ? '...' : chance(0.3) ? `${pick(['r', 'owner', 'x'])}:` : ''
  const hint = chance(0.3) ? `!${pick(['inner', 'left', 'ra_id', 'user_id', 'applications_ra_id_fkey', 'nope'])}` : ''
  return `${prefix}${pick(RELATIONS)}${hint}(${children})`
}

function filterValue(): string {
  const op = pick(OPERATORS)
  const negate = chance(0.15) ? 'not.' : ''
  const value = op === 'in' ? `(${Array.from({ length: int(4) }, () => pick(VALUES)).join(',')})` : pick(VALUES)
  return `${negate}${op}.${value}`
}

function logicTree(depth: number): string {
  const parts = Array.from({ length: 1 + int(3) }, () =>
    depth < 3 && chance(0.3) ? `${pick(['and', 'or', 'not.and', 'not.or'])}${logicTree(depth + 1)}` : `${pick(COLUMNS)}.${filterValue()}`,
  )
  return `(${parts.join(',')})`
}

/** Percent-encodes, except that now and then a raw or broken escape goes through as it is. */
function encode(text: string): string {
  if (chance(0.05)) return pick(['%', '%ZZ', '%FF%FE', '%C3%28', '%ED%A0%80', '%00', '%E2%82']) + encodeURIComponent(text)
  try {
    return encodeURIComponent(text)
  } catch {
    return encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '?'))
  }
}

function queryString(): string {
  const params: Array<[string, string]> = []
  if (chance(0.7)) params.push(['select', chance(0.3) ? mutate(selectItem(0)) : Array.from({ length: 1 + int(4) }, () => selectItem(0)).join(',')])
  for (let i = int(4); i > 0; i--) {
    const path = chance(0.2) ? `${pick(RELATIONS)}.` : ''
    params.push([`${path}${pick(COLUMNS)}${chance(0.1) ? '->>a' : ''}`, chance(0.2) ? mutate(filterValue()) : filterValue()])
  }
  if (chance(0.25)) params.push([pick(['or', 'and', 'not.or', 'users.or']), chance(0.2) ? mutate(logicTree(0)) : logicTree(0)])
  if (chance(0.25)) params.push([pick(['order', 'users.order']), `${pick(COLUMNS)}${pick(['', '.asc', '.desc', '.desc.nullslast', '.nullsfirst', '.sideways'])}${chance(0.2) ? `,${pick(RELATIONS)}(${pick(COLUMNS)})` : ''}`])
  if (chance(0.2)) params.push([pick(['limit', 'offset', 'users.limit']), pick(['0', '1', '5', '-1', '1000000', '99999999999999999999', 'abc', ''])])
  if (chance(0.1)) params.push([pick(['columns', 'on_conflict']), pick(['id', '"id","name"', 'nope', ',', 'id,'])])
  if (chance(0.05)) params.push([mutate('weird'), mutate('value')])
  return params.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&')
}

interface FuzzRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: Buffer
}

let tokens: Record<string, string> = {}

function restRequest(): FuzzRequest {
  const rpc = chance(0.25)
  const method = rpc ? pick(['POST', 'POST', 'GET', 'HEAD', 'PATCH']) : pick(['GET', 'GET', 'GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS'])
  const resource = rpc ? `rpc/${encode(pick(FUNCTIONS))}` : chance(0.05) ? `${encode(pick(TABLES))}/${encode(pick(TABLES))}` : encode(pick(TABLES))
  return { method, path: `/rest/v1/${resource}?${queryString()}`, headers: commonHeaders(), ...(method === 'GET' && !chance(0.05) ? {} : { body: payload() }) }
}

function authRequest(): FuzzRequest {
  const endpoint = pick([
    'token?grant_type=password',
    'token?grant_type=refresh_token',
    'token?grant_type=nope',
    'token',
    'user',
    'logout',
    'logout?scope=others',
    'logout?scope=nope',
    'settings',
    'health',
    'authorize?provider=google&redirect_to=http%3A%2F%2F127.0.0.1%3A5173',
    'authorize',
    'signup',
    'recover',
    'verify',
    'otp',
    'admin/users',
    'nope',
  ])
  return { method: pick(['GET', 'POST', 'POST', 'PUT', 'DELETE']), path: `/auth/v1/${endpoint}`, headers: commonHeaders(), body: payload() }
}

function commonHeaders(): Record<string, string> {
  const { anonKey, serviceRoleKey } = backend.server.config
  const headers: Record<string, string> = {}
  const apikey = random()
  if (apikey < 0.8) headers.apikey = anonKey
  else if (apikey < 0.9) headers.apikey = serviceRoleKey
  else if (apikey < 0.95) headers.apikey = mutate(anonKey)
  const auth = random()
  if (auth < 0.3) headers.Authorization = `Bearer ${anonKey}`
  else if (auth < 0.45) headers.Authorization = `Bearer ${serviceRoleKey}`
  else if (auth < 0.75) headers.Authorization = `Bearer ${pick(Object.values(tokens))}`
  else if (auth < 0.9) headers.Authorization = pick(['Bearer', 'Bearer ', 'Bearer a.b.c', 'Bearer garbage', 'Basic dXNlcjpwdw==', `Bearer ${mutate(anonKey)}`, `bearer ${anonKey}`])
  if (chance(0.4)) headers.Prefer = Array.from({ length: 1 + int(3) }, () => pick(['return=representation', 'return=minimal', 'return=headers-only', 'count=exact', 'count=planned', 'count=estimated', 'resolution=merge-duplicates', 'resolution=ignore-duplicates', 'missing=default', 'tx=rollback', 'handling=strict', 'max-affected=1', 'timezone=Europe/Paris', 'timezone=Mars/Base', 'nope', '=', ''])).join(', ')
  if (chance(0.3)) headers.Accept = pick(['application/json', '*/*', 'application/vnd.pgrst.object+json', 'application/vnd.pgrst.array+json;nulls=stripped', 'text/csv', 'application/xml', 'application/vnd.pgrst.plan+json', 'text/*;q=0.5, application/json', ';;', ''])
  if (chance(0.5)) headers['Content-Type'] = pick(['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'text/csv', ''])
  if (chance(0.05)) headers[pick(['Accept-Profile', 'Content-Profile'])] = pick(['public', 'auth', 'private', ''])
  if (chance(0.05)) headers.Range = pick(['0-9', '5-', '9-0', 'items=0-1', 'bytes=1-2', '-'])
  if (chance(0.05)) headers['X-Forwarded-For'] = pick(['203.0.113.1', 'not an ip', '::1, 10.0.0.1', ''])
  if (chance(0.05)) headers['X-Supabase-Api-Version'] = '2024-01-01'
  return headers
}

const invalidUtf8 = [Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), Buffer.from([0xff, 0xfe, 0xfd]), Buffer.from([0xed, 0xa0, 0x80])]
let bigBodies = 2

function jsonValue(depth: number): unknown {
  const roll = random()
  if (roll < 0.25) return pick(VALUES)
  if (roll < 0.35) return random() * 1e6 - 5e5
  if (roll < 0.4) return pick([true, false, null])
  if (depth > 3) return pick(VALUES)
  if (roll < 0.7) {
    return Object.fromEntries(Array.from({ length: int(5) }, () => [pick([...COLUMNS, 'email', 'password', 'refresh_token', 'right_id', 'new_status', 'rows', 'name', 'ra_id', 'bpo_metier_id']), jsonValue(depth + 1)]))
  }
  return Array.from({ length: int(4) }, () => jsonValue(depth + 1))
}

function payload(): Buffer | undefined {
  const roll = random()
  if (roll < 0.1) return undefined
  if (roll < 0.12) return Buffer.alloc(0)
  if (roll < 0.2) return pick(invalidUtf8)
  if (roll < 0.3) return Buffer.from(mutate(JSON.stringify(jsonValue(0)) ?? 'null'))
  if (roll < 0.32) return Buffer.from('['.repeat(2000) + ']'.repeat(2000))
  if (roll < 0.33 && bigBodies > 0) {
    bigBodies--
    return Buffer.alloc(10 * 1024 * 1024 + 10, 0x20)
  }
  if (roll < 0.36) return Buffer.from(JSON.stringify({ email: pick([...Object.values(demo).map((d) => d.email), 'nobody@example.com']), password: pick(['Demo1234!', 'wrong']) }))
  return Buffer.from(JSON.stringify(jsonValue(0)) ?? 'null')
}

function otherRequest(): FuzzRequest {
  const path = pick(['/', '/nowhere', '/rest/v2/users', '/rest', '/auth', '/rest/v1', `/${encode(mutate('rest/v1/users'))}`, '/realtime/v1/websocket', '/realtime/v1/api/broadcast'])
  return { method: pick(['GET', 'POST', 'DELETE', 'OPTIONS']), path, headers: commonHeaders(), body: payload() }
}

interface Answer {
  status: number
  contentType: string
  body: string
}

/** Node refuses control characters and code points above U+00FF in header values; latin-1 bytes get through. */
function headerSafe(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?')]))
}

function send(request: FuzzRequest): Promise<Answer> {
  const url = new URL(backend.url)
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        // Node sends a GET or DELETE body unframed unless told its length.
        headers: { ...headerSafe(request.headers), ...(request.body ? { 'Content-Length': String(request.body.length) } : {}) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks).toString('utf8') }))
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(request.body)
  })
}

function problem(request: FuzzRequest, answer: Answer): string | undefined {
  if (answer.status >= 500 || answer.status < 200) return `status ${answer.status}`
  if (request.method === 'HEAD' || answer.status === 204 || answer.status === 304) return undefined
  // CORS preflights and redirects (the OAuth authorize endpoint) carry no JSON, as on Supabase.
  if (request.method === 'OPTIONS' && answer.status === 200) return undefined
  if (answer.status >= 301 && answer.status <= 308) return undefined
  if (answer.contentType.startsWith('text/csv') && answer.status < 300) return undefined
  try {
    JSON.parse(answer.body)
  } catch {
    return `status ${answer.status} body is not JSON: ${answer.body.slice(0, 200)}`
  }
  if (!answer.contentType.includes('json')) return `content-type ${answer.contentType}`
  return undefined
}

/** Writes raw bytes on a fresh connection and reads everything until the server closes it. */
function sendRaw(bytes: Buffer): Promise<string> {
  const url = new URL(backend.url)
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.end(bytes))
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')))
    socket.on('error', reject)
  })
}

describe('fuzz', () => {
  it('answers requests Node cannot parse with a JSON client error', async () => {
    const requests = [
      'GARBAGE\r\n\r\n',
      `GET /rest/v1/users?select=${'id,'.repeat(10_000)}id HTTP/1.1\r\nHost: x\r\n\r\n`,
      `GET /rest/v1/users HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'POST /rest/v1/users HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n\r\n',
      'GET /rest/v1/users HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'GET /rest/v1/\u00ff\u00fe HTTP/9.9\r\n\r\n',
    ]
    for (const request of requests) {
      const answer = await sendRaw(Buffer.from(request, 'latin1'))
      const [head = '', body = ''] = answer.split('\r\n\r\n')
      expect(head, request.slice(0, 40)).toMatch(/^HTTP\/1\.1 4\d\d /)
      expect(head).toMatch(/content-type: application\/json/i)
      expect(() => JSON.parse(body)).not.toThrow()
    }
  })

  it(`answers ${REQUESTS} random and malformed requests with 2xx-4xx JSON, and keeps serving`, { timeout: 120_000 }, async () => {
    tokens = {
      user: await backend.token('user'),
      admin: await backend.token('admin'),
      manager: await backend.token('manager'),
      expired: await backend.token('rssi', -60),
      forged: await signJwt({ role: 'service_role' }, 60, 'not-the-secret-but-long-enough-to-sign-with'),
    }
    const requests = Array.from({ length: REQUESTS }, () => {
      const roll = random()
      return roll < 0.75 ? restRequest() : roll < 0.95 ? authRequest() : otherRequest()
    })
    const failures: string[] = []
    const statuses = new Map<number, number>()
    let next = 0
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++]!
        const answer = await send(request)
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        const issue = problem(request, answer)
        if (issue) failures.push(`${issue} ← ${request.method} ${request.path.slice(0, 300)} ${JSON.stringify(request.headers).slice(0, 300)}`)
      }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, worker))

    expect(failures.slice(0, 10)).toEqual([])
    const counted = [...statuses.entries()]
    expect(counted.some(([status]) => status >= 200 && status < 300)).toBe(true)
    expect(counted.some(([status]) => status >= 400 && status < 500)).toBe(true)

    const { data, error } = await backend.service().from('users').select('email').eq('role', 'admin').single()
    expect(error).toBeNull()
    expect(data).toEqual({ email: 'admin@example.com' })
  })
})
