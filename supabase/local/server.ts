import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { forwardClientAddress, trustedProxyList } from './client-address'
import type { ApiContext, RouteHandler, ServerConfig } from './context'
import type { Database } from './database'
import { HttpError, header, sendJson, send } from './http'
import { corsHeaders, preflightHeaders } from './cors'
import { DEV_ANON_KEY, DEV_JWT_SECRET, DEV_PUBLISHABLE_KEY, DEV_SECRET_KEY, DEV_SERVICE_ROLE_KEY, DEV_SIGNING_KEY, isApiKey } from './keys'
import { createRestHandler } from './rest/handler'
import { createAuthHandler } from './auth/handler'
import { startRealtime } from './realtime/server'

export const defaultConfig: ServerConfig = {
  jwtSecret: DEV_JWT_SECRET,
  signingKey: DEV_SIGNING_KEY,
  anonKey: DEV_ANON_KEY,
  serviceRoleKey: DEV_SERVICE_ROLE_KEY,
  publishableKey: DEV_PUBLISHABLE_KEY,
  secretKey: DEV_SECRET_KEY,
  siteUrl: 'http://127.0.0.1:5173',
  maxRows: 1000,
  jwtExpirySeconds: 3600,
  signInMaxFailures: 10,
  signInMaxFailuresPerIp: 30,
  signInFailureWindowSeconds: 300,
  refreshTokenReuseIntervalSeconds: 10,
  trustedProxies: [],
}

export interface LocalServer {
  /** The API URL clients use, for example http://127.0.0.1:54321. */
  url: string
  port: number
  config: ServerConfig
  close(): Promise<void>
}

// Endpoints a browser reaches by navigation, without the apikey header (as Supabase's gateway allows).
const OPEN_AUTH_PATHS = new Set(['/authorize', '/callback', '/verify', '/health', '/settings', '/.well-known/jwks.json'])

export async function startLocalServer(options: {
  db: Database
  port?: number
  host?: string
  config?: Partial<ServerConfig>
}): Promise<LocalServer> {
  const config: ServerConfig = { ...defaultConfig, ...options.config }
  const trustedProxies = trustedProxyList(config.trustedProxies)
  const context: ApiContext = { db: options.db, config }
  const rest = await createRestHandler(context)
  const auth = createAuthHandler(context)
  const apis: Array<{ prefix: string; handler: RouteHandler; open?: Set<string> }> = [
    { prefix: '/rest/v1', handler: rest },
    { prefix: '/auth/v1', handler: auth, open: OPEN_AUTH_PATHS },
  ]

  const server = http.createServer((req, res) => {
    void route(req, res).catch((error: unknown) => writeError(req, res, error))
  })
  server.on('clientError', answerUnparsable)

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    forwardClientAddress(req, trustedProxies)
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (req.method === 'OPTIONS') {
      send(res, 200, '', preflightHeaders(req))
      return
    }
    for (const [name, value] of Object.entries(corsHeaders(req))) res.setHeader(name, value)
    const api = apis.find(({ prefix }) => url.pathname === prefix || url.pathname.startsWith(`${prefix}/`))
    if (!api) throw new HttpError(404, { message: 'no Route matched with those values' })
    const path = url.pathname.slice(api.prefix.length) || '/'
    if (!api.open?.has(path)) checkApiKey(req, url, config)
    await api.handler(req, res, { url, path })
  }

  const realtime = await startRealtime(context, server)
  const host = options.host ?? '127.0.0.1'
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 54321, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${host}:${port}`,
    port,
    config,
    close: async () => {
      await realtime.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** Supabase's gateway admits a request only with one of the project's keys, as header or query parameter. */
function checkApiKey(req: IncomingMessage, url: URL, config: ServerConfig): void {
  const key = header(req, 'apikey') ?? url.searchParams.get('apikey')
  if (!key) {
    throw new HttpError(401, { message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' })
  }
  if (!isApiKey(key, config)) {
    throw new HttpError(401, { message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' })
  }
}

/** Requests Node cannot parse (broken framing, oversized headers) get a JSON error too, rather than Node's bare one. */
function answerUnparsable(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy()
    return
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  const body = JSON.stringify({ message: status === 431 ? 'Request header fields too large' : 'Bad request' })
  socket.end(
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

function writeError(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  if (error instanceof HttpError) {
    sendJson(res, error.status, error.body, { ...corsHeaders(req), ...error.headers })
    return
  }
  console.error(`[local server] ${req.method} ${req.url}:`, error)
  sendJson(res, 500, { code: 'XX000', message: 'Internal server error', details: null, hint: null }, corsHeaders(req))
}
