import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import type { Context } from '@netlify/functions'

/** The part of Netlify's Context that a function run outside Netlify gets. */
export type LocalContext = Pick<Context, 'ip' | 'requestId' | 'url' | 'params' | 'json' | 'log' | 'waitUntil'>

type FunctionHandler = (request: Request, context: LocalContext) => Response | Promise<Response>

export interface FunctionsMiddlewareOptions {
  /** Absolute path of the functions folder. */
  directory: string
  /** Imports a function's entry file (TypeScript included). */
  load: (file: string) => Promise<Record<string, unknown>>
  /** Values for the functions' environment, used only where the real environment has none. */
  env?: Record<string, string>
}

export const FUNCTIONS_PREFIX = '/.netlify/functions/'

// Netlify's own limit for a synchronous function's request body.
const MAX_BODY_BYTES = 6 * 1024 * 1024
const EXTENSIONS = ['.ts', '.mts', '.js', '.mjs']

/**
 * Serves Netlify Functions v2 (a default export taking a WHATWG Request) at their production path
 * /.netlify/functions/<name>, from a Node HTTP server or a connect stack such as Vite's. Scheduled functions answer
 * 404 there, as in production, where only their schedule invokes them.
 */
export function createFunctionsMiddleware(options: FunctionsMiddlewareOptions) {
  let envApplied = false
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    const name = functionName(req.url ?? '/')
    if (name === undefined) return next()
    // Applied on the first call rather than at start-up, so merely loading the plugin changes no environment.
    if (!envApplied) {
      for (const [key, value] of Object.entries(options.env ?? {})) process.env[key] ??= value
      envApplied = true
    }
    serve(name, req, res, options).catch((error: unknown) => {
      console.error(`netlify function ${name} failed:`, error)
      if (res.headersSent) return void res.destroy()
      sendJson(res, 500, { error: 'Function failed; see the server log.' })
    })
  }
}

function functionName(url: string): string | undefined {
  const { pathname } = new URL(url, 'http://localhost')
  if (!pathname.startsWith(FUNCTIONS_PREFIX)) return undefined
  return pathname.slice(FUNCTIONS_PREFIX.length).split('/')[0]
}

async function serve(name: string, req: IncomingMessage, res: ServerResponse, options: FunctionsMiddlewareOptions): Promise<void> {
  const file = /^[\w-]+$/.test(name) ? findEntry(options.directory, name) : undefined
  if (!file) return sendJson(res, 404, { error: `No function named "${name}" in ${options.directory}` })
  const entry = await options.load(file)
  // As on Netlify, a scheduled function has no URL: only its schedule runs it (`npm start` runs the pass itself).
  if (isScheduled(entry)) return sendJson(res, 404, { error: `"${name}" is a scheduled function: it cannot be invoked by URL` })
  const handler = entry.default
  if (typeof handler !== 'function') return sendJson(res, 500, { error: `${file} has no default export function` })

  const body = await readBody(req)
  if (body === undefined) return sendJson(res, 413, { error: `Request body larger than ${MAX_BODY_BYTES} bytes` })
  const request = toRequest(req, body)
  const context: LocalContext = {
    ip: clientIp(req),
    requestId: randomUUID(),
    url: new URL(request.url),
    params: {},
    json: (input: unknown) => Response.json(input),
    log: console.info,
    waitUntil: (promise) => void promise.catch((error: unknown) => console.error(`netlify function ${name}: waitUntil failed:`, error)),
  }
  const response = await (handler as FunctionHandler)(request, context)
  await writeResponse(res, response)
}

/** Declared with an inline `config.schedule`, as Netlify reads it. */
function isScheduled(module: Record<string, unknown>): boolean {
  const config = module.config as { schedule?: unknown } | undefined
  return typeof config?.schedule === 'string' && config.schedule !== ''
}

// Netlify's layout: <name>.ts, or a folder <name>/ with <name>.ts or index.ts. Other folders (helpers) are not functions.
function findEntry(directory: string, name: string): string | undefined {
  const candidates = EXTENSIONS.flatMap((ext) => [
    path.join(directory, `${name}${ext}`),
    path.join(directory, name, `${name}${ext}`),
    path.join(directory, name, `index${ext}`),
  ])
  return candidates.find((file) => existsSync(file))
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) return undefined
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

function toRequest(req: IncomingMessage, body: Buffer): Request {
  const headers = new Headers()
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) headers.append(key, item)
  }
  const method = req.method ?? 'GET'
  const hasBody = method !== 'GET' && method !== 'HEAD'
  return new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`), {
    method,
    headers,
    body: hasBody ? new Uint8Array(body) : undefined,
  })
}

/** The socket's address, as Netlify would give it: plain IPv4 rather than IPv4-mapped IPv6. */
function clientIp(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '')
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {}
  response.headers.forEach((value, key) => {
    if (key !== 'set-cookie') headers[key] = value
  })
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  res.writeHead(response.status, headers)
  if (response.body) {
    for await (const chunk of response.body) res.write(chunk)
  }
  res.end()
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' })
  res.end(JSON.stringify(body))
}
