import type { IncomingMessage, ServerResponse } from 'node:http'

/** An error that already knows its HTTP answer; handlers throw it and the server writes it. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`)
  }
}

export const MAX_BODY_BYTES = 10 * 1024 * 1024

/** Reads the whole request body, refusing more than `limit` bytes with 413. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (Number.isFinite(declared) && declared > limit) throw payloadTooLarge(limit)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > limit) throw payloadTooLarge(limit)
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

function payloadTooLarge(limit: number): HttpError {
  return new HttpError(413, { code: 'PGRST413', message: `Request body larger than ${limit} bytes`, details: null, hint: null })
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

/** Decodes UTF-8, refusing invalid byte sequences with 400 rather than replacing them. */
export function decodeUtf8(bytes: Buffer): string {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    throw new HttpError(400, { code: 'PGRST100', message: 'Invalid UTF-8 in request', details: null, hint: null })
  }
}

/** Parses a JSON body; an empty body is undefined. Malformed JSON is PostgREST's PGRST102 (400). */
export function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new HttpError(400, { code: 'PGRST102', message: 'Empty or invalid json', details: (error as Error).message, hint: null })
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, body === undefined ? '' : JSON.stringify(body), { 'Content-Type': 'application/json; charset=utf-8', ...headers })
}

export function send(res: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end()
    return
  }
  res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) })
  res.end(body)
}

/** The request's header value as one string (first of repeated headers). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()]
  return Array.isArray(value) ? value[0] : value
}

/** The bearer token of the Authorization header, if any. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '')
  return match?.[1]
}

/**
 * Request headers as PostgREST passes them to Postgres in request.headers: lower-case names, one value each.
 * X-Forwarded-For is the server's own by then (client-address.ts).
 */
export function headersForPostgres(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}
