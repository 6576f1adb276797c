import type { IncomingMessage } from 'node:http'
import { HttpError, readBody } from '../http'
import { AuthError } from './errors'

// GoTrue's bodies are small JSON objects; anything this large is not a sign-in.
const MAX_AUTH_BODY_BYTES = 64 * 1024

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

const badJson = (detail: string) => new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${detail}`)

/**
 * Reads a JSON object body as GoTrue's retrieveRequestParams does: an empty body or `null` is an empty object,
 * anything else that is not an object is bad_json, and a field of the wrong type is bad_json too.
 */
export async function readParams(req: IncomingMessage): Promise<Record<string, unknown>> {
  let bytes: Buffer
  try {
    bytes = await readBody(req, MAX_AUTH_BODY_BYTES)
  } catch (error) {
    if (error instanceof HttpError && error.status === 413) {
      throw new AuthError(413, 'request_entity_too_large', `Request body too large (max ${MAX_AUTH_BODY_BYTES} bytes)`)
    }
    throw error
  }
  let text: string
  try {
    text = strictUtf8.decode(bytes)
  } catch {
    throw badJson('invalid UTF-8')
  }
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw badJson((error as Error).message)
  }
  if (value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw badJson('the body must be a JSON object')
  return value as Record<string, unknown>
}

/** A string field; absent or null is the empty string, as Go's zero value. */
export function stringParam(params: Record<string, unknown>, name: string): string {
  const value = params[name]
  if (value === undefined || value === null) return ''
  if (typeof value !== 'string') throw badJson(`field ${name} must be a string`)
  return value
}
