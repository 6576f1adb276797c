import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import WebSocket from 'ws'
import { DEV_ANON_KEY, DEV_SERVICE_ROLE_KEY } from '../../../supabase/local/keys'
import { passDemoSecondFactor } from '../../support/second-factor'
import type { Database } from '../../../src/lib/database.types'
import { DEMO_PASSWORD } from './browser'

export type Api = SupabaseClient<Database>

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }

/** What supabase-js reads of a response (postgrest-js and auth-js): status, ok, a header, the body as text or JSON. */
class BenchResponse {
  readonly ok: boolean
  readonly headers: { get(name: string): string | null; has(name: string): boolean }

  constructor(
    readonly status: number,
    readonly statusText: string,
    raw: IncomingHttpHeaders,
    private readonly body: string,
  ) {
    this.ok = status >= 200 && status < 300
    const value = (name: string) => {
      const found = raw[name.toLowerCase()]
      return found === undefined ? null : Array.isArray(found) ? found.join(', ') : found
    }
    this.headers = { get: value, has: (name) => value(name) !== null }
  }

  async text() {
    return this.body
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.body)
  }
}

/**
 * The bench's clients stand for browsers, each on a machine of its own, whose fetch is native code; here they share
 * the 2 cores with the server and the database they measure. So supabase-js gets a fetch that only sends the request it
 * built over a keep-alive connection and hands back the body: per decision, the reviewers' process spent 1.0-1.3 ms of
 * CPU with Node's fetch (undici), 0.9 ms with node-fetch and 0.4-0.5 ms with this (50 reviewers at ten times the
 * large dataset), CPU the server under test gets back. The bench prints what the reviewers' clients spent (budgets.ts).
 */
function benchFetch(input: string | URL, init?: RequestInit): Promise<BenchResponse> {
  const body = init?.body ?? undefined
  if (body !== undefined && typeof body !== 'string') return Promise.reject(new Error('benchFetch sends string bodies only'))
  const url = new URL(String(input))
  const headers: Record<string, string> = {}
  // supabase-js passes a Headers object; building another from it would cost what this fetch saves.
  const given = init?.headers
  if (given instanceof Headers) given.forEach((value, name) => (headers[name] = value))
  else new Headers(given).forEach((value, name) => (headers[name] = value))
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const request = send(url, { method: init?.method ?? 'GET', headers, agent: url.protocol === 'https:' ? agents.https : agents.http }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () =>
        resolve(new BenchResponse(response.statusCode ?? 0, response.statusMessage ?? '', response.headers, Buffer.concat(chunks).toString('utf8'))),
      )
    })
    request.on('error', reject)
    request.end(body)
  })
}

const OPTIONS = {
  auth: { persistSession: false, autoRefreshToken: false },
  global: { fetch: benchFetch as unknown as typeof fetch },
  // Node 20 has no global WebSocket and supabase-js builds its realtime client anyway; the bench never subscribes.
  realtime: { transport: WebSocket as never },
}

/** A signed-in supabase-js client in Node. */
export async function apiAs(backendUrl: string, email: string): Promise<Api> {
  const client = createClient<Database>(backendUrl, DEV_ANON_KEY, OPTIONS)
  const { error } = await client.auth.signInWithPassword({ email, password: DEMO_PASSWORD })
  if (error) throw new Error(`Sign-in of ${email} failed: ${error.message}`)
  // The demo administrator and RSSI pass their second factor, as in the app.
  await passDemoSecondFactor(client as never, email)
  return client
}

export function serviceApi(backendUrl: string): Api {
  return createClient<Database>(backendUrl, DEV_SERVICE_ROLE_KEY, OPTIONS)
}
