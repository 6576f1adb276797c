import type { ApiContext, RouteHandler } from '../server'
import { HttpError } from '../http'

// Placeholder until the GoTrue-compatible layer lands.
export function createAuthHandler(_context: ApiContext): RouteHandler {
  return async () => {
    throw new HttpError(501, { message: 'Auth API not implemented yet' })
  }
}
